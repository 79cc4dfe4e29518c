/**
 * A one-line-per-cycle text trace of one Buzzard node, in the manner of
 * PyMTL line traces (traces/text/line_trace.ts): every cycle prints the
 * node's units side by side in fixed-width columns, so a run reads like a
 * pipeline diagram.
 *
 *   const rec = attachEvents(sim, cube, driver);          // optional: packet labels
 *   const tr = attachNodeTrace(sim, cube, 3, { events: rec });
 *   sim.step(500);
 *   console.log(tr.lines.join('\n'));
 *   console.log(tr.legend());
 *
 * Each line shows the committed, settled cycle (what the registers hold
 * during that cycle; simulator.ts step 5).
 *
 * ------------------------------------------------------------------ legend
 *   cycle   the kernel cycle (one link bit time)
 *   pbuI    packet buffer unit I (fed by incoming link I), one cell
 *           "IOT F label":
 *             I  input controller  b start (step 1, blocking)  l latchSlot
 *                                  . waitStart (idle)  S startBit  p preheader
 *                                  R refused  r refusedDrain  Y postSync
 *                                  d dest  C camLoad  y sync  w word  L lastWrite
 *             O  output controller . idle  B bcast (step 2, just granted)
 *                                  a lenAdjust  f fetch  l lowWater  F finish
 *             T  output framing    . idle  S S1  s S0  h head  P/p post-
 *                                  preheader Y1/Y0  Y Y1  y Y0  w word
 *             F  free CAM rows, one base-36 digit (d = 13)
 *             label  the packet the output side is forwarding, else the one
 *                    the input side is receiving: src→dest#k (packet k of
 *                    the message), '?' for a packet the driver did not issue
 *   links   per dimension 1..n left to right, " i/o ": the bit on the
 *           incoming wire / on the outgoing wire; a '*' before the pair:
 *           this node blocks the incoming link (PBU block), a '*' after it:
 *           the neighbour blocks this node's outgoing link
 *   slots   node output port slots 1..n, "Slabel": S = slot state
 *             . IDLE  a ARB  S S1  s S0  h PRE (preheader)  P PY1  p PY0
 *             d DEST  Y Y1  y Y0  w DATA
 *           label = →dest#k of the packet in the slot (source = this node)
 *   nip     node input port "S count": S = . IDLE  S START  h PRE
 *           y YWAIT  Y Y1  w WORD; count = words in the input FIFO
 *   cu      control unit engine state (ENGINE_STATES); while the engine
 *           runs the receive task (RX) the receive state (R_...) instead
 * Without an event recorder (no `events` option) the labels are left out.
 */
import type { Signal, Simulator } from '../../rtl/kernel/index.ts';
import type { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { PBU_IN_STATES, PBU_OUT_STATES, PBU_TX_PHASES } from '../../rtl/buzzard/packet_buffer_unit.ts';
import { SLOT_STATES } from '../../rtl/buzzard/node_output_port.ts';
import { INPUT_STATES } from '../../rtl/buzzard/node_input_port.ts';
import { ENGINE_STATES, RX_STATES } from '../../rtl/buzzard/control_unit.ts';
import { LineTracer, type LineTraceOptions, type TraceColumn } from '../../traces/text/line_trace.ts';
import { packetLabel, type EventRecorder, type Pkt } from './events.ts';

/** One-character codes, indexed by the units' state enums. */
const codes = (names: readonly string[], table: Record<string, string>, what: string): string[] =>
  names.map((nm) => {
    const c = table[nm];
    if (c === undefined) throw new Error(`node_trace: no code for ${what} state '${nm}'`);
    return c;
  });
export const PBU_IN_CODES = codes(
  PBU_IN_STATES,
  { start: 'b', latchSlot: 'l', waitStart: '.', startBit: 'S', preheader: 'p', refused: 'R', refusedDrain: 'r', postSync: 'Y', dest: 'd', camLoad: 'C', sync: 'y', word: 'w', lastWrite: 'L' },
  'PBU input',
);
export const PBU_OUT_CODES = codes(PBU_OUT_STATES, { idle: '.', bcast: 'B', lenAdjust: 'a', fetch: 'f', lowWater: 'l', finish: 'F' }, 'PBU output');
export const PBU_TX_CODES = codes(PBU_TX_PHASES, { idle: '.', S1: 'S', S0: 's', head: 'h', PY1: 'P', PY0: 'p', Y1: 'Y', Y0: 'y', word: 'w' }, 'PBU framing');
export const SLOT_CODES = codes(SLOT_STATES, { IDLE: '.', ARB: 'a', S1: 'S', S0: 's', PRE: 'h', PY1: 'P', PY0: 'p', DEST: 'd', Y1: 'Y', Y0: 'y', DATA: 'w' }, 'slot');
export const NIP_CODES = codes(INPUT_STATES, { IDLE: '.', START: 'S', PRE: 'h', YWAIT: 'y', Y1: 'Y', WORD: 'w' }, 'node input port');

const RX_ENGINE = ENGINE_STATES.indexOf('RX');

function legendTable(codesOf: readonly string[], names: readonly string[]): string {
  return names.map((nm, k) => `${codesOf[k]} ${nm}`).join('  ');
}

/** The column headers of a node trace for an n-cube. */
export function nodeTraceHeaders(n: number): string[] {
  return [...Array.from({ length: n }, (_, k) => `pbu${k + 1}`), 'links', 'slots', 'nip', 'cu'];
}

/**
 * The legend: one entry per column (every header by name), then the codes.
 * `n` is the cube degree; `packets` whether the labels are shown.
 */
export function legend(n: number, packets = true): string {
  const lines: string[] = [];
  lines.push('cycle   kernel cycle (one link bit time); the line shows the registers during that cycle');
  for (let i = 1; i <= n; i++) {
    lines.push(`pbu${i}    packet buffer unit ${i} (input from link ${i}): "IOT F${packets ? ' label' : ''}"`);
  }
  lines.push(`links   per dimension 1..${n} left to right " i/o": bit on the incoming / outgoing wire; '*' before: this node blocks the incoming link, '*' after: the outgoing link is blocked`);
  lines.push(`slots   node output port slots 1..${n}, one "S${packets ? 'label' : ''}" cell each: S = slot state${packets ? ', label = →dest#k' : ''}`);
  lines.push('nip     node input port "S count": S = controller state, count = words in the input FIFO');
  lines.push('cu      control unit engine state; the receive state (R_...) while the engine runs the receive task');
  lines.push('codes:');
  lines.push(`  I  PBU input controller: ${legendTable(PBU_IN_CODES, PBU_IN_STATES)}`);
  lines.push(`  O  PBU output controller: ${legendTable(PBU_OUT_CODES, PBU_OUT_STATES)}`);
  lines.push(`  T  PBU output framing: ${legendTable(PBU_TX_CODES, PBU_TX_PHASES)}`);
  lines.push('  F  free CAM rows, one base-36 digit (d = 13)');
  lines.push(`  S  slot: ${legendTable(SLOT_CODES, SLOT_STATES)}`);
  lines.push(`  S  nip: ${legendTable(NIP_CODES, INPUT_STATES)}`);
  if (packets) {
    lines.push("  label  src→dest#k: packet k of the message from src to dest, '?' a packet the driver did not issue;");
    lines.push('         a PBU shows the packet its output side forwards, else the one its input side receives');
  }
  return lines.join('\n');
}

export interface NodeTraceOptions extends LineTraceOptions {
  /** Event recorder attached to the same simulator before this trace: supplies the packet labels. */
  events?: EventRecorder;
  /** Where lines go (default: the returned `lines` array). */
  sink?: (line: string) => void;
}

export interface NodeTrace {
  readonly tracer: LineTracer;
  /** The lines written so far (when no sink was given): the header line, then one line per cycle. */
  readonly lines: string[];
  readonly headers: string[];
  legend(): string;
  detach(): void;
}

/**
 * A packet label (src→dest#k or →dest#k) in at most `w` characters, never
 * cut into a different number: drop the source, then the destination, and
 * if even #k does not fit show '#…' (the column would otherwise cut
 * 2→5#733 to 2→5#73).
 */
export function fitLabel(label: string, w: number): string {
  if (label.length <= w) return label;
  const k = label.indexOf('#');
  if (k < 0) return w >= 1 ? '…' : '';
  const dest = label.slice(label.indexOf('→'));
  if (label.indexOf('→') > 0 && dest.length <= w) return dest;
  const num = label.slice(k);
  if (num.length <= w) return num;
  return w >= 2 ? '#…' : w === 1 ? '…' : '';
}

/** The columns of a node trace (for use with a LineTracer of your own). */
export function nodeTraceColumns(cube: BuzzardCube, node: number, events?: EventRecorder): TraceColumn[] {
  const nd = cube.nodes[node];
  if (!nd) throw new RangeError(`node trace: node ${node} is outside 0..${cube.nodes.length - 1}`);
  const n = cube.cfg.n;
  const digits = String(cube.nodes.length - 1).length;
  const lw = 2 * digits + 4; // src→dest#kk
  const slw = digits + 4; // →dest#kk
  const withPk = events !== undefined;
  const val = (sim: Simulator, sig: Signal): number => sim.s[sig.i]!;
  const label = (p: Pkt | undefined): string => packetLabel(p);
  const cols: TraceColumn[] = [];
  nd.pbus.forEach((pbu, k) => {
    const i = k + 1;
    cols.push({
      header: `pbu${i}`,
      width: 5 + (withPk ? 1 + lw : 0),
      value: (sim) => {
        const ins = val(sim, pbu.inState);
        const outs = val(sim, pbu.outState);
        let cell = `${PBU_IN_CODES[ins]}${PBU_OUT_CODES[outs]}${PBU_TX_CODES[val(sim, pbu.txPhase)]} ${val(sim, pbu.freeRows).toString(36)}`;
        if (events) {
          const tx = events.pbuTx(node, i);
          cell += ` ${fitLabel(label(outs !== 0 && tx !== undefined ? tx : events.pbuRx(node, i)), lw)}`;
        }
        return cell;
      },
    });
  });
  cols.push({
    header: 'links',
    width: 5 * n,
    value: (sim) => {
      let out = '';
      for (let j = 0; j < n; j++) {
        const rb = val(sim, nd.rxBlock[j]!) ? '*' : ' ';
        const tb = val(sim, nd.txBlock[j]!) ? '*' : ' ';
        out += `${rb}${val(sim, nd.rxBit[j]!)}/${val(sim, nd.txBit[j]!)}${tb}`;
      }
      return out;
    },
  });
  const cellW = 1 + (withPk ? slw : 0);
  cols.push({
    header: 'slots',
    width: n * cellW + (n - 1),
    value: (sim) => {
      const cells: string[] = [];
      nd.nop.slots.forEach((sl, k) => {
        let c = SLOT_CODES[val(sim, sl.state)]!;
        if (events) {
          const p = events.slotPacket(node, k + 1);
          c += fitLabel(p === undefined ? '' : p === null ? '?' : `→${p.dest}#${p.packet}`, slw);
        }
        cells.push(c.padEnd(cellW));
      });
      return cells.join(' ');
    },
  });
  const cw = String(nd.nip.depth).length;
  cols.push({
    header: 'nip',
    width: 2 + cw,
    value: (sim) => `${NIP_CODES[val(sim, nd.nip.state)]} ${String(val(sim, nd.nip.count)).padStart(cw)}`,
  });
  const cu = nd.cu;
  cols.push({
    header: 'cu',
    width: 10,
    value: (sim) => {
      if (!cu) return '-';
      const st = val(sim, cu.st);
      return st === RX_ENGINE ? RX_STATES[val(sim, cu.rxSt)]! : ENGINE_STATES[st]!;
    },
  });
  return cols;
}

/**
 * Attach a line trace of node `node` to `sim`. Attach `events` (if any)
 * first, so that its shadow state is up to date when a line is printed.
 */
export function attachNodeTrace(sim: Simulator, cube: BuzzardCube, node: number, opts: NodeTraceOptions = {}): NodeTrace {
  const columns = nodeTraceColumns(cube, node, opts.events);
  const lines: string[] = [];
  const tracer = new LineTracer(columns, opts.sink ?? ((l) => lines.push(l)), { from: opts.from, to: opts.to, header: opts.header });
  const detach = sim.observe(tracer);
  const packets = opts.events !== undefined;
  return {
    tracer,
    lines,
    headers: columns.map((c) => c.header),
    legend: () => legend(cube.cfg.n, packets),
    detach,
  };
}
