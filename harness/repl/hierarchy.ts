/** REPL commands over the module hierarchy: ls, cd, pwd, where, print. */
import { Memory, Module, Signal } from '../../rtl/kernel/index.ts';
import { ReplError, type CommandDef } from './common.ts';
import type { ReplEngine } from './engine.ts';
import { decode, formatValue, hex, signalOptions } from './format.ts';
import { activity } from './time.ts';
import { camRow, formatEvent } from './views.ts';

export function hierarchyCommands(e: ReplEngine): CommandDef[] {
  return [
    {
      name: 'ls',
      aliases: ['dir'],
      usage: 'ls [scope]',
      summary: 'list the child modules and signals of a scope (default: the current one)',
      help: ['Modules end with /. Signals show kind, width and value.'],
      maxArgs: 1,
      arg: 'module',
      run: (a) => cmdLs(e, a[0]),
    },
    {
      name: 'cd',
      aliases: [],
      usage: 'cd [scope]',
      summary: 'change the current scope (names are then relative to it); cd / or cd alone: the top',
      help: ['cd node3, cd pbu1 (relative), cd .., cd /. Names not found in the scope are looked up from the top.'],
      maxArgs: 1,
      arg: 'module',
      run: (a) => {
        e.scope = a[0] === undefined ? '' : e.resolveScope(a[0]);
        e.emit(`scope ${e.scope || '/'}`);
      },
    },
    {
      name: 'pwd',
      aliases: [],
      usage: 'pwd',
      summary: 'print the current scope',
      help: [],
      maxArgs: 0,
      arg: 'none',
      run: () => e.emit(e.scope || '/'),
    },
    {
      name: 'where',
      aliases: ['w'],
      usage: 'where',
      summary: 'where you are: cycle, scope, last stop, pending stimulus, messages',
      help: [],
      maxArgs: 0,
      arg: 'none',
      run: () => cmdWhere(e),
    },
    {
      name: 'print',
      aliases: ['p'],
      usage: 'print <name | glob | module | memory[addr] | memory[a..b]> ...',
      summary: 'values in decimal, hex, binary and decoded (states, CAM fields, packets)',
      help: [
        'print node3.pbu1.inState; print node*.nip.count; print node3.pbu1 (every signal of the module);',
        'print node0.nip.fifo.mem[0..3] (memory words). Names are relative to the scope (cd) first.',
        'At most print-limit lines (default 400) are shown, then a count of the rest (set print-limit N).',
      ],
      arg: 'signal',
      run: (a) => {
        if (!a.length) throw new ReplError('print: what? (a signal name, glob or module)');
        const start = e.out.length;
        for (const x of a) cmdPrint(e, x);
        const extra = e.out.length - start - e.printLimit;
        if (extra > 0) {
          e.out.length = start + e.printLimit;
          e.emit(e.c.dim(`... ${extra} more line${extra === 1 ? '' : 's'} not shown (print-limit ${e.printLimit}: set print-limit N, or narrow the name)`));
        }
      },
    },
  ];
}

export function cmdLs(e: ReplEngine, arg: string | undefined): void {
  const path = arg === undefined ? e.scope : e.resolveScope(arg);
  const mod = e.sim.net.modulesByPath.get(path)!;
  e.emit(e.c.bold(`${path || '/'}${mod.constructor.name !== 'Module' ? ` (${mod.constructor.name})` : ''}`));
  for (const ch of mod.children) e.emit(`  ${ch.name}/`.padEnd(28) + e.c.dim(ch.constructor.name));
  const rows: string[][] = mod.signals.map((s) => [s.name, `${s.kind}[${s.width}]`, shortValue(e, s)]);
  const w0 = Math.max(0, ...rows.map((r) => r[0]!.length));
  const w1 = Math.max(0, ...rows.map((r) => r[1]!.length));
  for (const [a, b, v] of rows) e.emit(`  ${a!.padEnd(w0)}  ${b!.padEnd(w1)}  ${v}`);
  for (const m of mod.memories) e.emit(`  ${m.name}  memory ${m.depth} x ${m.width} bits`);
}

export function shortValue(e: ReplEngine, s: Signal): string {
  const v = e.sim.peek(s);
  const d = decode(e.sim, s, v);
  if (signalOptions(e.sim, s).enum) return `${d} (${v})`;
  return `${v}${s.width > 4 ? ` (${hex(v, s.width)})` : ''}${d ? `  ${d}` : ''}`;
}

export function cmdPrint(e: ReplEngine, arg: string): void {
  const m = /^(.*?)\[(\S+?)(?:\.\.(\S+))?\]$/.exec(arg);
  if (m) {
    const hits = e.lookup(m[1]!);
    const mems = hits.filter((h): h is Memory => h instanceof Memory);
    if (!mems.length) throw new ReplError(`${m[1]} is not a memory (only memories take [addr])`);
    for (const mem of mems) {
      const a = e.intArg(m[2], 'address', 0, mem.depth - 1);
      const b = m[3] === undefined ? a : e.intArg(m[3], 'address', a, mem.depth - 1);
      if (b - a >= 4096) throw new ReplError(`print ${arg}: at most 4096 words at a time`);
      printMemory(e, mem, a, b);
    }
    return;
  }
  const mod = e.findModuleMaybe(arg);
  if (mod && !e.sim.net.byName.has(e.candidatesFor(arg)[0]!)) {
    e.emit(e.c.bold(`${mod.path || '/'}:`));
    printSignals(e, mod.signals, mod.path);
    for (const mm of mod.memories) e.emit(`  ${mm.name}: memory ${mm.depth} x ${mm.width} bits (print ${e.rel(mm.path)}[0..${Math.min(15, mm.depth - 1)}])`);
    printPacketsOf(e, mod);
    return;
  }
  const { hits, scoped } = e.lookupScoped(arg);
  const sigs = hits.filter((h): h is Signal => h instanceof Signal);
  printSignals(e, sigs, '', scoped);
  for (const mm of hits.filter((h): h is Memory => h instanceof Memory)) {
    printMemory(e, mm, 0, Math.min(15, mm.depth - 1));
  }
}

export function printSignals(e: ReplEngine, sigs: Signal[], under: string, scoped = false): void {
  const names = sigs.map((s) => (under ? s.name : scoped ? e.rel(s.path) : s.path));
  const w = Math.max(0, ...names.map((n) => n.length));
  sigs.forEach((s, k) => e.emit(`  ${names[k]!.padEnd(w)} = ${formatValue(e.sim, s, e.sim.peek(s))}${packetNote(e, s)}`));
}

/** For a CAM row of a packet buffer unit: the buffered packet, source from the RAM. */
export function packetNote(e: ReplEngine, s: Signal): string {
  const m = /^node(\d+)\.pbu(\d+)\.cam\.row(\d+)$/.exec(s.path);
  if (!m) return '';
  const x = Number(m[1]);
  const i = Number(m[2]);
  const row = Number(m[3]);
  if (!e.bz) return '';
  const pbu = e.cube.nodes[x]?.pbus[i - 1];
  if (!pbu || row >= e.sim.peek(pbu.cam.used)) return e.c.dim('  (free row)');
  const r = camRow(e.view, x, i, row);
  return e.c.dim(`  packet ${r.src}→${r.dest}, ${r.len} words after the destination (${2 * r.len + 2} B), next ${r.next}${r.contrary ? ', contrary' : ''}`);
}

export function printPacketsOf(e: ReplEngine, mod: Module): void {
  const m = /^node(\d+)(?:\.(pbu(\d+)|nip|nop))?$/.exec(mod.path);
  if (!m || !e.bz) return;
  const rec = e.recorder;
  const x = Number(m[1]);
  if (m[3]) {
    const i = Number(m[3]);
    const rx = rec.pbuRx(x, i);
    const tx = rec.pbuTx(x, i);
    e.emit(`  packets: receiving ${rx === undefined ? '-' : rec.label(rx)}, forwarding ${tx === undefined ? '-' : rec.label(tx)}`);
  } else if (m[2] === 'nip') {
    const p = rec.nipPacket(x);
    e.emit(`  packet: ${p === undefined ? '-' : rec.label(p)}`);
  } else if (m[2] === 'nop') {
    const ps = e.cube.nodes[x]!.nop.slots.map((_, k) => {
      const p = rec.slotPacket(x, k + 1);
      return `slot${k + 1} ${p === undefined ? '-' : rec.label(p)}`;
    });
    e.emit(`  packets: ${ps.join(', ')}`);
  }
}

export function printMemory(e: ReplEngine, mem: Memory, a: number, b: number): void {
  const digits = Math.ceil(mem.width / 4);
  for (let r = a; r <= b; r += 8) {
    const words: string[] = [];
    for (let k = r; k <= Math.min(b, r + 7); k++) words.push(mem.data[k]!.toString(16).padStart(digits, '0'));
    e.emit(`  ${e.rel(mem.path)}[${r}${Math.min(b, r + 7) > r ? `..${Math.min(b, r + 7)}` : ''}] = ${words.join(' ')}`);
  }
}

export function cmdWhere(e: ReplEngine): void {
  e.emit(`cycle ${e.sim.cycle}${activity(e)}, scope ${e.scope || '/'}`);
  if (e.lastStop) e.emit(`last stop: ${e.lastStop}`);
  const recent = e.events.slice(-3);
  if (recent.length) e.emit(`latest events: ${recent.map(formatEvent).join('; ')}`);
  const msgs = e.bz ? `messages: ${e.bz.driver.sent.length} sent, receives: ${e.bz.driver.receives.length} posted; ` : '';
  e.emit(`${msgs}${e.bps.length} breakpoint(s)/watch(es); ${e.named.size} named checkpoint(s)`);
}
