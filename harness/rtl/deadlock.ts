/**
 * Structural deadlock detector for a running Buzzard cube (RTL model,
 * rtl/buzzard/). It does not time out on progress: it reads the committed
 * state of every packet buffer unit (PBU) and decides whether a set of PBUs
 * can never free a buffer row again, whatever the rest of the cube does.
 *
 * Background (docs/sources.md, buzzard):
 *  - §6.3: a message's first hop may be any profitable dimension (the
 *    control unit takes the shortest viable send queue); if it is not the
 *    e-cube first port the packet is "contrary" for that one hop, then it
 *    follows ascending e-cube. So packets can climb down the dimension order
 *    once, and a cycle of waiting buffers becomes possible.
 *  - §7: the avoidance rule — "at least one buffer slot in each packet buffer
 *    unit on every node must always be either free or occupied by a
 *    non-contrary packet"; the PBU refuses an incoming contrary packet that
 *    would fill its CAM with contrary packets (A8: `flagAndButTail`). With
 *    config `contraryRefusal: false` the rule is off and the cube can
 *    deadlock; with it on it must not.
 *
 * ------------------------------------------------------------ wait-for graph
 * Vertices are the PBUs, `node{x}.pbu{i}` (PBU i receives link i). A packet
 * in CAM row r of PBU i of node x (rows 0..used-1 are occupied; fields
 * slot|dest|len|port|contrary, config.ts geometry()) waits for the unit
 * behind its next port p = the row's `port` field (the lookahead of §6.4):
 *  - p = 1..n: PBU p of the neighbour x XOR 2^(p-1) (network.ts: x's link p
 *    ends in that node's PBU p);
 *  - p = 0: the node input port, which the control unit drains. It is
 *    treated as a sink that always makes progress (it is never a member of a
 *    deadlocked set). That is right for the routing question the rule is
 *    about; it would hide one other kind of stall: the control unit stops
 *    draining the input FIFO while its receive path waits for a free system
 *    buffer (control_unit.ts "limits": head-of-line blocking). Such a stall
 *    is buffer exhaustion at a node, not a cycle of PBUs, and it clears when
 *    the CPU posts receives or releases buffers, so it is not reported here
 *    (callers that never post receives should watch `nip.count` instead).
 *
 * ------------------------------------------------------------ "full"
 * A PBU is FULL (cannot accept a packet) when, in the committed state,
 *     cam.used = camHeight  AND  freeRows = 0  AND  inState = 'start'  AND  block = 1.
 * Why all four:
 *  - `freeRows` (the seed's free row register) is a reservation count: it is
 *    decremented at input step 4 (the first preheader bit of an accepted
 *    packet) but the CAM row is written only at step 7 (camLoad), ~25 cycles
 *    later. So freeRows = 0 with used = H-1 means a packet is arriving into
 *    the last row — the PBU is accepting, not refusing, and it never blocks
 *    inside a packet (DESIGN.md "Framing"). freeRows = 0 alone is not full.
 *  - used = H alone is not full either: the CAM row of a cut-through packet
 *    is written while its words are still arriving (step 7 before step 8);
 *    the input controller is then in 'sync'/'word'/'lastWrite'.
 *  - inState = 'start' (input step 1: "wait for free row register > 0") with
 *    block = 1 is the only state in which the input waits for a row. With no
 *    packet arriving, freeRows = H - used there, so freeRows = 0 ⇔ used = H
 *    (both are checked; a mismatch is reported as an inconsistency).
 * A full PBU leaves 'start' only when its own output controller frees a row
 * (output step 6, freeRows++), i.e. when it has forwarded a packet completely.
 *
 * ------------------------------------------------------------ waiting
 * A full PBU is WAITING on a set of targets when its output side is not
 * moving a packet:
 *  - output controller idle: it waits for a crossbar grant for one of the
 *    ports in its request register; its targets are the units behind the
 *    next ports of all its CAM rows (any of them could be granted first);
 *  - output controller busy but the outgoing framing still in S1 (granted,
 *    the start bit stretched because the receiver holds): nothing of that
 *    packet has been accepted, a PBU never aborts (only node output port
 *    slots do, on refusal), so it waits for exactly that one target
 *    (`outPort`); its other rows cannot go first.
 *  - any other output state: a packet is being forwarded into a unit that
 *    reserved a row for it, so the PBU will free a row: not waiting.
 *
 * ------------------------------------------------------------ deadlock
 * A set S of PBUs is DEADLOCKED when every member is full and waiting and
 * every target of every member is a member. Then no member can ever free a
 * row: freeing needs a packet forwarded completely, which needs its target
 * to leave 'start', which needs that target to free a row first — by
 * induction on time, no member is ever first. (The crossbar never grants an
 * output whose receiver blocks, and a member's block stays 1 while it is in
 * 'start'; a node output port slot sending into a member is refused/held
 * and cannot help.) Hence the report is sound: a live network — one in
 * which every buffered packet is eventually delivered — never has such a
 * set, and the check never fires on one (no false positives), at any cycle.
 * The union of deadlocked sets is deadlocked, so there is a largest one; it
 * is the greatest fixpoint found by elimination: start with all full and
 * waiting PBUs and repeatedly remove any member with a target outside the
 * current set (the node input port counts as outside), until nothing
 * changes. A deadlock found at cycle t is permanent, so checking every few
 * hundred cycles only delays detection (a transient state — a PBU whose
 * input is mid-packet, a row about to be freed — is just not counted yet).
 *
 * Every member has at least one packet (it is full) and all its targets are
 * members, so following the oldest packet's target from any member must
 * revisit a member: that loop is the reported `cycle` (each unit waits for
 * the next; the last waits for the first), rotated to start at the lowest
 * (node, PBU) of the loop.
 *
 * Why the avoidance rule prevents it (spec §7's argument, in these terms):
 * a non-contrary row of PBU i only ever goes to a link j > i (A3; ascending
 * e-cube), i.e. into PBU j > i of the neighbour. Take a member of a
 * deadlocked set with the highest PBU index: none of its targets is a
 * higher-index member, so none of the packets it waits for is non-contrary —
 * it is full of contrary packets. The rule (refuse a contrary packet that
 * would leave no free or non-contrary row) makes that state unreachable. So
 * a report with `contraryRefusal: true` is a bug in a unit, and a report
 * with it off has its highest-index member holding only contrary packets
 * (the tests check this). The one exception would be a PBU held in S1 with
 * non-contrary rows behind the held one; it needs a grant into a blocked
 * PBU, which the crossbar never gives (lib crossbar.ts: no grant while
 * blocked{j}, and a PBU with block = 0 has a row for the packet), so in
 * this model a PBU is held in S1 only by a node input port.
 *
 * Names are hierarchical paths (`pbu.path`): `node2.pbu2` when the cube is
 * the simulated root. Node output port slots have no module of their own;
 * they are named `node{y}.nop.slot{j}` after the port's registers `state{j}`.
 *
 * Cost: one pass over nodes × n PBUs reading 6 registers and `used` CAM rows
 * each, then an elimination over at most that many members — a few hundred
 * array reads on a 3-cube, nothing allocated on the no-deadlock path beyond
 * small arrays. Cheap enough to call every 100 cycles.
 */
import type { Signal, Simulator } from '../../rtl/kernel/index.ts';
import type { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { geometry } from '../../rtl/buzzard/config.ts';
import { PBU_IN_STATES, PBU_OUT_STATES, PBU_TX_PHASES, type PacketBufferUnit } from '../../rtl/buzzard/packet_buffer_unit.ts';
import { SLOT_STATES } from '../../rtl/buzzard/node_output_port.ts';

const IN_START = PBU_IN_STATES.indexOf('start');
const OUT_IDLE = PBU_OUT_STATES.indexOf('idle');
const TX_S1 = PBU_TX_PHASES.indexOf('S1');
/** Slot states in which a node output port slot waits for its receiver (grant withheld or S1 held). */
const SLOT_WAIT = new Set([SLOT_STATES.indexOf('ARB'), SLOT_STATES.indexOf('S1')]);

/** One buffered packet of a deadlocked PBU. */
export interface StuckPacket {
  /** CAM row (0 = head, the oldest). */
  row: number;
  /** Destination node (the broadcast tag, bit 15, kept). */
  dest: number;
  /** Next port: the crossbar output it waits for (1..n; 0 is never in a deadlock). */
  port: number;
  /** Contrary flag (spec §6.3): 1 for a packet still on its first-hop PBU after a contrary first step. */
  contrary: number;
  /** The unit it waits for, e.g. 'node3.pbu1'. */
  target: string;
}

export interface Deadlock {
  /** A cycle of PBUs, each waiting for the next and the last for the first. */
  cycle: string[];
  /** Every PBU of the largest deadlocked set, in (node, PBU) order. */
  units: string[];
  /** Node output port slots (`node{x}.nop.slot{j}`) waiting to send into a member. */
  stuckSlots: string[];
  /** The packets held by each member. */
  packets: Record<string, StuckPacket[]>;
  /** Simulation cycle of the check. */
  at: number;
}

const outPorts = new WeakMap<PacketBufferUnit, Signal>();
/** The output controller's `outPort` register (the crossbar output of the copy in progress; not a public field of the unit). */
function outPortOf(pbu: PacketBufferUnit): Signal {
  let sig = outPorts.get(pbu);
  if (!sig) {
    sig = pbu.signals.find((s) => s.name === 'outPort');
    if (!sig) throw new Error(`${pbu.path}: no outPort register`);
    outPorts.set(pbu, sig);
  }
  return sig;
}

/** Candidates: the PBUs that are full and waiting, with their targets (ids x·n + i-1; -1 = a node input port). */
interface Scan {
  n: number;
  member: Uint8Array;
  deps: (number[] | undefined)[];
  count: number;
}

function scan(sim: Simulator, cube: BuzzardCube): Scan {
  const cfg = cube.cfg;
  const n = cfg.n;
  const H = cfg.camHeight;
  const N = cube.nodes.length;
  const portF = fieldLayout(cube, 'port');
  const M = N * n;
  const member = new Uint8Array(M);
  const deps: (number[] | undefined)[] = new Array<number[] | undefined>(M);
  let count = 0;
  for (let x = 0; x < N; x++) {
    const node = cube.nodes[x]!;
    for (let i = 1; i <= n; i++) {
      const pbu = node.pbus[i - 1]!;
      const used = sim.peek(pbu.cam.used);
      const fr = sim.peek(pbu.freeRows);
      if (fr > H - used) throw new Error(`${pbu.path}: free row register ${fr} exceeds the CAM's ${H - used} free rows (cycle ${sim.cycle})`);
      // full: CAM used = height, no reservation left, input controller at step 1 with block asserted
      if (used !== H || fr !== 0 || sim.peek(pbu.inState) !== IN_START || sim.peek(pbu.block) !== 1) continue;
      let d: number[];
      if (sim.peek(pbu.outState) === OUT_IDLE) {
        // waiting for a grant: any row's next port could be granted first
        d = [];
        for (let r = 0; r < used; r++) d.push(targetId(n, x, field(sim.peek(pbu.cam.rows[r]!), portF)));
      } else if (sim.peek(pbu.txPhase) === TX_S1) {
        // granted, start bit stretched by hold: committed to this one target
        d = [targetId(n, x, sim.peek(outPortOf(pbu)))];
      } else {
        continue; // forwarding a packet into a unit that reserved a row for it: a row will be freed
      }
      const id = x * n + (i - 1);
      member[id] = 1;
      deps[id] = d;
      count++;
    }
  }
  return { n, member, deps, count };
}

type Field = readonly [string, number, number];
function fieldLayout(cube: BuzzardCube, name: string): Field {
  return geometry(cube.cfg).camFields.find((f) => f[0] === name)!;
}
function field(v: number, f: Field): number {
  return Math.floor(v / 2 ** f[1]) % 2 ** f[2];
}
/** Id of the unit behind next port p at node x: PBU p of x XOR 2^(p-1); -1 for port 0 (the node input port). */
function targetId(n: number, x: number, p: number): number {
  return p >= 1 && p <= n ? (x ^ (1 << (p - 1))) * n + (p - 1) : -1;
}

/**
 * The PBUs that are full and waiting (see the header) — the starting set of
 * the elimination. Not a deadlock by itself: on a busy live network many
 * PBUs are full and waiting for a moment. For statistics and tests.
 */
export function fullWaitingPbus(sim: Simulator, cube: BuzzardCube): string[] {
  const sc = scan(sim, cube);
  const out: string[] = [];
  for (let id = 0; id < sc.member.length; id++) if (sc.member[id]) out.push(cube.nodes[Math.floor(id / sc.n)]!.pbus[id % sc.n]!.path);
  return out;
}

/**
 * The largest deadlocked set of PBUs in the cube's committed state and one
 * wait-for cycle within it, or null when there is none (see the header for
 * the definitions). Throws if a PBU's free row register exceeds the free
 * rows of its CAM (impossible in a correct PBU).
 */
export function findDeadlock(sim: Simulator, cube: BuzzardCube): Deadlock | null {
  const sc = scan(sim, cube);
  if (sc.count < 2) return null; // a deadlocked set needs a cycle; a PBU never targets itself
  const { n, member, deps } = sc;
  const M = member.length;
  // Greatest fixpoint: drop members with a target outside the set.
  let changed = true;
  while (changed) {
    changed = false;
    for (let id = 0; id < M; id++) {
      if (!member[id]) continue;
      for (const t of deps[id]!) {
        if (t < 0 || !member[t]) {
          member[id] = 0;
          changed = true;
          break;
        }
      }
    }
  }
  let start = -1;
  for (let id = 0; id < M && start < 0; id++) if (member[id]) start = id;
  if (start < 0) return null;

  const pbuOf = (id: number): PacketBufferUnit => cube.nodes[Math.floor(id / n)]!.pbus[id % n]!;
  const name = (id: number): string => pbuOf(id).path;
  // One cycle: follow the oldest packet's target (or the held output's) until a unit repeats.
  const seenAt = new Map<number, number>();
  const walk: number[] = [];
  let at = start;
  while (!seenAt.has(at)) {
    seenAt.set(at, walk.length);
    walk.push(at);
    at = deps[at]![0]!;
  }
  const loop = walk.slice(seenAt.get(at)!);
  let low = 0;
  for (let k = 1; k < loop.length; k++) if (loop[k]! < loop[low]!) low = k;
  const cycle = [...loop.slice(low), ...loop.slice(0, low)].map(name);

  const portF = fieldLayout(cube, 'port');
  const destF = fieldLayout(cube, 'dest');
  const cF = fieldLayout(cube, 'contrary');
  const units: string[] = [];
  const packets: Record<string, StuckPacket[]> = {};
  for (let id = 0; id < M; id++) {
    if (!member[id]) continue;
    const x = Math.floor(id / n);
    const pbu = pbuOf(id);
    units.push(pbu.path);
    const list: StuckPacket[] = [];
    const used = sim.peek(pbu.cam.used);
    for (let r = 0; r < used; r++) {
      const v = sim.peek(pbu.cam.rows[r]!);
      const port = field(v, portF);
      list.push({ row: r, dest: field(v, destF), port, contrary: field(v, cF), target: name(targetId(n, x, port)) });
    }
    packets[pbu.path] = list;
  }
  // Node output port slot j of node y sends to PBU j of y XOR 2^(j-1).
  const stuckSlots: string[] = [];
  for (let y = 0; y < cube.nodes.length; y++) {
    const nop = cube.nodes[y]!.nop;
    for (let j = 1; j <= n; j++) {
      if (member[targetId(n, y, j)] && SLOT_WAIT.has(sim.peek(nop.slots[j - 1]!.state))) stuckSlots.push(`${nop.path}.slot${j}`);
    }
  }
  return { cycle, units, stuckSlots, packets, at: sim.cycle };
}

/** A one-line-per-unit rendering of a deadlock report, for logs and test output. */
export function describeDeadlock(d: Deadlock): string {
  const lines = [`deadlock at cycle ${d.at}: ${d.cycle.join(' -> ')} -> ${d.cycle[0]}`];
  for (const u of d.units) {
    const ps = d.packets[u]!.map((p) => `[dest ${p.dest}${p.contrary ? ' C' : ''} -> ${p.target}]`).join(' ');
    lines.push(`  ${u}: ${ps}`);
  }
  lines.push(`  node output port slots stuck towards the set: ${d.stuckSlots.length}${d.stuckSlots.length ? ` (${d.stuckSlots.join(', ')})` : ''}`);
  return lines.join('\n');
}
