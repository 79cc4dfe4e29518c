/**
 * The TLM in RTL-calibrated mode (ARCHITECTURE.md "The TLM, calibrated and
 * seed-level"): the same model with the RTL's timing constants
 * (config.ts TLM_RTL_CALIBRATED), on the workload's generation times
 * converted to cycles exactly as the RTL harness schedules them (send at
 * round(t · cyclesPerTick), harness/rtl/run_workload.ts). Times out are
 * cycles. Nothing here calls RTL code.
 */
import type { Workload } from '../workloads/types.ts';
import type { NnBroadcastGroup } from './broadcast.ts';
import { runTlm } from './buzzard-tlm.ts';
import { TLM_RTL_CALIBRATED, type TlmConfig, type Transport } from './config.ts';
import type { TlmResult } from './types.ts';

/** A1: 2 ticks per byte ↔ 9 bit-cycles per byte, so 1 tick = 4.5 cycles. */
export const CALIBRATED_CYCLES_PER_TICK = 4.5;

/** The workload with its generation times in cycles: round(t · cyclesPerTick), unit 'cycles'. */
export function workloadInCycles(w: Workload, cyclesPerTick = CALIBRATED_CYCLES_PER_TICK): Workload {
  if (w.unit === 'cycles') return w;
  return { ...w, unit: 'cycles', messages: w.messages.map((m) => ({ ...m, t: Math.round(m.t * cyclesPerTick) })) };
}

/** Run the RTL-calibrated TLM (cycles). `overrides` change single fields (negative controls, sweeps). */
export function runTlmCalibrated(
  w: Workload,
  transport: Transport = 'quasi-adaptive',
  overrides: Partial<TlmConfig> = {},
  cyclesPerTick = CALIBRATED_CYCLES_PER_TICK,
  nnBroadcasts: readonly NnBroadcastGroup[] = [],
): TlmResult {
  return runTlm(workloadInCycles(w, cyclesPerTick), { ...TLM_RTL_CALIBRATED, ...overrides, transport }, nnBroadcasts);
}
