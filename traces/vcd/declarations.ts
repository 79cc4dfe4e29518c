/**
 * The declaration half of the VCD writer (IEEE Std 1364-2005 §18.2): which
 * signals and memories a dump selects, the identifier code of each state
 * slot, the string twins of FSM state registers, and the header text with
 * its `$scope`/`$var` tree. `writer.ts` streams the values; the format notes
 * are at the top of that file.
 */
import { Memory, Module, Signal } from '../../rtl/kernel/module.ts';
import type { Simulator } from '../../rtl/kernel/simulator.ts';

export interface VcdOptions {
  /** Globs over hierarchical signal/memory names; several allowed. Default: everything (small designs only). */
  signals?: readonly string[];
  /** `$timescale` (§18.2.3.6): 1, 10 or 100 of s, ms, us, ns, ps, fs. One cycle is 2 units. Default '1ns'. */
  timescale?: string;
  /** Dump memory words as `mem[addr]` vars (opt-in). Default false. */
  memories?: boolean;
  /** Largest memory (in words) dumped with `memories: true`. Default 256. */
  maxMemoryWords?: number;
  /** Add `name_s` string twins of FSM state registers (signals with `options.enum`). Default false. */
  stateStrings?: boolean;
  /** Without `signals`, refuse designs with more signals than this. Default 2000. */
  maxDefaultSignals?: number;
  /** `$date` text (default: now, ISO 8601). Fix it for reproducible files. */
  date?: Date | string;
  /** Extra `$comment` in the header (e.g. the command line or workload seed). */
  comment?: string;
  /** Buffer size in bytes; output is written in chunks of about this size. Default 65536. */
  chunkSize?: number;
  /** Close on process exit and SIGINT. Default true. */
  handleExit?: boolean;
  /** The option that named the file, for error lines (`--vcd`). */
  label?: string;
}

/** One declared VCD variable. */
export interface VcdVarInfo {
  /** Full VCD hierarchical name without range, top scope first: `top.core.cnt.q`, `top.ram.mem[3]`. */
  name: string;
  /** Scope path, top scope first: `top.core.cnt`. */
  scope: string;
  /** Reference as declared (§18.2.3.8): `q`, `mem[3]`, `state_s`, `clk`. */
  ref: string;
  /** `[msb:lsb]` for vectors, '' for scalars and strings. */
  range: string;
  type: 'wire' | 'reg' | 'string';
  width: number;
  /** Identifier code (shared by aliases of one slot). */
  code: string;
  kind: 'clock' | 'signal' | 'state' | 'memory';
  /** Design-side name: the signal's path (`core.cnt.q`), `ram.mem[3]`, `core.fsm.state_s`; the clock's ref. */
  path: string;
  /** The signal (for 'signal' and 'state') or memory (for 'memory'); null for the clock. */
  source: Signal | Memory | null;
}

const DEFAULT_MAX_SIGNALS = 2000;
export const DEFAULT_MAX_MEMORY_WORDS = 256;

/** The `n`th identifier code: bijective base 94 over '!'..'~' (§18.2.1: printable ASCII 33..126). */
export function vcdIdCode(n: number): string {
  let s = '';
  let k = n + 1;
  while (k > 0) {
    k--;
    s += String.fromCharCode(33 + (k % 94));
    k = Math.floor(k / 94);
  }
  return s;
}

/** A token-safe form of an FSM state name: VCD values cannot contain whitespace. */
function stateToken(name: string): string {
  const t = name.replace(/[^\x21-\x7e]/g, '_');
  return t.length ? t : '_';
}

export function ascii(s: string): Uint8Array {
  const b = new Uint8Array(s.length);
  for (let k = 0; k < s.length; k++) b[k] = s.charCodeAt(k) & 0x7f;
  return b;
}

/** `name`, or `name_`, `name__`, ... : the first not already a signal, memory or child module of `m`. */
function freeName(m: Module, name: string, byName: Map<string, unknown>): string {
  const prefix = m.path ? m.path + '.' : '';
  let n = name;
  while (byName.has(prefix + n) || m.children.some((c) => c.name === n)) n += '_';
  return n;
}

/** What the writer needs from the declarations: per dumped slot its code and twin, per memory word its code, and the header. */
export interface VcdLayout {
  clockName: string;
  clockCode: string;
  /** State slots dumped, one entry each, with the entry's identifier code. */
  slots: number[];
  entryCode: string[];
  /** Per entry: index of its state-string twin, or -1; twin codes and the twins' value names. */
  twinOfEntry: number[];
  twinCode: string[];
  twinNames: Uint8Array[][];
  /** Memories dumped word by word: words memBase[j] .. memBase[j] + depth - 1 of memCodes. */
  dumpMems: Memory[];
  memBase: number[];
  memWords: number;
  memCodes: string[];
  /** Every declared variable, in declaration order (the clock first). */
  vars: VcdVarInfo[];
  /** The header text up to and including `$enddefinitions`. */
  header: string;
}

/** Select, assign codes and build the header for a dump of `sim` (see writer.ts for the format). */
export function layoutVcd(sim: Simulator, opts: VcdOptions, timescale: string, maxWords: number): VcdLayout {
  const net = sim.net;
  const maxSignals = opts.maxDefaultSignals ?? DEFAULT_MAX_SIGNALS;
  // ---- selection
  const selSignals = new Set<Signal>();
  const selMems = new Set<Memory>();
  const selectAll = opts.signals === undefined;
  if (selectAll) {
    if (net.signals.length > maxSignals) {
      throw new Error(
        `vcd: design ${net.root.name} has ${net.signals.length} signals (more than ${maxSignals}); ` +
          `choose some with signals: ['node1.**', ...] or ask for everything with signals: ['**']`,
      );
    }
    for (const s of net.signals) selSignals.add(s);
    for (const m of net.memories) selMems.add(m);
  } else {
    for (const g of opts.signals!) {
      const hits = sim.glob(g);
      if (hits.length === 0) throw new Error(`vcd: no signal or memory matches '${g}'`);
      for (const h of hits) {
        if (h instanceof Memory) selMems.add(h);
        else selSignals.add(h);
      }
    }
  }
  const dumpMems: Memory[] = [];
  const bigMems: Memory[] = [];
  if (opts.memories) {
    for (const m of net.memories) {
      if (!selMems.has(m)) continue;
      if (m.depth <= maxWords) dumpMems.push(m);
      else bigMems.push(m);
    }
  }

  // ---- entries (one per slot) and codes
  let nextCode = 0;
  const clockName = freeName(net.root, 'clk', net.byName);
  const clockCode = vcdIdCode(nextCode++);

  const entryOfSlot = new Int32Array(net.size).fill(-1); // every slot (a register's next value is beside it)
  const slots: number[] = [];
  const entryCode: string[] = [];
  const twinOfEntry: number[] = [];
  const twinCode: string[] = [];
  const twinNames: Uint8Array[][] = [];
  const stateStrings = opts.stateStrings ?? false;
  const vars: VcdVarInfo[] = [];
  const top = net.root.name;
  const scopeOf = (m: Module): string => (m.path ? `${top}.${m.path}` : top);

  // Declarations per module, in design order.
  const declsOf = new Map<Module, VcdVarInfo[]>();
  const declare = (m: Module, v: VcdVarInfo): void => {
    let list = declsOf.get(m);
    if (!list) declsOf.set(m, (list = []));
    list.push(v);
  };
  for (const sig of net.signals) {
    if (!selSignals.has(sig)) continue;
    let e = entryOfSlot[sig.i]!;
    if (e < 0) {
      e = slots.length;
      entryOfSlot[sig.i] = e;
      slots.push(sig.i);
      entryCode.push(vcdIdCode(nextCode++));
      twinOfEntry.push(-1);
    }
    const scope = scopeOf(sig.module);
    declare(sig.module, {
      name: `${scope}.${sig.name}`,
      scope,
      ref: sig.name,
      range: sig.width > 1 ? `[${sig.width - 1}:0]` : '',
      type: sig.kind === 'reg' ? 'reg' : 'wire',
      width: sig.width,
      code: entryCode[e]!,
      kind: 'signal',
      path: sig.path,
      source: sig,
    });
    const names = sig.options.enum;
    if (stateStrings && names && names.length) {
      let t = twinOfEntry[e]!;
      if (t < 0) {
        t = twinCode.length;
        twinOfEntry[e] = t;
        twinCode.push(vcdIdCode(nextCode++));
        twinNames.push(names.map((n) => ascii(stateToken(n))));
      }
      const ref = freeName(sig.module, `${sig.name}_s`, net.byName);
      declare(sig.module, {
        name: `${scope}.${ref}`,
        scope,
        ref,
        range: '',
        type: 'string',
        width: 1,
        code: twinCode[t]!,
        kind: 'state',
        path: sig.module.path ? `${sig.module.path}.${ref}` : ref,
        source: sig,
      });
    }
  }
  const memCodes: string[] = [];
  const memBase: number[] = [];
  let memWords = 0;
  for (const m of dumpMems) {
    memBase.push(memWords);
    memWords += m.depth;
    const scope = scopeOf(m.module);
    for (let a = 0; a < m.depth; a++) {
      const code = vcdIdCode(nextCode++);
      memCodes.push(code);
      declare(m.module, {
        name: `${scope}.${m.name}[${a}]`,
        scope,
        ref: `${m.name}[${a}]`,
        range: m.width > 1 ? `[${m.width - 1}:0]` : '',
        type: 'reg',
        width: m.width,
        code,
        kind: 'memory',
        path: `${m.path}[${a}]`,
        source: m,
      });
    }
  }

  // ---- header text (§18.2.3)
  const clockVar: VcdVarInfo = {
    name: `${top}.${clockName}`,
    scope: top,
    ref: clockName,
    range: '',
    type: 'wire',
    width: 1,
    code: clockCode,
    kind: 'clock',
    path: clockName,
    source: null,
  };
  const h: string[] = [];
  const date = opts.date === undefined ? new Date().toISOString() : typeof opts.date === 'string' ? opts.date : opts.date.toISOString();
  h.push(`$date\n\t${date}\n$end`);
  h.push('$version icemu $end');
  h.push(
    `$comment one simulator cycle = 2 time units: cycle c at time 2c (rising ${clockName}, registers committed, ` +
      `comb settled), ${clockName} falls at 2c+1 where values poked before the next edge change $end`,
  );
  if (opts.comment) h.push(`$comment ${opts.comment.replace(/\$end/g, '$ end')} $end`);
  if (bigMems.length) {
    h.push(`$comment memories not dumped (more than ${maxWords} words): ${bigMems.map((m) => m.path).join(' ')} $end`);
  }
  h.push(`$timescale ${timescale} $end`);
  // Keep a module's scope if it (or a descendant) declares something; with
  // the default selection keep every module, mirroring the hierarchy.
  const keep = new Map<Module, boolean>();
  const mark = (m: Module): boolean => {
    let k = selectAll || declsOf.has(m) || m === net.root;
    for (const c of m.children) if (mark(c)) k = true;
    keep.set(m, k);
    return k;
  };
  mark(net.root);
  const emitScope = (m: Module): void => {
    h.push(`$scope module ${m.name} $end`);
    const list = m === net.root ? [clockVar, ...(declsOf.get(m) ?? [])] : (declsOf.get(m) ?? []);
    for (const v of list) {
      vars.push(v);
      h.push(`$var ${v.type} ${v.width} ${v.code} ${v.ref}${v.range ? ' ' + v.range : ''} $end`);
    }
    for (const c of m.children) if (keep.get(c)) emitScope(c);
    h.push('$upscope $end');
  };
  emitScope(net.root);
  h.push('$enddefinitions $end\n');
  return { clockName, clockCode, slots, entryCode, twinOfEntry, twinCode, twinNames, dumpMems, memBase, memWords, memCodes, vars, header: h.join('\n') };
}
