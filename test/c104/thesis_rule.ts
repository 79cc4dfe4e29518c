/**
 * The RTL-vs-token-credit-TLM throughput rule of Def. 5.1's closed-loop
 * processes (thesis_processes.test.ts at 4×4, thesis_full.full.test.ts at
 * 16×16). Packets per CPU per ms, measured on the 4×4 (±2, c = 5 µs, 32 B,
 * seed 3, window 200 µs after 75 µs): loosely 90.6 / 90.2, async-blocking
 * 109.4 / 109.3, async 199.1 / 197.1 (≤ 1.0%). Tolerance 3%.
 */
export const THROUGHPUT_TOLERANCE = 0.03;
export function throughputAgrees(rtl: number, tlm: number): boolean {
  return tlm > 0 && Math.abs(rtl - tlm) <= THROUGHPUT_TOLERANCE * tlm;
}
