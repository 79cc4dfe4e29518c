/**
 * Put a workload (harness/workloads) onto the Buzzard RTL cube: every message
 * becomes a send instruction at its source at its generation time, converted
 * from ticks to cycles, and a matching receive at its destination.
 *
 * Time base (spec A1): the seed's chapter-5 simulator moves a byte in 2
 * ticks; the RTL moves a 16-bit word in 18 bit-cycles (16 data + a "10" sync),
 * i.e. 9 cycles per byte, so by default 1 tick = 4.5 cycles. The mapping is a
 * parameter and is reported with every result.
 */
import type { Workload } from '../workloads/types.ts';
import type { CubeDriver, PostedReceive, SentMessage } from './cube_driver.ts';

export const DEFAULT_CYCLES_PER_TICK = 4.5;

export interface ScheduleOptions {
  cyclesPerTick?: number;
  /** When the receive is posted: at cycle 0 (expected messages) or at the send's cycle. Default 'start'. */
  receives?: 'start' | 'with-send';
  /** Data bytes of message k (default: a deterministic pattern from its id). */
  data?: (id: number, bytes: number) => number[];
}

export interface ScheduledMessage {
  id: number;
  send: SentMessage;
  receive: PostedReceive;
  /** Generation time in cycles. */
  cycle: number;
}

/** Data pattern of a message: distinct per message and per byte, so a misdelivery shows. */
export function messagePattern(id: number, bytes: number): number[] {
  return Array.from({ length: bytes }, (_, i) => (id * 37 + i * 11 + (i >> 8)) & 0xff);
}

export function scheduleWorkload(driver: CubeDriver, w: Workload, opts: ScheduleOptions = {}): ScheduledMessage[] {
  const cpt = opts.cyclesPerTick ?? DEFAULT_CYCLES_PER_TICK;
  if (!(cpt > 0 && Number.isFinite(cpt))) throw new RangeError(`cyclesPerTick: ${cpt} must be a positive number`);
  if (w.cubeDegree !== driver.cube.cfg.n) {
    throw new RangeError(`workload '${w.name}' is for a ${w.cubeDegree}-cube but the RTL cube has degree ${driver.cube.cfg.n}`);
  }
  const data = opts.data ?? messagePattern;
  const out: ScheduledMessage[] = [];
  for (const m of w.messages) {
    if (m.kind !== 'unicast') throw new RangeError(`message ${m.id}: ${m.kind} messages are not scheduled on the RTL yet`);
    if (m.bytes < 1) throw new RangeError(`message ${m.id}: a ${m.bytes}-byte message cannot be sent (the control unit needs at least 1 byte)`);
    const cycle = Math.round(m.t * cpt);
    // A distinct user type per message (types below 0x8000 are user types, seed §4.1) keeps the
    // (source, type) match exact when several messages from one source are in flight.
    const type = (m.id % 0x7ffe) + 1;
    const receive = driver.receive(m.dst, m.src, m.bytes, opts.receives === 'with-send' ? cycle : 0, type);
    const send = driver.send(m.src, m.dst, data(m.id, m.bytes), cycle, type);
    out.push({ id: m.id, send, receive, cycle });
  }
  return out;
}
