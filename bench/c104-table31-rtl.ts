/**
 * `npx tsx bench/c104-table31-rtl.ts`: seed 004's Table 3.1 run at token
 * level on the C104 RTL (T9000 + C104 per node, real DS-links; bench/c104.ts):
 * one process per CPU sending 32 bytes every 1 µs (100 cycles) to a random
 * destination within ±16, held sends. The thesis's token-level simulator
 * took 54:59 for a 32×32 mesh and 20 ms simulated (spec §16.3); the issue
 * asks for under 54:59 on one core here.
 *
 * With 'virtual-link' addressing (default) the 32×32 mesh cannot be built:
 * every pair that talks needs a virtual link, and a T9000 here has at most
 * 255 virtual-link labels in all (docs/c104.md#thesis-workload). So this
 * runs the largest square mesh that fits (default 4×4, ±16 = all pairs) for
 * `--ms` simulated milliseconds,
 * reports wall and CPU time and evaluations per cycle, and projects the
 * 32×32, 20 ms run by evaluations: (evaluations per node and cycle measured)
 * × 1,024 nodes × 2,000,000 cycles × (ns per evaluation measured), a
 * projection, stated as such. A unit assertion ends the run where it fired
 * (`stopped`; the figures cover the cycles run). Writes
 * out/bench-c104-table31-rtl.json.
 *
 *   npx tsx bench/c104-table31-rtl.ts                 4×4, 0.2 ms (a short run)
 *   npx tsx bench/c104-table31-rtl.ts --ms 20         4×4, the full 20 ms
 *   npx tsx bench/c104-table31-rtl.ts --side 3 --ms 1
 *   npx tsx bench/c104-table31-rtl.ts --node --side 32 --ms 0.02
 *
 * `--node`: T9000 `addressing: 'node'` (docs/t9000.md#addressing), which
 * builds the 32×32 mesh itself; the projection is then the measured CPU time
 * per cycle × 2M cycles (same mesh, later traffic alike). `--all-partners`
 * (with `--node`): a virtual link for every pair within ±16, i.e. the control
 * blocks of the full 20 ms workload (up to 1,088 per endpoint:
 * docs/t9000.md#control-blocks), with the messages of the `--ms` run; the
 * JSON then also reports the most control blocks of one endpoint.
 *
 *   npx tsx bench/c104-table31-rtl.ts --node --all-partners --side 32 --ms 0.005
 *
 * `--slices connected|all`: which C104 slices are elaborated; default
 * 'connected' (only the ~7.5 wired links of a mesh node's 32: the same values
 * on every connected link, docs/c104.md#compact-slices); 'all' is the chip's
 * 32 with the unwired ones tied off (the figures before stop 19's compact
 * C104). The JSON states it.
 *
 * The full run, token-exact: `--full` (= `--node --side 32 --ms 20`; the
 * mesh takes ~2 GB and the backlog of messages issued and not yet
 * delivered, packed at 28 bytes each, may add ~0.65 GB by its end: run it
 * alone, docs/c104.md#lazy-workload). Messages are drawn lazily as the run
 * goes, wait packed until they are sent (the driver's `post`), and the
 * recorder keeps running statistics only (`--events` keeps every event and
 * message object, as before), so memory stays about what the mesh needs. A progress line (cycle, cycles/s, ETA) goes to stderr
 * every `--progress S` seconds (default 30; 0: none). The JSON reports the
 * heap after a full GC when node runs with --expose-gc (heapAfterGcMb).
 *
 *   NODE_OPTIONS=--expose-gc npx tsx bench/c104-table31-rtl.ts --full
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { SimError } from '../rtl/kernel/index.ts';
import { buildC104Mesh, C104_START } from './c104.ts';
import { seriesMean } from '../harness/rtl/t9000_summary.ts';

// Every word a known option (a misspelt one would otherwise run the defaults unnoticed).
const WITH_VALUE = ['--ms', '--side', '--progress', '--slices'];
const FLAGS = ['--full', '--node', '--events', '--all-partners'];
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i]!;
  if (WITH_VALUE.includes(a)) i++;
  else if (!FLAGS.includes(a)) {
    console.error(`bench/c104-table31-rtl: unknown argument '${a}' (options: ${[...FLAGS, ...WITH_VALUE].join(', ')})`);
    process.exit(2);
  }
}
const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const full = process.argv.includes('--full');
const ms = arg('ms', full ? 20 : 0.2);
const side = arg('side', full ? 32 : 4);
const node = full || process.argv.includes('--node');
const keepEvents = process.argv.includes('--events');
const progressS = arg('progress', 30);
const allPartners = process.argv.includes('--all-partners');
const si = process.argv.indexOf('--slices');
const slices = si > 0 ? process.argv[si + 1] : 'connected';
if (slices !== 'connected' && slices !== 'all') {
  console.error(`bench/c104-table31-rtl: --slices must be connected or all, got '${String(slices)}'`);
  process.exit(2);
}
if (allPartners && !node) {
  console.error('bench/c104-table31-rtl: --all-partners needs --node');
  process.exit(2);
}
if (!(progressS >= 0)) {
  console.error('bench/c104-table31-rtl: --progress must be a number of seconds, 0 or more');
  process.exit(2);
}
if (!(ms > 0 && ms <= 20) || !(Number.isInteger(side) && side >= 2 && side <= (node ? 32 : 4))) {
  console.error('bench/c104-table31-rtl: --ms must be in (0, 20] and --side in 2..4 (larger meshes need more than 255 virtual-link labels; with --node 2..32)');
  process.exit(2);
}
const cycles = Math.round(ms * 1e5); // 10 ns a cycle
const t0 = performance.now();
const sys = buildC104Mesh({ side, window: 16, interval: 100, warmup: 0, cycles, addressing: node ? 'node' : 'virtual-link', allPartners, slices }, C104_START + cycles, { summary: !keepEvents });
const buildS = (performance.now() - t0) / 1000;
const buildRssMb = Math.round(process.memoryUsage().rss / 2 ** 20);
const maxBlocks = Math.max(...sys.endpoints.map((e) => e.cfg.virtualLinks.length));
const cpu0 = process.cpuUsage();
const t1 = performance.now();
const ev0 = sys.sim.evaluations;
// A unit assertion ends the run where it fired (until issue 10 one did at cycle
// 214,110: a packet of a virtual link overtaking another over the destination's
// hunt group, now received as docs/t9000.md#receive-area reads it); the figures
// then cover the cycles run, and the stop is reported.
let stopped: { cycle: number; message: string } | null = null;
const end = C104_START + cycles;
let lastProgress = performance.now();
try {
  while (sys.sim.cycle < end) {
    sys.sim.step(Math.min(side >= 16 ? 100 : 2000, end - sys.sim.cycle));
    const now = performance.now();
    if (progressS > 0 && now - lastProgress >= progressS * 1000) {
      lastProgress = now;
      const rate = sys.sim.cycle / ((now - t1) / 1000);
      const eta = (end - sys.sim.cycle) / rate;
      console.error(`cycle ${sys.sim.cycle.toLocaleString('en-US')} of ${end.toLocaleString('en-US')}, ${rate.toFixed(1)} cycles/s, ETA ${fmt(eta)}, heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MB`);
    }
  }
} catch (e) {
  if (!(e instanceof SimError)) throw e;
  stopped = { cycle: sys.sim.cycle, message: e.message };
}
const wallS = (performance.now() - t1) / 1000;
const cpu = process.cpuUsage(cpu0);
const cpuS = (cpu.user + cpu.system) / 1e6;
const evals = sys.sim.evaluations - ev0;
const ran = sys.sim.cycle;
const nodes = side * side;
const nsPerEval = (cpuS * 1e9) / evals;
// 32×32: CPU per cycle of this run itself (its 2,500 start-up cycles included); smaller meshes: by evaluations per node.
const projectedS = side === 32 ? (cpuS / ran) * 2e6 : (evals / ran / nodes) * 1024 * 2e6 * nsPerEval * 1e-9;
function fmt(s: number): string {
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m ${String(Math.round(s % 60)).padStart(2, '0')}s`;
}
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const heapAfterGcMb = gc ? Math.round(process.memoryUsage().heapUsed / 2 ** 20) : null;
const out = {
  name: 'c104/table-3.1/rtl-token-level',
  mesh: `${side}x${side}`,
  addressing: node ? 'node' : 'virtual-link',
  allPartners,
  slices,
  maxControlBlocks: maxBlocks,
  buildRssMb,
  heapMb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
  rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
  simulatedMs: ms,
  cycles: ran,
  buildSeconds: buildS,
  wallSeconds: wallS,
  cpuSeconds: cpuS,
  cyclesPerCpuSecond: ran / cpuS,
  evaluationsPerCycle: evals / ran,
  evaluationsPerNodeCycle: evals / ran / nodes,
  nsPerEvaluation: nsPerEval,
  stopped,
  keepEvents,
  heapAfterGcMb,
  messagesDelivered: sys.rec.summary.delivered,
  messagesByteExact: sys.rec.summary.byteExact,
  messagesSent: sys.driver.sentCount,
  meanMessageCycles: seriesMean(sys.rec.summary.messageTime),
  held: sys.driver.heldCount,
  projection32x32x20ms: { cpuSeconds: projectedS, text: fmt(projectedS), how: side === 32 ? 'CPU seconds per cycle of this run (start-up included) x 2M cycles: a projection, not a run' : 'evaluations per node and cycle x 1,024 nodes x 2M cycles x ns per evaluation, all measured on this run: a projection, not a run' },
  seed: { tokenLevel: '54:59', packetLevel: '11:54', machine: '200 MHz Pentium-MMX' },
  host: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, load: os.loadavg() },
};
console.log(JSON.stringify(out, null, 2));
mkdirSync('out', { recursive: true });
writeFileSync('out/bench-c104-table31-rtl.json.tmp', JSON.stringify(out, null, 2) + '\n');
renameSync('out/bench-c104-table31-rtl.json.tmp', 'out/bench-c104-table31-rtl.json');
