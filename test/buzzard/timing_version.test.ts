/**
 * The Buzzard RTL's timing version (rtl/buzzard/timing_version.ts,
 * docs/buzzard-ch5.md#rtl-version): the golden runs' fingerprint is the one
 * declared beside RTL_TIMING_VERSION, so a change of any cycle in them fails
 * here until the version is bumped (and `--rtl-reuse` stops reusing results
 * of the old version). Controls: the same runs on an RTL one cycle slower in
 * one place (arbitration, instruction start, node-memory access) give
 * another fingerprint.
 */
import { describe, expect, it } from 'vitest';
import { rtlTimingFingerprint } from '../../harness/experiments/buzzard-ch5-rtl-version.ts';
import { RTL_TIMING_FINGERPRINT, RTL_TIMING_VERSION } from '../../rtl/buzzard/timing_version.ts';

describe('RTL timing version', () => {
  it('the golden runs give the fingerprint declared for this RTL_TIMING_VERSION', () => {
    const fp = rtlTimingFingerprint();
    // On failure: the RTL's timing changed. Bump RTL_TIMING_VERSION and set RTL_TIMING_FINGERPRINT to `fp`.
    expect(fp, `RTL timing changed: bump RTL_TIMING_VERSION (now ${RTL_TIMING_VERSION}) and set RTL_TIMING_FINGERPRINT = '${fp}' in rtl/buzzard/timing_version.ts`).toBe(RTL_TIMING_FINGERPRINT);
    expect(rtlTimingFingerprint()).toBe(fp); // deterministic
  }, 120_000);

  it('control: one cycle more in one place gives another fingerprint', () => {
    for (const extra of [{ arbiterLatency: 3 }, { cu: { memoryAccess: 2, instructionStart: 4, queueSearchStep: 1 } }, { cu: { memoryAccess: 1, instructionStart: 5, queueSearchStep: 1 } }]) {
      expect(rtlTimingFingerprint(extra), JSON.stringify(extra)).not.toBe(RTL_TIMING_FINGERPRINT);
    }
  }, 240_000);
});
