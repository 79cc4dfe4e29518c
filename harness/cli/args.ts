/**
 * A small declarative option parser for the `icemu` commands. Each command
 * declares its options once; the same declaration produces the `--help`
 * text, so the help can't drift from what is accepted.
 */

export type OptionType = 'int' | 'string' | 'flag' | 'list';

export interface OptionSpec {
  name: string;
  type: OptionType;
  description: string;
  default?: number | string | boolean | string[];
  /** Allowed range for 'int'. */
  min?: number;
  max?: number;
  /** Placeholder in help, e.g. FILE. */
  arg?: string;
  short?: string;
}

export interface CommandSpec {
  name: string;
  summary: string;
  usage: string;
  description?: string;
  options: OptionSpec[];
  /** Positional arguments, for help only (validated by the command). */
  positionals?: { name: string; description: string }[];
  examples?: string[];
}

export type ParsedOptions = Record<string, number | string | boolean | string[] | undefined>;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** `usage('msg')` -> UsageError('icemu <command>: msg'): the one error line of a command. */
export function usageOf(command: string): (msg: string) => UsageError {
  return (msg) => new UsageError(`icemu ${command}: ${msg}`);
}

/** Options parsed from argv; `given` names the options argv set (the rest hold their defaults). */
export function parseArgs(spec: CommandSpec, argv: string[]): { opts: ParsedOptions; positionals: string[]; help: boolean; given: Set<string> } {
  const opts: ParsedOptions = {};
  const given = new Set<string>();
  const listed = new Set<string>();
  for (const o of spec.options) opts[o.name] = Array.isArray(o.default) ? [...o.default] : o.default;
  const positionals: string[] = [];
  let help = false;
  const byName = new Map(spec.options.map((o) => [o.name, o]));
  const byShort = new Map(spec.options.filter((o) => o.short).map((o) => [o.short!, o]));
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k]!;
    if (a === '--help' || a === '-h') {
      help = true;
      continue;
    }
    if (a === '--') {
      const rest = argv.slice(k + 1);
      if (rest.length && !spec.positionals?.length) throw new UsageError(`icemu ${spec.name}: unexpected argument '${rest[0]}' (${spec.name} takes options only; see --help)`);
      positionals.push(...rest);
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      if (!spec.positionals?.length) throw new UsageError(`icemu ${spec.name}: unexpected argument '${a}' (${spec.name} takes options only; see --help)`);
      positionals.push(a);
      continue;
    }
    let name: string;
    let inline: string | undefined;
    let o: OptionSpec | undefined;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      inline = eq >= 0 ? a.slice(eq + 1) : undefined;
      o = byName.get(name);
      if (!o && name.startsWith('no-') && byName.get(name.slice(3))?.type === 'flag') {
        opts[name.slice(3)] = false;
        given.add(name.slice(3));
        continue;
      }
    } else {
      name = a.slice(1);
      o = byShort.get(name);
    }
    if (!o) {
      const known = spec.options.map((x) => `--${x.name}`).join(', ');
      throw new UsageError(`icemu ${spec.name}: unknown option '${a}' (options: ${known || 'none'}, --help)`);
    }
    given.add(o.name);
    if (o.type === 'flag') {
      if (inline !== undefined) throw new UsageError(`icemu ${spec.name}: --${o.name} takes no value`);
      opts[o.name] = true;
      continue;
    }
    const raw = inline ?? argv[++k];
    // A missing value must not swallow the next option (`--json --no-vcd` would write a file named
    // `--no-vcd`); a value that really starts with `--` is written `--json=--x`.
    if (raw === undefined || (inline === undefined && isOptionWord(raw, byShort))) throw new UsageError(`icemu ${spec.name}: --${o.name} needs a value (${o.arg ?? o.type})`);
    if (o.type === 'int') {
      const v = Number(raw.replace(/_/g, ''));
      const lo = o.min ?? -Infinity;
      const hi = o.max ?? Infinity;
      if (!/^-?[0-9_]+$/.test(raw) || !Number.isSafeInteger(v) || v < lo || v > hi) {
        throw new UsageError(`icemu ${spec.name}: --${o.name} must be a whole number in ${lo}..${hi} (got '${raw}')`);
      }
      opts[o.name] = v;
    } else if (o.type === 'list') {
      // Given values replace the default; a second --x adds to the first (the default was copied
      // above, so comparing with o.default never told them apart: `--rates 0.5` ran the defaults too).
      const prev = opts[o.name];
      const list = listed.has(o.name) && Array.isArray(prev) ? prev : [];
      listed.add(o.name);
      const items = raw.split(',').filter(Boolean);
      if (items.length === 0) throw new UsageError(`icemu ${spec.name}: --${o.name} needs a value (${o.arg ?? o.type}), got '${raw}'`);
      list.push(...items);
      opts[o.name] = list;
    } else {
      opts[o.name] = raw;
    }
  }
  // `--vcd FILE --no-vcd`: which one the user meant cannot be told; refuse rather than pick one.
  for (const x of given) {
    if (given.has(`no-${x}`) && byName.get(`no-${x}`)) throw new UsageError(`icemu ${spec.name}: --${x} and --no-${x} cannot be combined`);
  }
  return { opts, positionals, help, given };
}

/** An argv word that is an option, not a value: `--anything`, or a declared short option (`-q`). */
function isOptionWord(word: string, byShort: ReadonlyMap<string, OptionSpec>): boolean {
  return word.startsWith('--') || (word.startsWith('-') && byShort.has(word.slice(1))) || word === '-h';
}

export function formatHelp(spec: CommandSpec): string {
  const lines: string[] = [];
  lines.push(`Usage: ${spec.usage}`, '', spec.summary);
  if (spec.description) lines.push('', spec.description);
  if (spec.positionals?.length) {
    lines.push('', 'Arguments:');
    for (const p of spec.positionals) lines.push(`  ${p.name.padEnd(24)} ${p.description}`);
  }
  lines.push('', 'Options:');
  const rows = spec.options.map((o) => {
    const flag = `${o.short ? `-${o.short}, ` : ''}--${o.name}${o.type === 'flag' ? '' : ` ${o.arg ?? (o.type === 'int' ? 'N' : 'VALUE')}`}`;
    let d = o.description;
    if (o.type === 'int' && (o.min !== undefined || o.max !== undefined)) d += ` (${o.min ?? ''}..${o.max ?? ''})`;
    if (o.default !== undefined && o.default !== false && !(Array.isArray(o.default) && o.default.length === 0)) {
      d += ` [default: ${Array.isArray(o.default) ? o.default.join(',') : o.default}]`;
    }
    return [flag, d] as const;
  });
  rows.push(['-h, --help', 'show this help']);
  const width = Math.max(...rows.map(([f]) => f.length)) + 2;
  for (const [f, d] of rows) lines.push(`  ${f.padEnd(width)}${d}`);
  if (spec.examples?.length) {
    lines.push('', 'Examples:');
    for (const e of spec.examples) lines.push(`  ${e}`);
  }
  return lines.join('\n');
}
