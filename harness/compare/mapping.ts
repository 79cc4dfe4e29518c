/**
 * The explicit time mapping between the models' units (ARCHITECTURE.md: the
 * RTL stamps events in cycles = link bit times, the TLM in the seed's
 * chapter-5 ticks; traces/events/vocabulary.ts names the unit in each trace
 * header, and harness/compare makes the mapping explicit).
 *
 * Default (spec A1, harness/rtl/run_workload.ts): the seed's simulator moves
 * a byte in 2 ticks; the RTL moves a 16-bit word in 18 bit-cycles (16 data
 * bits + a "10" sync), i.e. 9 cycles per byte, so 1 tick = 4.5 cycles. The
 * alternative reading of A1 (sync bits ignored) is 4 cycles per tick; the
 * mapping is a parameter and is reported with every comparison.
 */
import type { TimeUnit } from '../../traces/events/vocabulary.ts';
import { DEFAULT_CYCLES_PER_TICK } from '../rtl/run_workload.ts';

export interface TimeMapping {
  /** Cycles (link bit times) per chapter-5 tick. */
  readonly cyclesPerTick: number;
  /** Clock for µs, MHz (only needed when a trace is in 'us'). A1: 7 MHz, the NCUBE clock. */
  readonly clockMHz?: number;
  /** Where the numbers come from (printed with the report). */
  readonly note: string;
}

export const DEFAULT_MAPPING: TimeMapping = Object.freeze({
  cyclesPerTick: DEFAULT_CYCLES_PER_TICK,
  clockMHz: 7,
  note: 'spec A1: 2 ticks per byte (seed §10.3) = 9 bit-cycles per byte (18 bits per 16-bit word on the wire); µs at 7 MHz',
});

/** Check a mapping; throws a RangeError naming the field. */
export function checkMapping(m: TimeMapping): TimeMapping {
  if (typeof m.cyclesPerTick !== 'number' || !(m.cyclesPerTick > 0) || !Number.isFinite(m.cyclesPerTick)) {
    throw new RangeError(`mapping.cyclesPerTick: ${String(m.cyclesPerTick)} is outside (0, ∞) (cycles per tick)`);
  }
  if (m.clockMHz !== undefined && (typeof m.clockMHz !== 'number' || !(m.clockMHz > 0) || !Number.isFinite(m.clockMHz))) {
    throw new RangeError(`mapping.clockMHz: ${String(m.clockMHz)} is outside (0, ∞) (MHz)`);
  }
  return m;
}

/** Cycles per one unit of `u`. */
function cyclesPer(u: TimeUnit, m: TimeMapping): number {
  switch (u) {
    case 'cycles':
      return 1;
    case 'ticks':
      return m.cyclesPerTick;
    case 'us':
      if (m.clockMHz === undefined) throw new RangeError("mapping.clockMHz: needed to convert a trace in 'us' (give the clock in MHz)");
      return m.clockMHz;
    case 'ns':
      if (m.clockMHz === undefined) throw new RangeError("mapping.clockMHz: needed to convert a trace in 'ns' (give the clock in MHz)");
      return m.clockMHz / 1000;
  }
}

/** Factor f with t_to = f · t_from. */
export function unitFactor(from: TimeUnit, to: TimeUnit, m: TimeMapping): number {
  if (from === to) return 1;
  return cyclesPer(from, m) / cyclesPer(to, m);
}

/** Convert a time (or a duration) from one unit to another. */
export function convertTime(t: number, from: TimeUnit, to: TimeUnit, m: TimeMapping): number {
  return t * unitFactor(from, to, m);
}

/** One line describing the mapping, e.g. `1 tick = 4.5 cycles (spec A1: …)`. */
export function describeMapping(m: TimeMapping): string {
  return `1 tick = ${m.cyclesPerTick} cycles (${m.note})`;
}
