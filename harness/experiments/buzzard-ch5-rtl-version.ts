/**
 * The golden runs behind the Buzzard RTL's timing version
 * (rtl/buzzard/timing_version.ts, docs/buzzard-ch5.md#rtl-version): what
 * `--rtl-reuse` trusts to say that a stored RTL result is still what the
 * current RTL gives.
 */
import { createHash } from 'node:crypto';
import type { BuzzardConfig } from '../../rtl/buzzard/config.ts';
import { chapter5Workload } from '../tlm/sweep.ts';
import type { Ch5Pt } from './buzzard-ch5-common.ts';
import { rtlTimes } from './buzzard-ch5-rtl.ts';

/**
 * The runs RTL_TIMING_FINGERPRINT pins (rtl/buzzard/timing_version.ts): small
 * loaded chapter-5 points on a 3-cube, seed 1, covering both routings, both
 * packet sizes, 2 and 13 buffers and both mean lengths. A timing change that
 * shows only at other sizes would slip past them (docs/buzzard-ch5.md#rtl-version).
 */
export const GOLDEN_RUNS: readonly (Pick<Ch5Pt, 'meanBytes' | 'meanGapTicks' | 'transport' | 'packetBytes' | 'buffersPerPbu'> & { readonly messagesPerNode: number })[] = [
  { meanBytes: 512, meanGapTicks: 1024, transport: 'quasi-adaptive', packetBytes: 32, buffersPerPbu: 13, messagesPerNode: 3 },
  { meanBytes: 512, meanGapTicks: 1024, transport: 'fixed-packet', packetBytes: 32, buffersPerPbu: 2, messagesPerNode: 3 },
  { meanBytes: 2048, meanGapTicks: 2048, transport: 'quasi-adaptive', packetBytes: 64, buffersPerPbu: 4, messagesPerNode: 1 },
];

/**
 * Fingerprint of what the RTL does: sha256 (16 hex digits) over every golden
 * run's per-message first and last cycles, delivered count, makespan and
 * link busy cycles. `extra` builds a perturbed RTL (the test's control).
 */
export function rtlTimingFingerprint(extra: Partial<BuzzardConfig> = {}): string {
  const h = createHash('sha256');
  for (const g of GOLDEN_RUNS) {
    const w = chapter5Workload(g.meanBytes, g.meanGapTicks, { messagesPerNode: g.messagesPerNode, seed: 1, cubeDegree: 3 });
    const t = rtlTimes(w, g, extra);
    h.update(JSON.stringify([g, t.delivered, t.makespan, t.linkBusy, t.perMessage.map((m) => [m.first, m.last])]));
  }
  return h.digest('hex').slice(0, 16);
}
