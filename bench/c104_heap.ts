/**
 * `node --expose-gc --import tsx bench/c104_heap.ts [side] [µs,µs,...]`: heap
 * growth of the Table 3.1 run (bench/c104-table31-rtl.ts `--node
 * --all-partners`, summary mode: the mesh is the same at every length) at
 * the given simulated times: heap after a full GC, messages sent, delivered,
 * held and waiting (issued, not delivered), and the bytes per waiting
 * message between the first and the last point (docs/c104.md#lazy-workload).
 */
import { buildC104Mesh, C104_START } from './c104.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('bench/c104_heap: run with node --expose-gc');
  process.exit(2);
}
const side = Number(process.argv[2] ?? 8);
const points = (process.argv[3] ?? '50,200,400').split(',').map(Number);
if (!(Number.isInteger(side) && side >= 2 && side <= 32) || !points.every((p) => p > 0)) {
  console.error('bench/c104_heap: usage: bench/c104_heap.ts [side 2..32] [µs,µs,...]');
  process.exit(2);
}
const last = Math.max(...points);
const sys = buildC104Mesh({ side, window: 16, interval: 100, warmup: 0, cycles: last * 100, addressing: 'node', allPartners: true }, C104_START + last * 100, { summary: true });
const heap = (): number => {
  gc!();
  return process.memoryUsage().heapUsed;
};
const rows: { us: number; heapMb: number; sent: number; delivered: number; held: number; waiting: number }[] = [];
for (const us of points.sort((a, b) => a - b)) {
  sys.sim.step(C104_START + us * 100 - sys.sim.cycle);
  const h = heap();
  const sent = sys.driver.sentCount;
  const delivered = sys.rec.summary.delivered;
  rows.push({ us, heapMb: +(h / 2 ** 20).toFixed(2), sent, delivered, held: sys.driver.heldCount, waiting: sent - delivered });
}
const a = rows[0]!;
const b = rows[rows.length - 1]!;
const dh = (b.heapMb - a.heapMb) * 2 ** 20;
console.log(JSON.stringify({ side, rows, heapPerUsKb: +(dh / (b.us - a.us) / 1024).toFixed(2), bytesPerWaitingMessage: +(dh / Math.max(1, b.waiting - a.waiting)).toFixed(1) }, null, 1));
