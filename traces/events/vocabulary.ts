/**
 * The event vocabulary shared by the RTL, the transaction-level models and the
 * analytic models (ARCHITECTURE.md, "Three levels, one workload, one trace
 * vocabulary"), and its on-disk form: JSON lines, one event per line.
 *
 * Time `t` is in the emitting model's unit, named once in the trace header
 * (`cycles` for the RTL, `ticks` for the Buzzard TLM, `ns` for the T9000/C104
 * TLM, either for analytic models);
 * harness/compare makes the mapping explicit.
 */
import { readFileSync } from 'node:fs';
import { writeOutput, type OutputTarget } from '../files.ts';

export const EVENT_KINDS = [
  'message-queued', // the instruction was accepted at the source (send queued)
  'packet-injected', // a packet's first bit left the source node output port
  'head-arrives', // a packet head reached a unit (PBU or node input port)
  'grant', // a crossbar output was granted to a packet
  'packet-forwarded', // a packet's first bit left a PBU towards the next node or the node input port
  'first-packet-delivered', // the first packet of a message was in the destination's node memory
  'message-complete', // the last byte of a message was in the destination's node memory
  'link-error', // a DS-link end entered a named error state (fields error, lost); msg is 0: about no message
  'link-up', // a DS-link end reached Run; msg is 0
  'ack', // an acknowledgement of packet `packet` reached the sender (T9000 endpoints, docs/t9000.md#events)
  // Link and buffer states for `icemu view` (harness/rtl/view_events.ts); msg is 0: about no message.
  'link-busy', // a packet is on outgoing link `port` of `node` from this cycle on (Buzzard: the FCU's xbusy rose)
  'link-idle', // outgoing link `port` of `node` carries nothing from this cycle on
  'link-held', // flow control blocks outgoing link `port` of `node` (the receiver blocks: a sender is held, none is granted)
  'link-released', // the hold on outgoing link `port` of `node` ended
  'buffer-full', // the buffer of `unit` (Buzzard: PBU CAM) is full from this cycle on
  'buffer-free', // the buffer of `unit` has room again
  'deadlock', // a structural deadlock was found: `ring` lists the waiting units, each waiting for the next
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export interface TraceEvent {
  /** Time stamp in the trace's unit. */
  t: number;
  kind: EventKind;
  /** Message id as given by the workload (its index in the workload). */
  msg: number;
  /** Node where the event happened. */
  node: number;
  /** Packet index within the message (events about packets). */
  packet?: number;
  /** Unit name, e.g. `pbu3`, `nip` (head-arrives, grant, packet-forwarded). */
  unit?: string;
  /** Port: the link dimension 1..n or 0 for the node's own port. */
  port?: number;
  /** link-error: the error kind (disconnect, parity, escape, credit). */
  error?: string;
  /** link-error: characters the end lost (its transmit buffer, a partly sent token, a received one not yet checked). */
  lost?: number;
  /** link-error: characters the end handed on before their parity check failed (DS-link `rxHandover: 'on-arrival'`, docs/dslink.md#handover). */
  suspect?: number;
  /** deadlock: the ring of waiting units, e.g. ['node0.pbu1', 'node2.pbu2', …] (the last waits for the first). */
  ring?: string[];
}

export type TimeUnit = 'cycles' | 'ticks' | 'us' | 'ns';

export interface TraceHeader {
  format: 'icemu-events';
  version: 1;
  /** Which model wrote it: 'rtl', 'tlm', 'analytic'. */
  model: string;
  unit: TimeUnit;
  /** Workload description (name, seed, parameters). */
  workload?: Record<string, unknown>;
  /**
   * The network the trace is about, for `icemu view`: `{kind: 'buzzard-ncube', n}`, or
   * `{kind: 'c104', switches: [name…], endpoints: [{name, sw, links: [switch link…]}…],
   * cables: [[switchA, linkA, switchB, linkB]…], grid?: {w, h}, places?: [[x, y]…]}`
   * (harness/rtl/c104_events.ts c104Topology; grid and places for a mesh). In a C104
   * trace, switch events have node = switch index and unit `name.inK (packet P)`;
   * T9000 events have node = endpoint index and port = its link 0..3.
   */
  topology?: { kind: string; n?: number; [k: string]: unknown };
}

export class EventTraceError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    message: string,
  ) {
    super(`${file}:${line}: ${message}`);
    this.name = 'EventTraceError';
  }
}

const KIND_SET = new Set<string>(EVENT_KINDS);

/** Check one parsed event; returns a message describing the first problem, or null. */
export function validateEvent(e: unknown): string | null {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return 'not an object';
  const o = e as Record<string, unknown>;
  if (typeof o.t !== 'number' || !Number.isFinite(o.t) || o.t < 0) return `field 't': expected a time >= 0, got ${JSON.stringify(o.t)}`;
  if (typeof o.kind !== 'string' || !KIND_SET.has(o.kind)) return `field 'kind': expected one of ${EVENT_KINDS.join(', ')}, got ${JSON.stringify(o.kind)}`;
  for (const f of ['msg', 'node'] as const) {
    if (!Number.isInteger(o[f]) || (o[f] as number) < 0) return `field '${f}': expected a whole number >= 0, got ${JSON.stringify(o[f])}`;
  }
  for (const f of ['packet', 'port', 'lost'] as const) {
    if (o[f] !== undefined && (!Number.isInteger(o[f]) || (o[f] as number) < 0)) return `field '${f}': expected a whole number >= 0, got ${JSON.stringify(o[f])}`;
  }
  if (o.unit !== undefined && typeof o.unit !== 'string') return `field 'unit': expected a string`;
  if (o.error !== undefined && typeof o.error !== 'string') return `field 'error': expected a string`;
  if (o.ring !== undefined && (!Array.isArray(o.ring) || !o.ring.every((u) => typeof u === 'string'))) return `field 'ring': expected a list of unit names`;
  return null;
}

/** Serialise a trace: header line, then one event per line. */
export function formatTrace(header: TraceHeader, events: readonly TraceEvent[]): string {
  return [JSON.stringify(header), ...events.map((e) => JSON.stringify(e))].join('\n') + '\n';
}

/** Write a trace safely (checked; temporary file, then rename; a device in place: traces/files.ts). */
export function writeTrace(path: string | OutputTarget, header: TraceHeader, events: readonly TraceEvent[], label?: string): void {
  writeOutput(path, formatTrace(header, events), label);
}

/** Parse a trace; errors name the file and line. */
export function parseTrace(text: string, file = '<trace>'): { header: TraceHeader; events: TraceEvent[] } {
  const lines = text.split('\n');
  let header: TraceHeader | undefined;
  const events: TraceEvent[] = [];
  lines.forEach((line, k) => {
    if (!line.trim()) return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      throw new EventTraceError(file, k + 1, 'not valid JSON');
    }
    if (!header) {
      const h = v as Partial<TraceHeader>;
      if (h.format !== 'icemu-events' || h.version !== 1) throw new EventTraceError(file, k + 1, "first line must be the header {format: 'icemu-events', version: 1, …}");
      if (!['cycles', 'ticks', 'us', 'ns'].includes(h.unit as string)) throw new EventTraceError(file, k + 1, `header field 'unit': expected cycles, ticks, us or ns, got ${JSON.stringify(h.unit)}`);
      header = h as TraceHeader;
      return;
    }
    const problem = validateEvent(v);
    if (problem) throw new EventTraceError(file, k + 1, problem);
    events.push(v as TraceEvent);
  });
  if (!header) throw new EventTraceError(file, 1, 'empty trace: no header line');
  return { header, events };
}

export function readTrace(path: string): { header: TraceHeader; events: TraceEvent[] } {
  return parseTrace(readFileSync(path, 'utf8'), path);
}
