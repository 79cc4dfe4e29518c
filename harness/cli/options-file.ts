/**
 * `--config FILE` for commands whose configuration is their own options
 * (`icemu c104`): a JSON object whose keys are option names without the
 * dashes (`{"width": 4, "policy": "random"}`), plus named extra keys (the
 * positional preset). Each value is checked as the command line checks it
 * (an int option takes a JSON integer, not a string); the command line wins
 * over the file for every option it sets. Output options and `config`
 * itself are not taken from a file: outputs are named on the command line,
 * where they are checked before the run.
 */
import { readFileSync } from 'node:fs';
import { parseArgs, UsageError, type CommandSpec, type ParsedOptions } from './args.ts';

export interface OptionsFile {
  /** The options after the file and then the command line. */
  readonly opts: ParsedOptions;
  /** The extra keys the file gave (strings). */
  readonly extra: Readonly<Record<string, string>>;
  /** The option names the file gave (whether or not the command line overrode them). */
  readonly keys: readonly string[];
}

export function applyOptionsFile(spec: CommandSpec, opts: ParsedOptions, given: ReadonlySet<string>, file: string, o: { exclude: readonly string[]; extra: readonly string[] }): OptionsFile {
  const fail = (msg: string): UsageError => new UsageError(`icemu ${spec.name}: --config ${file}: ${msg}`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw fail(`cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw fail(`not JSON (${(e as Error).message})`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw fail('must be a JSON object of options');
  const allowed = spec.options.filter((x) => !o.exclude.includes(x.name) && x.name !== 'config');
  const byName = new Map(allowed.map((x) => [x.name, x]));
  const argv: string[] = [];
  const extra: Record<string, string> = {};
  for (const [key, v] of Object.entries(doc as Record<string, unknown>)) {
    const spec1 = byName.get(key);
    if (o.extra.includes(key)) {
      if (typeof v !== 'string') throw fail(`"${key}" must be a string`);
      extra[key] = v;
      continue;
    }
    if (!spec1) throw fail(`unknown key "${key}" (keys: ${[...o.extra, ...allowed.map((x) => x.name)].join(', ')})`);
    if (spec1.type === 'int') {
      if (typeof v !== 'number' || !Number.isInteger(v)) throw fail(`"${key}" must be an integer (got ${JSON.stringify(v)})`);
      argv.push(`--${key}=${v}`);
    } else if (spec1.type === 'flag') {
      if (typeof v !== 'boolean') throw fail(`"${key}" must be true or false (got ${JSON.stringify(v)})`);
      argv.push(v ? `--${key}` : `--no-${key}`);
    } else if (spec1.type === 'list') {
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw fail(`"${key}" must be a list of strings`);
      argv.push(`--${key}=${v.join(',')}`);
    } else {
      if (typeof v !== 'string') throw fail(`"${key}" must be a string (got ${JSON.stringify(v)})`);
      argv.push(`--${key}=${v}`);
    }
  }
  let fromFile: ParsedOptions;
  try {
    fromFile = parseArgs({ ...spec, positionals: [] }, argv).opts;
  } catch (e) {
    if (e instanceof UsageError) throw fail(e.message.replace(`icemu ${spec.name}: `, ''));
    throw e;
  }
  const out: ParsedOptions = { ...opts };
  for (const a of argv) {
    const name = a.replace(/^--(no-)?/, '').replace(/=.*$/, '');
    if (!given.has(name)) out[name] = fromFile[name];
  }
  return { opts: out, extra, keys: argv.map((a) => a.replace(/^--(no-)?/, '').replace(/=.*$/, '')) };
}
