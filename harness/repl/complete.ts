/** Tab completion for the REPL: command names, sub-words, hierarchical names, nodes, checkpoints, files. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_KINDS } from '../../traces/events/vocabulary.ts';
import type { ReplEngine } from './engine.ts';

/**
 * Completion for readline: [candidates, the text they replace]. Like GNU
 * readline and gdb, a single candidate that is a finished word (a command,
 * a signal, a sub-word, a file) gets a trailing space so the next argument
 * can be typed at once; a module prefix (node3.) or a directory (dir/) does
 * not, since the name goes on.
 */
export function complete(e: ReplEngine, line: string): [string[], string] {
  const [hits, token] = candidates(e, line);
  if (hits.length === 1 && !/[./]$/.test(hits[0]!)) return [[`${hits[0]} `], token];
  return [hits, token];
}

function candidates(e: ReplEngine, line: string): [string[], string] {
  const sp = line.search(/\s/);
  if (sp < 0) {
    const hits = e.commandNames().filter((n) => n.startsWith(line));
    return [hits, line];
  }
  const word = line.slice(0, sp);
  const cmd = e.byName.get(word);
  if (!cmd) return [[], line];
  const args = line.slice(sp).trimStart();
  const argv = args.split(/\s+/);
  const argIndex = argv.length - 1;
  const token = /[A-Za-z0-9_.*?{},[\]/-]*$/.exec(line)![0];
  const pick = (list: string[]): [string[], string] => [list.filter((x) => x.startsWith(token)), token];
  if (cmd.name === 'help') return pick([...e.commandNames(), 'expressions']);
  if (cmd.name === 'restore' || (cmd.name === 'delete' && argv[0] === 'checkpoint' && argIndex === 1)) return pick([...e.named.keys()]);
  if (cmd.name === 'break' && argv[0] === 'event' && argIndex === 1) return pick([...EVENT_KINDS, 'any']);
  if (cmd.name === 'next-event' && argIndex === 0) return pick([...EVENT_KINDS]);
  if (argIndex === 0 && cmd.words) {
    const w = pick(cmd.words);
    if (w[0].length || cmd.arg === 'none' || cmd.arg === 'node') {
      if (cmd.arg === 'node' && !w[0].length) return pick(Array.from({ length: e.target.nodes }, (_, x) => `node${x}`));
      return w;
    }
  }
  switch (cmd.arg) {
    case 'signal':
    case 'expr':
      return [completeName(e, token, false), token];
    case 'module':
      return [completeName(e, token, true), token];
    case 'node':
      return pick(Array.from({ length: e.target.nodes }, (_, x) => `node${x}`));
    case 'file':
      if (cmd.name === 'vcd' && argIndex >= 2) return [completeName(e, token, false), token];
      return [completeFile(token), token];
    default:
      return [[], token];
  }
}

export function completeName(e: ReplEngine, token: string, modulesOnly: boolean): string[] {
  const out: string[] = [];
  const bases = token.startsWith('/') ? [''] : e.scope ? [e.scope, ''] : [''];
  const tok = token.replace(/^\//, '');
  const lead = token.startsWith('/') ? '/' : '';
  for (const base of bases) {
    const full = base ? `${base}.${tok}` : tok;
    const dot = full.lastIndexOf('.');
    const parentPath = dot < 0 ? '' : full.slice(0, dot);
    const partial = dot < 0 ? full : full.slice(dot + 1);
    const mod = e.sim.net.modulesByPath.get(parentPath);
    if (!mod) continue;
    const prefix = lead + tok.slice(0, tok.length - partial.length);
    for (const ch of mod.children) if (ch.name.startsWith(partial)) out.push(`${prefix}${ch.name}.`);
    if (!modulesOnly) {
      for (const s of mod.signals) if (s.name.startsWith(partial)) out.push(prefix + s.name);
      for (const m of mod.memories) if (m.name.startsWith(partial)) out.push(prefix + m.name);
    }
    if (out.length) break;
  }
  return [...new Set(out)];
}

function completeFile(token: string): string[] {
  const dir = token.includes('/') ? token.slice(0, token.lastIndexOf('/') + 1) : '';
  const base = token.slice(dir.length);
  try {
    return readdirSync(dir || '.')
      .filter((f) => f.startsWith(base) && !f.startsWith('.'))
      .map((f) => {
        const p = join(dir || '.', f);
        let isDir = false;
        try {
          isDir = statSync(p).isDirectory();
        } catch {
          /* unreadable entry */
        }
        return dir + f + (isDir ? '/' : '');
      });
  } catch {
    return [];
  }
}
