/**
 * Zero-load closed forms of the Buzzard TLM, written out independently of
 * harness/tlm for the tests (times from queueing, ticks).
 *
 * Symbols: M message bytes, d hops, P data bytes per packet, H header bytes,
 * τ ticks per byte, a arbitration ticks. One hop's head latency is the header
 * arriving plus one arbitration: h = H·τ + a.
 *
 * Packet (fixed or quasi-adaptive; B ≥ 2 buffers so packets of one message
 * pipeline without waiting for a buffer):
 *   K = max(1, ⌈M/P⌉) packets, w_k = H + min(P, M − (k−1)·P) bytes on the wire
 *   s_1 = a,  s_{k+1} = s_k + w_k·τ + a         (the slot re-arbitrates for every packet)
 *   first = s_1 + d·h + w_1·τ                   (d PBUs, the last one hands it to the node input port)
 *   last  = s_K + d·h + w_K·τ
 *
 * Wormhole (one worm of H + M bytes):
 *   g = a + d·h                                  (grant of the node input port)
 *   first = g + (H + min(P, M))·τ
 *   last  = g + (H + M)·τ
 */
export interface TimingParams {
  readonly ticksPerByte: number;
  readonly arbitrationTicks: number;
  readonly headerBytes: number;
  readonly packetBytes: number;
}

export const CH5: TimingParams = { ticksPerByte: 2, arbitrationTicks: 4, headerBytes: 4, packetBytes: 32 };

export function packetZeroLoad(p: TimingParams, M: number, d: number): { first: number; last: number; packets: number; slotTicks: number } {
  const { ticksPerByte: tau, arbitrationTicks: a, headerBytes: H, packetBytes: P } = p;
  const K = Math.max(1, Math.ceil(M / P));
  const wire = (k: number): number => H + Math.min(P, M - (k - 1) * P);
  const h = H * tau + a;
  let s = a;
  for (let k = 1; k < K; k++) s += wire(k) * tau + a;
  // Ticks from queueing until the slot has sent the last byte (for messages queued behind this one).
  const slotTicks = s + wire(K) * tau;
  return { first: a + d * h + wire(1) * tau, last: s + d * h + wire(K) * tau, packets: K, slotTicks };
}

export function wormholeZeroLoad(p: TimingParams, M: number, d: number): { first: number; last: number } {
  const { ticksPerByte: tau, arbitrationTicks: a, headerBytes: H, packetBytes: P } = p;
  const g = a + d * (H * tau + a);
  return { first: g + (H + Math.min(P, M)) * tau, last: g + (H + M) * tau };
}

export function popcount(x: number): number {
  let c = 0;
  for (; x; x &= x - 1) c++;
  return c;
}
