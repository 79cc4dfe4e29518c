/**
 * `npx tsx bench/c104_profile.ts [--side S] [--warm W] [--window N]`: where
 * the Table 3.1 run's work and memory go (issue 10, Scale; docs/kernel.md
 * "Stop 19: C104 at scale"). Builds the --node Table 3.1 mesh of
 * bench/c104-table31-rtl.ts (side×side T9000 + C104 nodes, ±16, 32 bytes
 * every 100 cycles), runs the DS-link start-up and W cycles of traffic, then
 * counts the evaluations of an N-cycle window by process class (unit class
 * and process name, digits folded: the classes of the generated dispatch):
 * each process function is wrapped in a counter after elaboration (the
 * wrappers call the same closures; the counts equal sim.evaluations, checked).
 * Also the footprint per node by unit class: wires, registers (each also has a
 * next-value slot), memory words and processes, and the heap per node
 * (heapUsed after the build less before, over the nodes: the workload's
 * message list included). Prints JSON. `--time`: no wrappers, the window's
 * CPU time alone (cycles per CPU s, ns per evaluation; no per-class counts).
 * `--idle`: also, per class, the runs that changed nothing (docs/kernel.md
 * "Stop 21: FIFOs and C104 per token").
 * `--no-recorder`: the window with the event recorder (an observer) detached.
 * `--trains`: also the transmit directions by state (NULL train, token train,
 * bit by bit), sampled every 10 cycles of the window. `--slices all`: every
 * C104 slice elaborated (default 'connected', bench/c104.ts).
 */
import { DsLinkEnd } from '../rtl/dslink/end.ts';
import { buildC104Mesh, C104_START } from './c104.ts';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const side = arg('side', 8);
const warm = arg('warm', 2000);
const window = arg('window', 2000);
if (!(Number.isInteger(side) && side >= 2 && side <= 32 && warm >= 0 && window >= 1)) {
  console.error('bench/c104_profile: --side in 2..32, --warm >= 0, --window >= 1');
  process.exit(2);
}
const nodes = side * side;
globalThis.gc?.();
const heap0 = process.memoryUsage().heapUsed;
const slicesAt = process.argv.indexOf('--slices');
const slices = slicesAt > 0 ? process.argv[slicesAt + 1] : 'connected';
if (slices !== 'all' && slices !== 'connected') {
  console.error(`bench/c104_profile: --slices must be connected or all, got '${String(slices)}'`);
  process.exit(2);
}
const sys = buildC104Mesh({ side, window: 16, interval: 100, warmup: 0, cycles: warm + window, addressing: 'node', slices }, C104_START + warm + window);
globalThis.gc?.();
const heapPerNode = (process.memoryUsage().heapUsed - heap0) / nodes;
const { sim } = sys;
const net = sim.net;

const classOf = (p: { module: { constructor: { name: string } }; name: string }): string => `${p.module.constructor.name}.${p.name.replace(/[0-9]+/g, '#')}`;
const plain = process.argv.includes('--time');
const idle = process.argv.includes('--idle');
type Internals = { seqFns: (() => void)[]; combFns: (() => void)[] };
const inner = sim as unknown as Internals;
const counts = new Map<string, Float64Array>();
const wrap = (fns: (() => void)[], decls: typeof net.seq, kind: string): void => {
  decls.forEach((d, p) => {
    const key = `${kind} ${classOf(d)}`;
    let c = counts.get(key);
    if (!c) counts.set(key, (c = new Float64Array(2)));
    const f = fns[p]!;
    const cell = c;
    if (!idle) {
      fns[p] = () => {
        cell[0]!++;
        f();
      };
      return;
    }
    // --idle: also count the runs that changed nothing (cell[1]): a comb run
    // whose written slots kept their values; a seq run that set no register's
    // next value apart from its current one (beyond what was already set) and
    // queued no memory write.
    const st = (): Float64Array => (sim as unknown as { s: Float64Array }).s;
    const outs = d.kind === 'comb' ? d.writes.map((w) => w.i) : d.module.signals.filter((g) => g.kind === 'reg').flatMap((g) => [g.i, g.n]);
    const mems = d.module.memories;
    const before = new Float64Array(outs.length);
    fns[p] = () => {
      cell[0]!++;
      const s = st();
      for (let k = 0; k < outs.length; k++) before[k] = s[outs[k]!]!;
      let pend = 0;
      for (const m of mems) pend += m.pendCount;
      f();
      let same = true;
      for (let k = 0; k < outs.length && same; k++) if (s[outs[k]!] !== before[k]) same = false;
      for (const m of mems) pend -= m.pendCount;
      if (same && pend === 0) cell[1]!++;
    };
  });
};

sim.step(C104_START + warm);
// --no-recorder: the window without the harness's event recorder (an observer: what it costs).
if (process.argv.includes('--no-recorder')) sys.rec.detach();
if (!plain) {
  wrap(inner.seqFns, net.seq, 'seq');
  wrap(inner.combFns, net.comb, 'comb');
}
// Link directions by state, sampled every 10 cycles (--trains; its own run: the stepping differs):
// a NULL train on demand, a token train, bit by bit (docs/dslink.md#null-trains, #token-trains).
const trains = { nullTrain: 0, tokenTrain: 0, bitByBit: 0 };
const ends = net.modules.filter((m): m is DsLinkEnd => m instanceof DsLinkEnd);
const e0 = sim.evaluations;
const u0 = process.cpuUsage();
if (process.argv.includes('--trains')) {
  for (let c = 0; c < window; c += 10) {
    sim.step(10);
    for (const e of ends) {
      if (e.ser.txTrain?.dormant) trains.nullTrain++;
      else if (e.ser.tokTrain?.active) trains.tokenTrain++;
      else trains.bitByBit++;
    }
  }
} else sim.step(window);
const u = process.cpuUsage(u0);
const evals = sim.evaluations - e0;
const counted = [...counts.values()].reduce((a, c) => a + c[0]!, 0);
if (!plain && counted !== evals) throw new Error(`profile: wrapped counts ${counted} != sim.evaluations ${evals}`);

const perClass = [...counts.entries()]
  .map(([k, c]) => ({ cls: k, perNodeCycle: c[0]! / nodes / window, ...(idle ? { unchangedPerNodeCycle: c[1]! / nodes / window } : {}) }))
  .filter((r) => r.perNodeCycle > 0)
  .sort((a, b) => b.perNodeCycle - a.perNodeCycle);

// Footprint per node by unit class (the C104 mesh's modules below the root).
const foot = new Map<string, { units: number; wires: number; regs: number; memWords: number; procs: number }>();
for (const m of net.modules) {
  const k = m.constructor.name;
  let f = foot.get(k);
  if (!f) foot.set(k, (f = { units: 0, wires: 0, regs: 0, memWords: 0, procs: 0 }));
  f.units++;
  for (const s of m.signals) s.kind === 'reg' ? f.regs++ : f.wires++;
  for (const mem of m.memories) f.memWords += mem.depth;
  f.procs += m.processes.length;
}
const perNode = [...foot.entries()]
  .map(([cls, f]) => ({ cls, units: f.units / nodes, wires: f.wires / nodes, regs: f.regs / nodes, memWords: f.memWords / nodes, procs: f.procs / nodes }))
  .sort((a, b) => b.wires + b.regs - (a.wires + a.regs));
const cpuS = (u.user + u.system) / 1e6;
console.log(
  JSON.stringify(
    {
      mesh: `${side}x${side}`,
      slices,
      window,
      evaluationsPerNodeCycle: evals / nodes / window,
      cyclesPerCpuSecond: window / cpuS,
      // --time: no wrappers (the window's own CPU time; no per-class counts)
      [plain ? 'nsPerEvaluation' : 'nsPerEvaluationWrapped']: (cpuS * 1e9) / evals,
      slotsPerNode: net.size / nodes,
      wiresPerNode: net.nWires / nodes,
      regsPerNode: net.nRegs / nodes,
      seqPerNode: net.seq.length / nodes,
      combPerNode: net.comb.length / nodes,
      heapBytesPerNode: Math.round(heapPerNode),
      delivered: sys.rec.deliveries.length,
      ...(process.argv.includes('--trains') ? { directionsPerNode: ends.length / nodes, directionSamples: trains } : {}),
      perClass,
      perNode,
    },
    null,
    1,
  ),
);
