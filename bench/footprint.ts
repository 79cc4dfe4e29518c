/**
 * Footprint of a design in the kernel (issue 8/10 "Scale"): heap bytes per
 * signal and per process, and build time, for a Buzzard cube or a C104 mesh.
 * Run with the collector exposed so each figure is a live heap after a full
 * collection:
 *
 *   node --expose-gc --import tsx bench/footprint.ts buzzard 8
 *   node --expose-gc --import tsx bench/footprint.ts c104 8      (bench/c104.ts's mesh, node addressing)
 *   node --expose-gc --import tsx bench/footprint.ts c104 8 all  (every C104 slice elaborated; default connected)
 *
 * Buzzard: the module tree (units, Signal objects, closures) and the
 * elaboration (netlist arrays, simulator state) are measured apart; C104:
 * the whole build (its system builder elaborates inside). Prints one JSON
 * line. Not a CI test: figures for docs/kernel.md.
 */
import { BuzzardCube } from '../rtl/buzzard/network.ts';
import { Simulator } from '../rtl/kernel/index.ts';
import { buildC104Mesh } from './c104.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('bench/footprint: run with node --expose-gc --import tsx');
  process.exit(2);
}
const [kind = 'buzzard', sizeArg = '6', slicesArg = 'connected'] = process.argv.slice(2);
const slices = slicesArg === 'all' ? 'all' : 'connected';
const size = Number(sizeArg);
if (!(kind === 'buzzard' || kind === 'c104') || !Number.isInteger(size) || size < 2 || size > (kind === 'buzzard' ? 9 : 16) || !(slicesArg === 'all' || slicesArg === 'connected')) {
  console.error('bench/footprint: usage footprint.ts buzzard N (2..9) | c104 SIDE (2..16) [connected|all]');
  process.exit(2);
}
const heap = (): number => {
  gc();
  return process.memoryUsage().heapUsed;
};
const h0 = heap();
const t0 = performance.now();
let sim: Simulator;
let treeBytes = 0;
let treeSeconds = 0;
if (kind === 'buzzard') {
  const cube = new BuzzardCube({ n: size });
  treeSeconds = (performance.now() - t0) / 1000;
  treeBytes = heap() - h0;
  sim = new Simulator(cube);
} else {
  sim = buildC104Mesh({ side: size, window: 16, interval: 100, warmup: 0, cycles: 100, addressing: 'node', idle: true, slices }, 3000).sim;
}
const buildSeconds = (performance.now() - t0) / 1000;
const total = heap() - h0;
const net = sim.net;
const signals = net.signals.length;
const processes = net.comb.length + net.seq.length;
const slots = net.nWires + net.nRegs;
console.log(
  JSON.stringify({
    design: kind === 'buzzard' ? `buzzard n=${size}` : `c104 ${size}x${size} slices ${slices}`,
    signals,
    slots,
    processes,
    heapMb: +(total / 2 ** 20).toFixed(1),
    bytesPerSignal: Math.round(total / signals),
    ...(kind === 'buzzard' ? { treeBytesPerSignal: Math.round(treeBytes / signals), elaborationBytesPerSignal: Math.round((total - treeBytes) / signals), treeSeconds: +treeSeconds.toFixed(2) } : {}),
    buildSeconds: +buildSeconds.toFixed(2),
    rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
  }),
);
