/**
 * Where the kernel's own work goes in a loaded Buzzard cube (docs/kernel.md
 * "Stop 19: kernel"): per cycle of a steady-state window, the registers the
 * commit visits against those that change, and the comb runs against those
 * that change an output, the seq runs against those that change a register
 * or write a memory, by process class. It wraps the simulator's private
 * commit and comb runner (through `any`: a measuring tool, not an API), so
 * its own timing means nothing; only the counts are read.
 *
 *   npx tsx bench/kernel_work.ts [N GAP WARMUP WINDOW]     (default 6 1024 30000 3000)
 *
 * WAKE=<class regex> (e.g. WAKE=Crossbar) adds what wakes those comb
 * classes: per cycle, the runs woken by each signal (name, digits as #) and
 * how many of them changed an output (docs/kernel.md "Stop 19: crossbar").
 */
import { buildLoaded } from './steady.ts';
const [n = '6', gap = '1024', warm = '30000', win = '3000'] = process.argv.slice(2);
const { sim } = buildLoaded({ n: +n, gapTicks: +gap, warmup: +warm, window: +win });
sim.step(+warm);
const S = sim as any;
const net = S.net;
let visits = 0, changes = 0, sweeps = 0, commits = 0, tracked = 0, ran = 0;
const perProcVisits = new Map<string, number>();
const origCommit = S.commitActive.bind(S);
S.commitActive = () => {
  commits++;
  ran += S.commit.nRan;
  tracked += S.commit.nTracked;
  if (S.commit.sweepCheaper()) sweeps++;
  const seen = new Set<number>();
  for (let k = 0; k < S.commit.nRan; k++) {
    const p = S.commit.ran[k];
    const g = net.seqGroup[p];
    if (seen.has(g)) continue;
    seen.add(g);
    const len = net.seqWriteStart[p + 1] - net.seqWriteStart[p] + net.seqSweepHi[p] - net.seqSweepLo[p];
    visits += len;
    const d = net.seq[p];
    const key = `${d.module.constructor.name}.${d.name.replace(/[0-9]+/g, '#')}${d.writes.length ? ' [w]' : d.tracked ? ' [t]' : ' [range]'}`;
    perProcVisits.set(key, (perProcVisits.get(key) ?? 0) + len);
  }
  // Register r's current value is in slot regBase + 2r (docs/kernel.md "Stop 20: state layout").
  const cur = (r: number): number => S.s[net.regBase + 2 * r];
  const before = Array.from({ length: net.nRegs }, (_, r) => cur(r));
  const memWriters = new Set(S.pendingMems.map((m: { module: unknown }) => m.module));
  const ranNow: number[] = Array.from(S.commit.ran.subarray(0, S.commit.nRan));
  origCommit();
  for (let r = 0; r < net.nRegs; r++) if (cur(r) !== before[r]) changes++;
  // Per seq run: did a register it may write change, or its module write a memory?
  for (const p of ranNow) {
    const d = net.seq[p];
    let hit = memWriters.has(d.module) || d.tracked;
    for (let j = net.seqWriteStart[p]; !hit && j < net.seqWriteStart[p + 1]; j++) hit = cur(net.seqWriteList[j]) !== before[net.seqWriteList[j]];
    for (let r = net.seqSweepLo[p]; !hit && r < net.seqSweepHi[p]; r++) hit = cur(r) !== before[r];
    const key = `${d.module.constructor.name}.${d.name.replace(/[0-9]+/g, '#')}`;
    const e = seqKey.get(key) ?? [0, 0];
    e[0]++;
    e[1] += hit ? 1 : 0;
    seqKey.set(key, e);
  }
};
const seqKey = new Map<string, [number, number]>();
// comb stats
let combRuns = 0, combChanged = 0;
const origRunComb = S.runComb;
const combKey = new Map<string, [number, number]>();
S.runComb = (p: number) => {
  const ws = net.combWriteStart, wl = net.combWrites;
  const old: number[] = [];
  for (let k = ws[p]; k < ws[p + 1]; k++) old.push(S.s[wl[k]]);
  origRunComb(p);
  let ch = 0;
  for (let k = ws[p]; k < ws[p + 1]; k++) if (S.s[wl[k]] !== old[k - ws[p]]) ch = 1;
  combRuns++; combChanged += ch;
  const d = net.comb[p];
  const key = `${d.module.constructor.name}.${d.name.replace(/[0-9]+/g, '#')}`;
  const e = combKey.get(key) ?? [0, 0]; e[0]++; e[1] += ch; combKey.set(key, e);
  if (wakeRe && wakeRe.test(key)) {
    const wk = `${key} <- ${cause.get(p) ?? '(start of cycle)'}`;
    cause.delete(p);
    const w = wakeKey.get(wk) ?? [0, 0]; w[0]++; w[1] += ch; wakeKey.set(wk, w);
  }
};
// wake causes: the first signal whose change put a process of the chosen classes in the dirty set
const wakeRe = process.env.WAKE ? new RegExp(process.env.WAKE) : null;
const combClass = (p: number): string => `${net.comb[p].module.constructor.name}.${net.comb[p].name.replace(/[0-9]+/g, '#')}`;
const cause = new Map<number, string>();
const wakeKey = new Map<string, [number, number]>();
if (wakeRe) {
  const origMark = S.wake.mark.bind(S.wake);
  const cands = (slot: number): number[] => {
    const out: number[] = [];
    for (let k = net.combReaderStart[slot]; k < net.combReaderStart[slot + 1]; k++) out.push(net.combReaders[k]);
    for (let k = net.combGuardStart[slot]; k < net.combGuardStart[slot + 1]; k++) out.push(net.combGuardProc[k]);
    return out.filter((p) => wakeRe.test(combClass(p)) && !S.combDirty.has(p));
  };
  S.wake.mark = (slot: number) => {
    const before = cands(slot);
    origMark(slot);
    const sig = net.slotSignal[slot];
    for (const p of before) if (S.combDirty.has(p)) cause.set(p, `${sig.module.constructor.name}.${sig.name.replace(/[0-9]+/g, '#')}`);
  };
}
const ev0 = sim.evaluations;
sim.step(+win);
const W = +win;
console.log(`regs ${net.nRegs} wires ${net.nWires} seq ${net.seq.length} comb ${net.comb.length}`);
console.log(`per cycle: evals ${((sim.evaluations - ev0) / W).toFixed(1)} seqRan ${(ran / W).toFixed(1)} commit visits ${(visits / W).toFixed(1)} tracked ${(tracked / W).toFixed(1)} reg changes ${(changes / W).toFixed(1)} sweeps ${sweeps} comb runs ${(combRuns / W).toFixed(1)} comb changed ${(combChanged / W).toFixed(1)}`);
console.log('commit visits per cycle by process class:');
for (const [k, v] of [...perProcVisits].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log('  ', (v / W).toFixed(1), k);
console.log('seq runs / runs that changed a register or wrote a memory, per cycle by class (tracked processes count as changing):');
for (const [k, v] of [...seqKey].sort((a, b) => b[1][0] - a[1][0]).slice(0, 15)) console.log('  ', (v[0] / W).toFixed(1), (v[1] / W).toFixed(1), k);
console.log('comb runs / changed per cycle by class:');
for (const [k, v] of [...combKey].sort((a, b) => b[1][0] - a[1][0]).slice(0, 20)) console.log('  ', (v[0] / W).toFixed(1), (v[1] / W).toFixed(1), k);
if (wakeRe) {
  console.log(`wake causes of ${wakeRe.source} comb runs (runs / changed per cycle, by first waking signal):`);
  for (const [k, v] of [...wakeKey].sort((a, b) => b[1][0] - a[1][0]).slice(0, 30)) console.log('  ', (v[0] / W).toFixed(1), (v[1] / W).toFixed(1), k);
}
