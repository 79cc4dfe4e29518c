/**
 * Event recorder for the Buzzard RTL cube: an observer that turns a running
 * `BuzzardCube` into the shared event vocabulary (traces/events/vocabulary.ts,
 * ARCHITECTURE.md "Three levels, one workload, one trace vocabulary") with
 * cycle stamps, for the messages a `CubeDriver` issued (msg = SentMessage.id).
 *
 *   const rec = attachEvents(sim, cube, driver);
 *   sim.runUntil(() => driver.allComplete(), 50_000);
 *   rec.write('run.events.jsonl');       // header line + one event per line
 *
 * ------------------------------------------------------------ identification
 * The hardware carries no message ids, so packets are followed the way the
 * hardware itself keeps them apart, with shadow bookkeeping in this observer
 * (plain JS state; it reads the state vector and never writes it):
 *  - message → slot: the control unit's send instruction names a header
 *    block; at its acknowledge the block is the tail of slot j's send queue
 *    (`cu.qTail{j}`). The driver's SentMessage records (src, block).
 *  - packet k of a message: every head the control unit loads into slot j's
 *    prefetch buffer increments `cu.packets{j}`, while `cu.sBlk{j}` names the
 *    message's block; the k-th head loaded for a message is its packet k.
 *    The slot sends its loaded heads in order (a FIFO per slot): a new packet
 *    starts when the slot enters ARB from IDLE/DEST/DATA (a retry after a
 *    contrary refusal re-enters ARB from PRE/PY1 and keeps its packet).
 *  - links: whoever puts an S1 on outgoing link j of node x (slot j, or a PBU
 *    granted O_j) records the packet for that link; PBU j of x XOR 2^(j-1)
 *    sees that S1 in the same cycle (no wire delay). This is what spec §6.5
 *    guarantees in hardware: the source word (source, first-step direction)
 *    plus in-order packets on one fixed path.
 *  - inside a PBU: a packet is kept under its RAM slot (`inSlot`, latched at
 *    input step 2); when the output controller is granted, `outAddr` (loaded
 *    from the granted CAM row) names the RAM slot, `outPort` the output.
 *  - node input port and control unit: packets enter the FIFO in the order
 *    their S1 reached the port (one at a time through O_0) and the receive
 *    task takes them in that order; each packet ends with the task's R_END
 *    step.
 * Cross-checks against the hardware (a mismatch goes to `anomalies`, never
 * throws): the destination in a PBU's incoming shift register at camLoad,
 * the destination in the granted CAM row, and the source word the control
 * unit read (rxSrc) all match the packet the shadow says it is.
 *
 * ------------------------------------------------------------ time stamps
 * A stamp t is a kernel cycle: the observer sees cycle t's registers and
 * settled wires (simulator.ts step 5), so "the S1 is on the line in t" means
 * the driving register is in its S1 state during t. Exactly:
 *  message-queued    the cycle in which cu.instrAck is high for the send
 *                    (the block is already in the slot's queue); unit 'nop',
 *                    port = the slot chosen.
 *  grant (nop)       the cycle in which the crossbar grant to slot j is high
 *                    = the packet's S1 cycle − 1 (lib crossbar: S1 follows a
 *                    grant in the next cycle); unit 'nop', port j.
 *  packet-injected   the first cycle the packet's S1 is on outgoing link j
 *                    (slot state S1), of the attempt that was not refused;
 *                    unit 'nop', port j.
 *  head-arrives      PBU i ('pbuI', port i): the first cycle the S1 is on
 *                    the PBU's inBit (c in DESIGN.md "Per-hop head timing",
 *                    equal to the upstream packet-injected / packet-forwarded
 *                    stamp); refused attempts are not reported. Node input
 *                    port ('nip', port 0): the first cycle the S1 is on its
 *                    inBit.
 *  grant (pbuI)      the cycle in which the crossbar grant to PBU i is high
 *                    (c + 30 at zero load); port = the output (0 = nip).
 *  packet-forwarded  the first cycle of the PBU's outgoing S1 (grant + 1,
 *                    c + 31 at zero load); unit 'pbuI', port as the grant.
 *  first-packet-delivered / message-complete
 *                    data based, not flag based: the first cycle in which
 *                    the last word the control unit stores for packet 0 /
 *                    for the message's last packet is in node memory (the
 *                    receive task's R_END step runs in the done cycle of
 *                    that store, whose write lands at the end of that cycle;
 *                    the stamp is the next cycle). message-complete is the
 *                    packet after which the control unit itself decides the
 *                    message is complete (R_END → R_C1). The completion flag
 *                    (3) is written a few memory accesses later (6L + 1).
 *                    Unit 'nip', port 0, node = destination.
 * Events are kept sorted by t (stable: events with equal t stay in the order
 * they were found), although some are found a few cycles after their stamp
 * (a head is known to be accepted only after the refusal point).
 *
 * Cost: per node it watches 4n + 3 registers (PBU inState and outState,
 * slot state, cu.packets{j}, nip state, cu.rxSt, cu.instrAck), compares them
 * with their previous values each cycle and does work only on a change; a
 * skipped quiescent stretch (fast-forward) costs nothing.
 *
 * Limits: unicast sends issued through the CubeDriver; broadcasts and
 * packets of messages the driver did not issue are followed (so the
 * bookkeeping stays aligned) but produce no events. A reset or snapshot
 * restore (time going backwards) clears the shadow state (noted in
 * `anomalies`).
 */
import type { Module, Observer, Signal, Simulator } from '../../rtl/kernel/index.ts';
import type { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { geometry } from '../../rtl/buzzard/config.ts';
import { PBU_IN_STATES, PBU_OUT_STATES } from '../../rtl/buzzard/packet_buffer_unit.ts';
import { SLOT_STATES } from '../../rtl/buzzard/node_output_port.ts';
import { INPUT_STATES } from '../../rtl/buzzard/node_input_port.ts';
import { RX_STATES } from '../../rtl/buzzard/control_unit.ts';
import { OP } from '../../rtl/buzzard/header_blocks.ts';
import type { OutputTarget } from '../../traces/files.ts';
import { writeTrace, type EventKind, type TraceEvent, type TraceHeader } from '../../traces/events/vocabulary.ts';
import type { CubeDriver } from './cube_driver.ts';

/** A packet as the shadow bookkeeping knows it. */
export interface PacketRef {
  readonly msg: number;
  readonly packet: number;
  readonly src: number;
  readonly dest: number;
}
/** null: a packet the driver did not issue (or one the bookkeeping lost). */
export type Pkt = PacketRef | null;

export interface EventRecorder {
  /** The events so far, sorted by t (live: grows while the simulation runs). */
  readonly events: TraceEvent[];
  readonly header: TraceHeader;
  /** Bookkeeping problems: a shadow packet disagreeing with the hardware, unknown packets, rejected sends. */
  readonly anomalies: string[];
  /*
   * Shadow queries (for line traces and debuggers): undefined = no packet,
   * null = a packet the driver did not issue.
   */
  /** Packet being received by PBU i (1..n) of `node` (from its S1 until the input controller is back at step 1). */
  pbuRx(node: number, i: number): Pkt | undefined;
  /** Packet PBU i of `node` is forwarding (from its grant until the output controller is idle). */
  pbuTx(node: number, i: number): Pkt | undefined;
  /** Packet in slot j (1..n) of `node`'s output port (from ARB until IDLE). */
  slotPacket(node: number, j: number): Pkt | undefined;
  /** Packet the node input port is receiving (from its S1 until it is idle again). */
  nipPacket(node: number): Pkt | undefined;
  /** `src→dest#k`, '?' for an unknown packet, '' for none. */
  label(p: Pkt | undefined): string;
  /** Write the JSON-lines trace safely (vocabulary.ts writeTrace; `label` names the option in errors). */
  write(path: string | OutputTarget, label?: string): void;
  /** Stop observing. */
  detach(): void;
}

/** `src→dest#k`, '?' for an unknown packet, '' for none. */
export function packetLabel(p: Pkt | undefined): string {
  if (p === undefined) return '';
  if (p === null) return '?';
  return `${p.src}→${p.dest}#${p.packet}`;
}

// watch kinds
const W_ACK = 0;
const W_HEADS = 1;
const W_SLOT = 2;
const W_PBU_IN = 3;
const W_PBU_OUT = 4;
const W_NIP = 5;
const W_RX = 6;

const idx = (names: readonly string[], name: string): number => {
  const k = names.indexOf(name);
  if (k < 0) throw new Error(`events: state '${name}' not found (unit state names changed?)`);
  return k;
};
const IN_START = idx(PBU_IN_STATES, 'start');
const IN_SBIT = idx(PBU_IN_STATES, 'startBit');
const IN_PRE = idx(PBU_IN_STATES, 'preheader');
const IN_PSYNC = idx(PBU_IN_STATES, 'postSync');
const IN_DEST = idx(PBU_IN_STATES, 'dest');
const IN_LOAD = idx(PBU_IN_STATES, 'camLoad');
const OUT_IDLE = idx(PBU_OUT_STATES, 'idle');
const OUT_BC = idx(PBU_OUT_STATES, 'bcast');
const SL_IDLE = idx(SLOT_STATES, 'IDLE');
const SL_ARB = idx(SLOT_STATES, 'ARB');
const SL_S1 = idx(SLOT_STATES, 'S1');
const SL_PRE = idx(SLOT_STATES, 'PRE');
const SL_PY1 = idx(SLOT_STATES, 'PY1');
const SL_DEST = idx(SLOT_STATES, 'DEST');
const NIP_IDLE = idx(INPUT_STATES, 'IDLE');
const NIP_START = idx(INPUT_STATES, 'START');
const R_END = idx(RX_STATES, 'R_END');
const R_C1 = idx(RX_STATES, 'R_C1');

function reg(m: Module, name: string): Signal {
  const sig = m.signals.find((x) => x.name === name);
  if (!sig) throw new Error(`events: ${m.path || m.name} has no register '${name}'`);
  return sig;
}

const TWO24 = 2 ** 24;

/**
 * Attach the recorder to `sim` (which must simulate `cube`). Attach before the
 * first stimulus the driver scheduled runs (typically right after creating
 * the driver), so that every message is seen from its send instruction on.
 */
export function attachEvents(sim: Simulator, cube: BuzzardCube, driver: CubeDriver): EventRecorder {
  const cfg = cube.cfg;
  const n = cfg.n;
  const N = cube.nodes.length;
  const H = cfg.camHeight;
  const geo = geometry(cfg);
  const slotWords = geo.slotWords;
  const destLsb = geo.camFields.find((f) => f[0] === 'dest')![1];
  const nodeMask = N - 1;
  const s = sim.s;

  const events: TraceEvent[] = [];
  const anomalies: string[] = [];
  const header: TraceHeader = {
    format: 'icemu-events',
    version: 1,
    model: 'rtl',
    unit: 'cycles',
    topology: { kind: 'buzzard-ncube', n },
    workload: {
      source: 'harness/rtl/cube_driver',
      n,
      routing: cfg.routing,
      strictFraming: cfg.strictFraming,
      packetBytes: cfg.packetBytes,
      camHeight: cfg.camHeight,
      arbiterLatency: cfg.arbiterLatency,
      firstPacketPrefixBytes: cfg.firstPacketPrefixBytes,
    },
  };

  // ---------------------------------------------------------------- message lookup
  const byBlock = new Map<number, number>();
  let indexed = 0;
  const lookup = (node: number, blk: number): number => {
    const key = node * TWO24 + blk;
    let m = byBlock.get(key);
    if (m === undefined && indexed < driver.sent.length) {
      for (; indexed < driver.sent.length; indexed++) {
        const sm = driver.sent[indexed]!;
        byBlock.set(sm.src * TWO24 + sm.block, sm.id);
      }
      m = byBlock.get(key);
    }
    return m ?? -1;
  };
  const headsLoaded = new Map<number, number>();

  // ---------------------------------------------------------------- shadow state
  const link: Pkt[] = new Array<Pkt>(N * n).fill(null); // outgoing link j of x: x*n + j-1
  const pbuRx: (Pkt | undefined)[] = new Array<Pkt | undefined>(N * n).fill(undefined);
  const pbuRxC = new Float64Array(N * n);
  const pbuTx: (Pkt | undefined)[] = new Array<Pkt | undefined>(N * n).fill(undefined);
  const pbuRam: Pkt[] = new Array<Pkt>(N * n * H).fill(null);
  const slotFifo: Pkt[][] = Array.from({ length: N * n }, () => []);
  const slotCur: (Pkt | undefined)[] = new Array<Pkt | undefined>(N * n).fill(undefined);
  const slotS1 = new Float64Array(N * n);
  const nipNext: Pkt[] = new Array<Pkt>(N).fill(null); // set by the PBU forwarding to O_0
  const nipCur: (Pkt | undefined)[] = new Array<Pkt | undefined>(N).fill(undefined);
  const rxQueue: Pkt[][] = Array.from({ length: N }, () => []);

  const push = (t: number, kind: EventKind, p: PacketRef | null, node: number, unit: string, port: number, withPacket = true): void => {
    if (!p) return;
    const e: TraceEvent = withPacket ? { t, kind, msg: p.msg, node, packet: p.packet, unit, port } : { t, kind, msg: p.msg, node, unit, port };
    let k = events.length;
    while (k > 0 && events[k - 1]!.t > t) k--;
    if (k === events.length) events.push(e);
    else events.splice(k, 0, e);
  };
  const note = (t: number, what: string): void => {
    if (anomalies.length < 1000) anomalies.push(`cycle ${t}: ${what}`);
  };

  // ---------------------------------------------------------------- watch list
  const wSlot: number[] = [];
  const wKind: number[] = [];
  const wNode: number[] = [];
  const wUnit: number[] = [];
  const watch = (sig: Signal, kind: number, node: number, unit: number): void => {
    wSlot.push(sig.i);
    wKind.push(kind);
    wNode.push(node);
    wUnit.push(unit);
  };
  // per-node signals read on a change
  const rd = {
    instrOp: [] as number[],
    instrAddr: [] as number[],
    qTail: [] as number[][],
    sBlk: [] as number[][],
    inSlot: [] as number[][],
    inShift: [] as number[][],
    outAddr: [] as number[][],
    outPort: [] as number[][],
    outCamRow: [] as number[][],
    rxSrc: [] as number[],
  };
  cube.nodes.forEach((nd, x) => {
    const cu = nd.cu;
    const cpu = nd.cpu;
    if (cu && cpu) {
      watch(cu.instrAck, W_ACK, x, 0);
      rd.instrOp[x] = cpu.instrOp.i;
      rd.instrAddr[x] = cpu.instrAddr.i;
      rd.qTail[x] = cu.slots.map((sl) => sl.qTail.i);
      rd.sBlk[x] = cu.slots.map((sl) => sl.blk.i);
      cu.slots.forEach((sl, k) => watch(sl.packets, W_HEADS, x, k + 1));
      rd.rxSrc[x] = reg(cu, 'rxSrc').i;
    }
    nd.nop.slots.forEach((sl, k) => watch(sl.state, W_SLOT, x, k + 1));
    nd.pbus.forEach((pbu, k) => {
      watch(pbu.inState, W_PBU_IN, x, k + 1);
      watch(pbu.outState, W_PBU_OUT, x, k + 1);
    });
    rd.inSlot[x] = nd.pbus.map((p) => p.inSlot.i);
    rd.inShift[x] = nd.pbus.map((p) => reg(p, 'inShift').i);
    rd.outAddr[x] = nd.pbus.map((p) => p.outAddr.i);
    rd.outPort[x] = nd.pbus.map((p) => reg(p, 'outPort').i);
    rd.outCamRow[x] = nd.pbus.map((p) => reg(p, 'outCamRow').i);
    watch(nd.nip.state, W_NIP, x, 0);
    if (cu) watch(cu.rxSt, W_RX, x, 0);
  });
  const W = wSlot.length;
  const prev = new Float64Array(W);
  sim.peek(cube.nodes[0]!.nip.state); // settle pending pokes before sampling
  for (let k = 0; k < W; k++) prev[k] = s[wSlot[k]!]!;
  let lastCycle = sim.cycle;

  // ---------------------------------------------------------------- handlers
  const onAck = (t: number, x: number): void => {
    if (s[rd.instrOp[x]!] !== OP.send) return;
    const blk = s[rd.instrAddr[x]!]!;
    const m = lookup(x, blk);
    if (m < 0) return;
    const tails = rd.qTail[x]!;
    let port = 0;
    for (let j = 0; j < n; j++) if (s[tails[j]!] === blk) port = j + 1;
    if (port === 0) {
      note(t, `node ${x}: send of message ${m} acknowledged but not queued on any slot (rejected by the control unit?)`);
      return;
    }
    const sm = driver.sent[m]!;
    push(t, 'message-queued', { msg: m, packet: 0, src: sm.src, dest: sm.dest }, x, 'nop', port, false);
  };

  const onHeads = (t: number, x: number, j: number, oldV: number, newV: number): void => {
    const count = (newV - oldV + 65536) % 65536;
    const blk = s[rd.sBlk[x]![j - 1]!]!;
    const m = lookup(x, blk);
    const fifo = slotFifo[x * n + j - 1]!;
    for (let c = 0; c < count; c++) {
      if (m < 0) {
        fifo.push(null);
        continue;
      }
      const k = headsLoaded.get(m) ?? 0;
      headsLoaded.set(m, k + 1);
      const sm = driver.sent[m]!;
      fifo.push({ msg: m, packet: k, src: sm.src, dest: sm.dest });
    }
    if (count > 1) note(t, `node ${x} slot ${j}: ${count} heads loaded in one cycle`);
  };

  const onSlot = (t: number, x: number, j: number, oldV: number, newV: number): void => {
    const q = x * n + j - 1;
    if (newV === SL_ARB) {
      if (oldV === SL_PRE || oldV === SL_PY1) return; // refused: retry the same packet
      const fifo = slotFifo[q]!;
      if (fifo.length === 0) {
        if (cube.nodes[x]!.cu) note(t, `node ${x} slot ${j}: a packet started with no head seen loaded`);
        slotCur[q] = null;
      } else slotCur[q] = fifo.shift()!;
    } else if (newV === SL_S1) {
      slotS1[q] = t;
      link[q] = slotCur[q] ?? null;
    } else if (newV === SL_DEST) {
      // past the refusal point: this attempt went through
      const p = slotCur[q] ?? null;
      push(slotS1[q]! - 1, 'grant', p, x, 'nop', j);
      push(slotS1[q]!, 'packet-injected', p, x, 'nop', j);
    } else if (newV === SL_IDLE) {
      slotCur[q] = undefined;
    }
  };

  const onPbuIn = (t: number, x: number, i: number, oldV: number, newV: number): void => {
    const q = x * n + i - 1;
    if (newV === IN_SBIT) {
      // the S1 was on inBit in t-1; it came over link i from the neighbour
      pbuRx[q] = link[(x ^ (1 << (i - 1))) * n + i - 1]!;
      pbuRxC[q] = t - 1;
    } else if (oldV === IN_PRE && (newV === IN_DEST || newV === IN_PSYNC)) {
      // accepted (not refused): the packet now owns the RAM slot latched in step 2
      const p = pbuRx[q] ?? null;
      pbuRam[q * H + s[rd.inSlot[x]![i - 1]!]!] = p;
      push(pbuRxC[q]!, 'head-arrives', p, x, `pbu${i}`, i);
    } else if (newV === IN_LOAD) {
      const p = pbuRx[q];
      const d = s[rd.inShift[x]![i - 1]!]! % 65536;
      if (p && (d & nodeMask) !== p.dest) note(t, `node ${x} pbu${i}: packet ${packetLabel(p)} has destination ${d} on the wire`);
    } else if (newV === IN_START) {
      pbuRx[q] = undefined;
    }
  };

  const onPbuOut = (t: number, x: number, i: number, oldV: number, newV: number): void => {
    const q = x * n + i - 1;
    if (oldV === OUT_IDLE && newV === OUT_BC) {
      // granted in t-1 (output step 1 ran at its edge); S1 on the output in t
      const slot = Math.floor(s[rd.outAddr[x]![i - 1]!]! / slotWords) - (i - 1) * H;
      const p = slot >= 0 && slot < H ? pbuRam[q * H + slot]! : null;
      const port = s[rd.outPort[x]![i - 1]!]!;
      const d = Math.floor(s[rd.outCamRow[x]![i - 1]!]! / 2 ** destLsb) % 65536;
      if (p && (d & nodeMask) !== p.dest) note(t, `node ${x} pbu${i}: forwarding ${packetLabel(p)} but the CAM row says destination ${d}`);
      pbuTx[q] = p;
      push(t - 1, 'grant', p, x, `pbu${i}`, port);
      push(t, 'packet-forwarded', p, x, `pbu${i}`, port);
      if (port > 0) link[x * n + port - 1] = p;
      else nipNext[x] = p;
    } else if (newV === OUT_IDLE) {
      pbuTx[q] = undefined;
    }
  };

  const onNip = (t: number, x: number, oldV: number, newV: number): void => {
    if (newV === NIP_START && oldV === NIP_IDLE) {
      const p = nipNext[x]!;
      nipCur[x] = p;
      push(t - 1, 'head-arrives', p, x, 'nip', 0);
      if (cube.nodes[x]!.cu) rxQueue[x]!.push(p);
    } else if (newV === NIP_IDLE) {
      nipCur[x] = undefined;
    }
  };

  const onRx = (t: number, x: number, oldV: number, newV: number): void => {
    if (oldV !== R_END) return;
    const q = rxQueue[x]!;
    if (q.length === 0) {
      note(t, `node ${x}: the control unit finished a packet the node input port was not seen receiving`);
      return;
    }
    const p = q.shift()!;
    if (p && s[rd.rxSrc[x]!] !== p.src) note(t, `node ${x}: control unit stored a packet from ${s[rd.rxSrc[x]!]} where ${packetLabel(p)} was expected`);
    if (p && p.packet === 0) push(t, 'first-packet-delivered', p, x, 'nip', 0);
    if (newV === R_C1) push(t, 'message-complete', p, x, 'nip', 0);
  };

  const resync = (): void => {
    for (let k = 0; k < W; k++) prev[k] = s[wSlot[k]!]!;
    link.fill(null);
    pbuRx.fill(undefined);
    pbuTx.fill(undefined);
    pbuRam.fill(null);
    for (const f of slotFifo) f.length = 0;
    slotCur.fill(undefined);
    nipNext.fill(null);
    nipCur.fill(undefined);
    for (const f of rxQueue) f.length = 0;
  };

  const observer: Observer = {
    onCycle(sm: Simulator): void {
      const t = sm.cycle;
      if (t < lastCycle) {
        note(t, `time went back from ${lastCycle} (reset or restore): shadow state cleared`);
        lastCycle = t;
        resync();
        return;
      }
      lastCycle = t;
      for (let k = 0; k < W; k++) {
        const v = s[wSlot[k]!]!;
        const o = prev[k]!;
        if (v === o) continue;
        prev[k] = v;
        const x = wNode[k]!;
        switch (wKind[k]) {
          case W_ACK:
            if (v === 1) onAck(t, x);
            break;
          case W_HEADS:
            onHeads(t, x, wUnit[k]!, o, v);
            break;
          case W_SLOT:
            onSlot(t, x, wUnit[k]!, o, v);
            break;
          case W_PBU_IN:
            onPbuIn(t, x, wUnit[k]!, o, v);
            break;
          case W_PBU_OUT:
            onPbuOut(t, x, wUnit[k]!, o, v);
            break;
          case W_NIP:
            onNip(t, x, o, v);
            break;
          default:
            onRx(t, x, o, v);
        }
      }
    },
    // A skipped quiescent stretch changes nothing.
    onSkip(): void {},
  };
  const detach = sim.observe(observer);

  const checkNode = (node: number, what: string): number => {
    if (!(Number.isInteger(node) && node >= 0 && node < N)) throw new RangeError(`${what}: node ${node} is outside 0..${N - 1}`);
    return node;
  };
  const at = (node: number, u: number, what: string): number => {
    checkNode(node, what);
    if (!(Number.isInteger(u) && u >= 1 && u <= n)) throw new RangeError(`${what}: unit ${u} is outside 1..${n}`);
    return node * n + u - 1;
  };
  return {
    events,
    header,
    anomalies,
    pbuRx: (node, i) => pbuRx[at(node, i, 'pbuRx')],
    pbuTx: (node, i) => pbuTx[at(node, i, 'pbuTx')],
    slotPacket: (node, j) => slotCur[at(node, j, 'slotPacket')],
    nipPacket: (node) => nipCur[checkNode(node, 'nipPacket')],
    label: packetLabel,
    write: (path, label) => writeTrace(path, header, events, label),
    detach,
  };
}

/** Write a recorder's events as a JSON-lines trace (header line first). */
export function writeEventTrace(path: string, rec: Pick<EventRecorder, 'header' | 'events'>): void {
  writeTrace(path, rec.header, rec.events);
}
