/**
 * The token-level interface between the receive deserialiser (bits) and the
 * receive decoder (tokens): the seam where a kernel serial line can replace
 * the bit-by-bit deserialiser (docs/dslink.md#reference-mode). One-cycle
 * pulses, registers on the deserialiser side:
 *   hdrV, hdrP, hdrF     a token's parity and flag bits have arrived (the
 *                        parity check point of the previous token)
 *   tokV, tokCtl, tokPay[8]  a token has ended: its flag and its data byte or
 *                        control code (c0 + 2·c1)
 *   syncV                the first NULL was recognised
 */
import type { Signal } from '../kernel/module.ts';

export interface RxTokenLink {
  hdrV: Signal;
  hdrP: Signal;
  hdrF: Signal;
  tokV: Signal;
  tokCtl: Signal;
  tokPay: Signal;
  syncV: Signal;
}

export const RX_TOKEN_PORTS: readonly (readonly [keyof RxTokenLink, number])[] = [
  ['hdrV', 1],
  ['hdrP', 1],
  ['hdrF', 1],
  ['tokV', 1],
  ['tokCtl', 1],
  ['tokPay', 8],
  ['syncV', 1],
];

/** Declare the interface's signals with `make` (registers on one side, inputs on the other). */
export function declareRxTokenLink(make: (name: string, width: number) => Signal): RxTokenLink {
  const o: Partial<RxTokenLink> = {};
  for (const [n, w] of RX_TOKEN_PORTS) o[n] = make(n, w);
  return o as RxTokenLink;
}
