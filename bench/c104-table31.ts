/**
 * `npx tsx bench/c104-table31.ts`: the seed 004 Table 3.1 run on the
 * T9000/C104 packet-level TLM — a 32×32 mesh (1,024 T9000 + C104 nodes), one
 * process per CPU sending a 32-byte message every 1 µs to a random
 * destination within ±16 (the non-blocking workload, outstanding limit 16),
 * 20 ms simulated. The thesis's packet-passing simulator took 11:54 on a
 * 200 MHz Pentium-MMX (spec §16.3); the aim is under 30 s.
 * Writes out/bench-c104-table31.json (wall and CPU seconds, events, packets).
 *
 *   npx tsx bench/c104-table31.ts            20 ms
 *   npx tsx bench/c104-table31.ts --ms 2     a shorter smoke run
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { runC104 } from '../harness/tlm/t9000-c104/index.ts';
import { SyntheticProgram, standardSetup } from '../harness/workloads/thesis-synthetic.ts';

const i = process.argv.indexOf('--ms');
const ms = i > 0 ? Number(process.argv[i + 1]) : 20;
if (!(ms > 0 && ms <= 1000)) {
  console.error(`bench/c104-table31: --ms must be in (0, 1000] (got ${process.argv[i + 1]})`);
  process.exit(2);
}
const cpu0 = process.cpuUsage();
const t0 = performance.now();
// 1,024 nodes need 2-byte headers (spec §16.2): data packet 344 bits, ack 24.
const r = runC104(new SyntheticProgram({ ...standardSetup(1, 'async'), D: 32, d: 16 }), { side: 32, headerBytes: 2 }, { fixedNs: ms * 1e6, truncate: false });
const wallS = (performance.now() - t0) / 1000;
const cpuS = process.cpuUsage(cpu0).user / 1e6;
const s = r.summary;
const out = {
  name: 'c104/table-3.1/packet-passing',
  simulatedMs: ms,
  wallSeconds: wallS,
  cpuSeconds: cpuS,
  eventsDispatched: r.eventsDispatched,
  eventsPerSecond: r.eventsDispatched / wallS,
  dataPacketsDelivered: s.data.count,
  ackPacketsDelivered: s.ack.count,
  meanHops: s.meanHops,
  seed: { packets: 844342, meanHops: 16.6, elapsed: '11:54', eventsDispatched: 40564755 },
  target: 'under 30 s wall (issue 11)',
  host: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version, load: os.loadavg() },
};
console.log(JSON.stringify(out, null, 2));
mkdirSync('out', { recursive: true });
writeFileSync('out/bench-c104-table31.json.tmp', JSON.stringify(out, null, 2) + '\n');
renameSync('out/bench-c104-table31.json.tmp', 'out/bench-c104-table31.json');
