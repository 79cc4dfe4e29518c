/**
 * The hot footprint per node (docs/kernel.md "Stop 23: hot footprint"): over
 * a steady window, the distinct 64-byte lines of each kernel table that the
 * window touches at least once, divided by the mesh's nodes. Where
 * bench/kernel_lines.ts counts lines per cycle (a cache that keeps nothing
 * from one cycle to the next), this counts the set a cache would have to
 * keep for every revisit of a node to hit: if those lines times 1,024 nodes
 * exceed the L3 (32 MB = 524,288 lines here), a 32x32 evaluation misses it.
 *
 * It wraps the comb runner, reader marking and commit (through `any`: a
 * measuring tool, its timing means nothing). The state vector's lines are a
 * model: the slots a process declares it reads (the netlist's reader and
 * guard lists, inverted) and writes (its comb write list; a seq process's
 * commit coverage, current and next value), for every process that ran,
 * plus the guard slots read when a slot is marked. Memories: the whole
 * array of every memory a process that ran declares it reads (an upper
 * bound). Not counted: the units' closures, objects and their context
 * (V8 heap objects have no stable address to count from here).
 *
 * Beside the state vector as laid out (4- or 8-byte slots, as the run has
 * them), alternatives from the same touches: each module's wires and
 * register pairs in one stretch, the other slot width, and a lower bound
 * (the touched slots packed densely, hot before cold); and for the reader
 * index: its start pairs without the next-value slots (which have no
 * readers), and the reader lists with a slot's lone plain reader kept in
 * its start pair.
 *
 *   npx tsx bench/hot_lines.ts [CASE WARMUP WINDOW]    (default node8 4500 500; CASE of bench/c104_cases.ts)
 */
import { buildC104Case, c104CaseNodes, isC104Case } from './c104_cases.ts';

const [c = 'node8', warm = '4500', win = '500'] = process.argv.slice(2);
const fail = (msg: string): never => {
  console.error(`hot_lines: ${msg}`);
  process.exit(2);
};
if (!isC104Case(c)) fail(`unknown case ${c}`);
if (!(Number.isInteger(+warm) && +warm >= 0 && Number.isInteger(+win) && +win > 0)) fail('WARMUP and WINDOW must be whole numbers, WINDOW > 0');
const sim = await buildC104Case('.', c as never, +warm, +win, fail);
sim.step(+warm);
const S = sim as any;
const net = S.net;
const wake = S.wake;
const nodes = c104CaseNodes(c as never);

// Per process: the slots it reads (plain and guarded, the guard slot too) and its memories.
const invert = (start: Int32Array, list: Int32Array, n: number, extra?: Int32Array): number[][] => {
  const out: number[][] = Array.from({ length: n }, () => []);
  for (let x = 0; x + 1 < start.length; x++) {
    for (let k = start[x]!; k < start[x + 1]!; k++) {
      out[list[k]!]!.push(x);
      if (extra) out[list[k]!]!.push(extra[k]!);
    }
  }
  return out;
};
const nComb = net.comb.length, nSeq = net.seq.length;
const combReads = invert(net.combReaderStart, net.combReaders, nComb);
const seqReads = invert(net.seqReaderStart, net.seqReaders, nSeq);
invert(net.combGuardStart, net.combGuardProc, nComb, net.combGuardSlot).forEach((xs, p) => combReads[p]!.push(...xs));
invert(net.seqGuardStart, net.seqGuardProc, nSeq, net.seqGuardSlot).forEach((xs, p) => seqReads[p]!.push(...xs));
const combMems: number[][] = Array.from({ length: nComb }, () => []);
const seqMems: number[][] = Array.from({ length: nSeq }, () => []);
// Readers at one address (CombOptions.readsAt): per comb process, pairs (memory, address slot); they touch one word's line.
const combAt: number[][] = Array.from({ length: nComb }, () => []);
net.memories.forEach((_: unknown, m: number) => {
  for (const p of net.memCombReaders[m]) combMems[p]!.push(m);
  for (const p of net.memSeqReaders[m]) seqMems[p]!.push(m);
  const at = net.memAtReaders[m];
  for (let k = 0; k < at.length; k += 2) combAt[at[k]]!.push(m, at[k + 1]);
});
const memAtLines = new Set<number>();

// Window sets. State: slots touched (and how often, for the lower bound).
const touchedSlot = new Uint32Array(net.size);
const lines = new Map<string, Set<number>>();
const touch = (t: string, i: number, bytes: number): void => {
  let set = lines.get(t);
  if (!set) lines.set(t, (set = new Set()));
  set.add(Math.floor((i * bytes) / 64));
};
const slot = (x: number): void => void touchedSlot[x]!++;
const memsTouched = new Set<number>();
const marked = new Set<number>();

const runComb = S.runComb;
S.runComb = (p: number): void => {
  touch('comb records', 2 * p, 4);
  const a = net.combWriteStart[p], b = net.combWriteStart[p + 1];
  if (b - a !== 1) for (let k = a; k < b; k++) touch('comb write lists (multi-slot)', k, 4), touch('comb old outputs (multi-slot)', k, S.oldOut.BYTES_PER_ELEMENT);
  for (let k = a; k < b; k++) slot(net.combWrites[k]);
  for (const x of combReads[p]!) slot(x);
  for (const m of combMems[p]!) memsTouched.add(m);
  const at = combAt[p]!;
  for (let k = 0; k < at.length; k += 2) memAtLines.add(at[k]! * 2 ** 24 + Math.floor((S.s[at[k + 1]!] * 8) / 64));
  touch('comb dirty words', p >>> 5, 4);
  runComb(p);
};
const mark = wake.mark.bind(wake);
let lone = 0;
wake.mark = (x: number): void => {
  // The records of rtl/kernel/reader_index.ts (docs/kernel.md "Stop 24: kernel").
  const i = x < net.regBase ? 2 * x : (x + net.regBase) & ~1;
  touch('reader index records', i, 4);
  const idx = wake.idx;
  const w = idx[i + 1];
  if (w === -1) lone++;
  else if (w !== 0) {
    const a = idx[i], e = a + (w & 0xffff);
    for (let k = a; k < e; k++) touch('reader list (readers, guard entries)', k, 4);
    for (let k = e; k < e + 4 * (w >>> 16); k += 4) for (let j = 0; j < 4; j++) touch('reader list (readers, guard entries)', k + j, 4), j === 0 && slot(wake.list[k]);
  }
  slot(x);
  marked.add(x);
  mark(x);
};
const leader = new Int32Array(net.nSeqGroups).fill(-1);
for (let p = 0; p < nSeq; p++) if (leader[net.seqGroup[p]] === -1) leader[net.seqGroup[p]] = p;
const commitActive = S.commitActive.bind(S);
let seqRuns = 0;
S.commitActive = (): void => {
  const cm = S.commit;
  seqRuns += cm.nRan;
  for (let k = 0; k < cm.nRan; k++) {
    const p = cm.ran[k];
    touch('ran list', k, 4);
    touch('commit records', 4 * p, 4);
    touch('commit records', 4 * leader[net.seqGroup[p]]! + 3, 4);
    touch('seq dirty words', p >>> 5, 4);
    const rec = cm.rec;
    const a = rec[4 * p + 1], b = rec[4 * p + 2];
    if (a < 0) for (let x = ~a; x < b; x++) slot(x); // a sweep: current and next values
    else for (let j = a; j < b; j++) touch('seq write lists', j, 4), slot(cm.listSlots[j]), slot(cm.listSlots[j] + 1);
    for (const x of seqReads[p]!) slot(x);
    for (const m of seqMems[p]!) memsTouched.add(m);
  }
  const wq = S.wakes;
  for (let k = 0; k < wq.size; k++) touch('wake queue (3 arrays)', 3 * k, 8);
  commitActive();
};

// Memory writes (every write goes through Memory.write): their lines, a lower bound of what the window touches.
const memWritten = new Set<number>();
net.memories.forEach((mem: any, m: number) => {
  const write = mem.write.bind(mem);
  mem.write = (addr: number, v: number): void => {
    memWritten.add(m * 2 ** 24 + Math.floor((addr * 8) / 64));
    write(addr, v);
  };
});
const ev0 = S.evaluations;
sim.step(+win);
const evals = (S.evaluations - ev0) / +win;
const perNode = (n: number): string => (n / nodes).toFixed(1).padStart(8);
console.log(`${c}: ${nodes} nodes, window ${win} cycles after ${warm}, ${evals.toFixed(1)} evaluations per cycle (${(evals / nodes).toFixed(2)} per node), seq runs ${(seqRuns / +win).toFixed(1)} per cycle; ${net.size} slots (${(net.size / nodes).toFixed(0)} per node)`);
console.log('distinct 64-byte lines touched in the window, per node:');
const rows: [string, number][] = [];
// State vector: as laid out, per-module, 4-byte slots, lower bound.
const stateLines = (map: (x: number) => number, bytes: number): number => {
  const set = new Set<number>();
  for (let x = 0; x < net.size; x++) if (touchedSlot[x]) set.add(Math.floor((map(x) * bytes) / 64));
  return set.size;
};
const perModule = new Int32Array(net.size).fill(-1);
{
  let next = 0;
  for (const m of net.modules) {
    for (const sig of m.signals) if (sig.kind !== 'reg' && perModule[sig.i] === -1) perModule[sig.i] = next++;
    for (const sig of m.signals) if (sig.kind === 'reg' && perModule[sig.i] === -1) (perModule[sig.i] = next++), (perModule[sig.i + 1] = next++);
  }
  for (let x = 0; x < net.size; x++) if (perModule[x] === -1) perModule[x] = next++;
}
let touchedSlots = 0;
for (let x = 0; x < net.size; x++) if (touchedSlot[x]) touchedSlots++;
const bytes: number = S.s.BYTES_PER_ELEMENT; // 4 by default without the debug checks (docs/kernel.md "Stop 23: 4-byte slots")
rows.push([`state vector (${bytes}-byte slots, as laid out)`, stateLines((x) => x, bytes)]);
const total0 = (): number => rows.reduce((a, [, n]) => a + n, 0);
for (const [t, set] of [...lines].sort()) rows.push([t, set.size]);
let memBytes = 0;
for (const m of memsTouched) memBytes += net.memories[m].data.byteLength;
const kernel = total0();
rows.push(['memories: lines written in the window (lower bound)', memWritten.size]);
for (const [t, n] of rows) console.log(`  ${t.padEnd(52)} ${perNode(n)}`);
const total = total0();
console.log(`  ${'kernel tables'.padEnd(52)} ${perNode(kernel)}   x 1,024 nodes = ${((kernel / nodes) * 1024 * 64 / 2 ** 20).toFixed(1)} MB`);
console.log(`  ${'memories read, whole arrays (upper bound; not in the total)'.padEnd(52)} ${perNode(Math.ceil(memBytes / 64))}`);
console.log(`  ${'memories read at one address, their words (not in the total)'.padEnd(52)} ${perNode(memAtLines.size)}`);
console.log(`  ${'total'.padEnd(52)} ${perNode(total)}   x 1,024 nodes = ${((total / nodes) * 1024 * 64 / 2 ** 20).toFixed(1)} MB (L3 32 MB)`);
const byClass = new Map<string, [number, number]>();
for (const m of memsTouched) {
  const mem = net.memories[m];
  const k = `${mem.module.constructor.name}.${mem.name.replace(/[0-9]+/g, '#')}`;
  const e = byClass.get(k) ?? [0, 0];
  byClass.set(k, [e[0] + 1, e[1] + Math.ceil(mem.data.byteLength / 64)]);
}
console.log('memories read by a process that ran, by kind (count, whole arrays: lines per node; kinds under 0.5 left out):');
for (const [k, [n, l]] of [...byClass].sort((a, b) => b[1][1] - a[1][1]).filter(([, [, l]]) => l / nodes >= 0.5)) console.log(`  ${k.padEnd(52)} ${String(n).padStart(6)} ${perNode(l)}`);
console.log('state vector alternatives, per node:');
console.log(`  ${'slots touched'.padEnd(52)} ${perNode(touchedSlots)}`);
console.log(`  ${`each module in one stretch (${bytes}-byte slots)`.padEnd(52)} ${perNode(stateLines((x) => perModule[x]!, bytes))}`);
console.log(`  ${`as laid out, ${12 - bytes}-byte slots`.padEnd(52)} ${perNode(stateLines((x) => x, 12 - bytes))}`);
console.log(`  ${'lower bound: touched slots packed (8 / 4 bytes)'.padEnd(52)} ${perNode(Math.ceil(touchedSlots / 8))} ${perNode(Math.ceil(touchedSlots / 16))}`);
console.log(`  ${'slots marked; marks of a slot with a lone plain reader'.padEnd(52)} ${perNode(marked.size)} ${perNode(lone)}`);
