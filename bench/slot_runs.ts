/**
 * Node output port slot runs of a loaded Buzzard cube, classed by state →
 * next state and count (docs/kernel.md "Stop 25: Buzzard"): which runs only
 * do what is known in advance. Counts only.
 *
 *   npx tsx bench/slot_runs.ts [n=6] [gap=1024] [warmup=30000] [window=5000]
 */
import { Simulator } from '../rtl/kernel/index.ts';
import { BuzzardCube } from '../rtl/buzzard/network.ts';
import type { ProcessDecl } from '../rtl/kernel/module.ts';
import { NodeOutputPort, SLOT_STATES } from '../rtl/buzzard/node_output_port.ts';
import { CubeDriver } from '../harness/rtl/cube_driver.ts';
import { buzzardCh5Workload } from '../harness/workloads/index.ts';
import { DEFAULT_CYCLES_PER_TICK, scheduleWorkload } from '../harness/rtl/run_workload.ts';

const [n = '6', gap = '1024', warm = '30000', win = '5000'] = process.argv.slice(2);
const cube = new BuzzardCube({ n: +n }, 'cube');
const sim = new Simulator(cube);
const horizon = +warm + +win + 10_000;
scheduleWorkload(new CubeDriver(sim, cube), buzzardCh5Workload({ cubeDegree: +n, meanBytes: 512, meanGapTicks: +gap, durationTicks: horizon / DEFAULT_CYCLES_PER_TICK, seed: 1 }));
sim.step(+warm);
const inner = sim as unknown as { net: { seq: ProcessDecl[] }; seqFns: (() => void)[] };
const classes = new Map<string, number>();
let total = 0;
inner.net.seq.forEach((d, p) => {
  if (!(d.module instanceof NodeOutputPort) || !d.name.startsWith('slot')) return;
  const port = d.module;
  const sl = port.slot(+d.name.slice(4));
  const fn = inner.seqFns[p]!;
  inner.seqFns[p] = () => {
    fn();
    const s = port.s;
    const st = s[sl.state.i]!;
    const nx = s[sl.state.n]!;
    const c = s[sl.cnt.i]!;
    const key = `${SLOT_STATES[st]}->${SLOT_STATES[nx]} c=${c} xgnt=${s[sl.xgnt.i]} hold=${s[sl.hold.i]} load=${s[sl.pfLoad.i]} av=${s[sl.pfAvail.i]}`;
    classes.set(key, (classes.get(key) ?? 0) + 1);
    total++;
  };
});
const wany = cube.nodes.map((nd) => sim.net.signals.find((s) => s.path === `${nd.ram.path}.wany`)!);
let words = 0;
for (let c = 0; c < +win; c++) {
  sim.step(1);
  for (const s of wany) words += sim.peek(s);
}
console.log(`slot runs ${(total / words).toFixed(3)} per word (${words} words)`);
for (const [k, v] of [...classes.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${k.padEnd(60)} ${(v / words).toFixed(3)}`);
