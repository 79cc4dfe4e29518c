/**
 * Per-process profile of a loaded Buzzard cube in steady state (issue 8;
 * docs/kernel.md "Stop 19: PBU"): builds and warms up the case as
 * bench/steady.ts does, then wraps every process function (the generated
 * dispatch calls the simulator's function arrays, so replacing an entry
 * wraps that process) with a counter and a CPU-clock timer, runs one
 * window and prints per process kind (unit class . process name): runs per
 * cycle, ns per run and share of the time spent in processes. The timer's
 * own cost is in every figure (about 50–100 ns a run): compare kinds and
 * trees with it, not with bench/steady.ts's ns per evaluation.
 *
 *   npx tsx bench/process_profile.ts [n=6] [gap=1024] [warmup=30000] [window=5000]
 */
import { buildLoaded } from './steady.ts';
import type { ProcessDecl } from '../rtl/kernel/module.ts';

const [n = '6', gap = '1024', warm = '30000', win = '5000'] = process.argv.slice(2);
const { sim } = buildLoaded({ n: +n, gapTicks: +gap, warmup: +warm, window: +win });
sim.step(+warm);

interface Kind {
  runs: number;
  ns: number;
}
const kinds = new Map<string, Kind>();
// The simulator's process tables are private: a bench may look, the design never does.
const inner = sim as unknown as { net: { seq: ProcessDecl[]; comb: ProcessDecl[] }; seqFns: (() => void)[]; combFns: (() => void)[] };
const wrap = (decls: ProcessDecl[], fns: (() => void)[], tag: string): void => {
  decls.forEach((d, p) => {
    const key = `${tag} ${d.module.constructor.name}.${d.name.replace(/[0-9]+/g, '#')}`;
    let k = kinds.get(key);
    if (!k) kinds.set(key, (k = { runs: 0, ns: 0 }));
    const kind = k;
    const fn = fns[p]!;
    fns[p] = () => {
      const t0 = process.hrtime.bigint();
      fn();
      kind.ns += Number(process.hrtime.bigint() - t0);
      kind.runs++;
    };
  });
};
wrap(inner.net.seq, inner.seqFns, 'seq ');
wrap(inner.net.comb, inner.combFns, 'comb');
const u0 = process.cpuUsage();
const e0 = sim.evaluations;
sim.step(+win);
const u = process.cpuUsage(u0);
const cpu = (u.user + u.system) / 1e3;
let total = 0;
for (const k of kinds.values()) total += k.ns;
console.log(`${n}-cube gap ${gap}, window ${win} after ${warm}: ${((sim.evaluations - e0) / +win).toFixed(1)} evaluations per cycle, CPU ${cpu.toFixed(0)} ms, in processes ${(total / 1e6).toFixed(0)} ms (${((100 * total) / 1e6 / cpu).toFixed(1)} %)`);
const rows = [...kinds.entries()].filter(([, k]) => k.runs > 0).sort((a, b) => b[1].ns - a[1].ns);
for (const [key, k] of rows.slice(0, 25)) {
  console.log(`${key.padEnd(46)} ${(k.runs / +win).toFixed(2).padStart(8)} runs/cycle ${(k.ns / k.runs).toFixed(0).padStart(6)} ns/run ${((100 * k.ns) / total).toFixed(1).padStart(5)} %`);
}
