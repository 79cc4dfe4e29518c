/**
 * The Buzzard RTL's timing version: the part of `--rtl-reuse`'s key that
 * says which RTL produced a stored result (harness/experiments/
 * buzzard-ch5-rtl-reuse.ts, docs/buzzard-ch5.md#rtl-version).
 *
 * Declared, not a hash of the sources: most edits of rtl/ (comments, the
 * fast mode's speed work of issue 8, held exact by the fast/reference
 * properties) change no cycle of any result, and stored RTL points cost
 * minutes to hours each. Instead `RTL_TIMING_FINGERPRINT` pins what the RTL
 * does: a hash of every message's first and last cycle in a fixed set of
 * small chapter-5 runs (GOLDEN_RUNS in harness/experiments/buzzard-ch5-rtl-version.ts;
 * quasi-adaptive and fixed, 32- and 64-byte packets, 2 to 13 buffers, loaded),
 * checked by test/buzzard/timing_version.test.ts. A change of any cycle
 * there fails that test; whoever made it bumps RTL_TIMING_VERSION and sets
 * the new fingerprint the test prints, and every stored result of the old
 * version stops being reused.
 */
export const RTL_TIMING_VERSION = 1;

/** sha256 (first 16 hex digits) of the golden runs' message times under RTL_TIMING_VERSION. */
export const RTL_TIMING_FINGERPRINT = 'a603f18c2bac2385';
