/**
 * `node --expose-gc --import tsx bench/c104_heap.ts [side] [µs,µs,...] [all|drawn]`:
 * heap growth of the Table 3.1 run (bench/c104-table31-rtl.ts `--node`,
 * summary mode) at the given simulated times of one run: heap after a full
 * GC, messages sent, delivered, held and waiting (issued, not delivered),
 * and the heap per simulated µs and per waiting message between the first
 * and the last point (docs/c104.md#lazy-workload); per point also the
 * cycles per CPU second since the previous one (the GCs excluded), so one
 * long run shows whether the rate holds past start-up. A progress line
 * goes to stderr every 60 s. 'all' (default): a
 * virtual link for every pair within ±16 (`--all-partners`, as the table of
 * docs/c104.md); 'drawn': the pairs the run draws (the 32x32's control
 * blocks for the whole of ±16 take much more memory).
 */
import { buildC104Mesh, C104_START } from './c104.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('bench/c104_heap: run with node --expose-gc');
  process.exit(2);
}
const side = Number(process.argv[2] ?? 8);
const points = (process.argv[3] ?? '50,200,400').split(',').map(Number);
const pairs = process.argv[4] ?? 'all';
if (!(Number.isInteger(side) && side >= 2 && side <= 32) || !points.every((p) => p > 0) || !['all', 'drawn'].includes(pairs)) {
  console.error('bench/c104_heap: usage: bench/c104_heap.ts [side 2..32] [µs,µs,...] [all|drawn]');
  process.exit(2);
}
const last = Math.max(...points);
const sys = buildC104Mesh({ side, window: 16, interval: 100, warmup: 0, cycles: last * 100, addressing: 'node', allPartners: pairs === 'all' }, C104_START + last * 100, { summary: true });
const heap = (): number => {
  gc!();
  return process.memoryUsage().heapUsed;
};
const rows: { us: number; heapMb: number; sent: number; delivered: number; held: number; waiting: number; cyclesPerCpuSecond: number; evaluationsPerCycle: number }[] = [];
const cpuS = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
let lastProgress = performance.now();
for (const us of points.sort((a, b) => a - b)) {
  const c0 = sys.sim.cycle;
  const e0 = sys.sim.evaluations;
  const t0 = cpuS();
  while (sys.sim.cycle < C104_START + us * 100) {
    sys.sim.step(Math.min(100, C104_START + us * 100 - sys.sim.cycle));
    if (performance.now() - lastProgress > 60_000) {
      lastProgress = performance.now();
      console.error(`cycle ${sys.sim.cycle.toLocaleString('en-US')} of ${(C104_START + last * 100).toLocaleString('en-US')}, ${((sys.sim.cycle - c0) / (cpuS() - t0)).toFixed(1)} cycles per CPU s, heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MB`);
    }
  }
  const rate = (sys.sim.cycle - c0) / (cpuS() - t0);
  const evals = (sys.sim.evaluations - e0) / (sys.sim.cycle - c0);
  const h = heap();
  const sent = sys.driver.sentCount;
  const delivered = sys.rec.summary.delivered;
  rows.push({ us, heapMb: +(h / 2 ** 20).toFixed(2), sent, delivered, held: sys.driver.heldCount, waiting: sent - delivered, cyclesPerCpuSecond: +rate.toFixed(2), evaluationsPerCycle: +evals.toFixed(1) });
  console.error(JSON.stringify(rows[rows.length - 1]));
}
const a = rows[0]!;
const b = rows[rows.length - 1]!;
const dh = (b.heapMb - a.heapMb) * 2 ** 20;
console.log(JSON.stringify({ side, pairs, rows, heapPerUsKb: +(dh / (b.us - a.us) / 1024).toFixed(2), bytesPerWaitingMessage: +(dh / Math.max(1, b.waiting - a.waiting)).toFixed(1) }, null, 1));
