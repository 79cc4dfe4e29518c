/**
 * Single-bit faults on a DS-link with NULLs flowing (docs/dslink.md#single-bit-faults).
 *
 * Fault models, injected on the a → b wires for one bit time (DsWireFault):
 *   bit   D and S both inverted: the bit's value is wrong, the encoding stays
 *         valid (exactly one wire still changes)
 *   D, S  one wire inverted: at that bit and the next, D xor S does not
 *         change, so the receiver's bit clock loses both bits (a 2-bit slip)
 * and, in the reference model only, 1-bit slips (a bit lost or an extra bit).
 *
 * Proof of the bound (exhaustive): with only NULLs flowing the bit stream is
 * periodic with period 8 (0111 0100), and the receiver's state at any bit is
 * fixed by the bit's phase, so the 8 phases × each fault model are every
 * case. The reference decoder (tokens.ts decodeBits) runs all of them:
 *   bit   every phase detected (parity, or escape) at the latest at the flag
 *         bit of the token after the one holding the flipped bit: within 1 token;
 *   slip  every phase detected within 1 token: at the latest in the first
 *         token the receiver frames after the one holding the fault (which
 *         may be a misframed 10-bit data token: ≤ 12 bit times);
 *   D, S  detected within 1 token at 6 phases; at phases 1 and 2 (the lost
 *         bits are two of the three 1s of ESC = 0111) the stream reads
 *         0101 = EOP, then a data token 0x2E, then NULLs again, with correct
 *         parity throughout: the DS token layer cannot see it. This is a
 *         property of the protocol, not of this receiver; it is pinned here.
 * The RTL pair is then checked against the model at every phase: it detects
 * exactly where the model does, exactly 3 cycles after the model's detecting
 * bit (deserialiser, decoder, state machine registers), goes to the named error
 * state, delivers no character before detection, and restarts to Run.
 * Negative control: a receiver that skips the parity check (config
 * checkParity: false) lets bit flips through, and the property fails.
 */
import { describe, expect, it } from 'vitest';
import { CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { S_ERR_BASE, S_RUN } from '../../rtl/dslink/link_fsm.ts';
import { LEN_NULL, TOK_NULL, decodeBits, dsDecode, dsEncode, encodeTokens, type Token } from '../../rtl/dslink/tokens.ts';
import { makeBench } from './bench.ts';

type Model = 'bit' | 'D' | 'S';
const MODELS: Model[] = ['bit', 'D', 'S'];
const UNDETECTABLE = { models: ['D', 'S'], phases: [1, 2], chars: [CHAR_EOP, 0x2e] };

const nulls: Token[] = Array.from({ length: 40 }, () => ({ kind: 'null' as const }));
const BITS = encodeTokens(nulls);
const WIRES = dsEncode(BITS);
const T0 = 80; // a NULL's first bit

/** Reference model: the detecting bit (index in the wire-time stream, relative to the fault) or null, and the characters decoded. */
function modelCase(model: Model | 'del1' | 'ins0' | 'ins1', phase: number): { at: number | null; chars: number[]; next: number } {
  const t = T0 + phase;
  let bits: number[];
  let shift = 0; // wire-time offset of received bits after the fault
  if (model === 'bit' || model === 'D' || model === 'S') {
    const d = WIRES.d.slice();
    const s = WIRES.s.slice();
    if (model !== 'S') d[t]! ^= 1;
    if (model !== 'D') s[t]! ^= 1;
    bits = dsDecode(d, s);
    shift = BITS.length - bits.length;
  } else if (model === 'del1') {
    bits = [...BITS.slice(0, t), ...BITS.slice(t + 1)];
    shift = 1;
  } else {
    // the extra bit takes a bit time of its own: received index = wire time
    bits = [...BITS.slice(0, t), model === 'ins0' ? 0 : 1, ...BITS.slice(t)];
  }
  const r = decodeBits(bits);
  const chars = r.tokens.flatMap((x) => (x.kind === 'char' ? [x.ch] : []));
  // tokens the receiver framed after the one holding the fault, up to the detecting bit
  const next = r.error ? r.starts.filter((b) => b > t && b <= r.error!.bit).length : -1;
  return { at: r.error ? r.error.bit + (r.error.bit >= t ? shift : 0) - t : null, chars, next };
}

describe('single-bit faults: reference model (the proof)', () => {
  it('bit flips: every phase detected by the flag bit of the next token (within 1 token)', () => {
    for (let ph = 0; ph < 8; ph++) {
      const m = modelCase('bit', ph);
      expect(m.at, `phase ${ph}`).not.toBeNull();
      // the next token starts at phase 4 (FCT) or 8 (next ESC); its flag bit is one later
      const nextFlag = (ph < 4 ? 4 : 8) + 1 - ph;
      expect(m.at!).toBeLessThanOrEqual(nextFlag);
      expect(m.next).toBeLessThanOrEqual(1);
      expect(m.chars).toEqual([]);
    }
  });
  it('1-bit slips: every phase detected within 1 token (the next one framed, ≤ 12 bit times)', () => {
    for (const model of ['del1', 'ins0', 'ins1'] as const) {
      for (let ph = 0; ph < 8; ph++) {
        const m = modelCase(model, ph);
        expect(m.at, `${model} phase ${ph}`).not.toBeNull();
        expect(m.at!).toBeLessThanOrEqual(12);
        expect(m.next).toBeLessThanOrEqual(1);
      }
    }
  });
  it('one-wire glitches: detected within 1 token except the two ESC phases, which read EOP, D 0x2e', () => {
    for (const model of ['D', 'S'] as const) {
      for (let ph = 0; ph < 8; ph++) {
        const m = modelCase(model, ph);
        if (UNDETECTABLE.phases.includes(ph)) {
          expect(m.at, `${model} phase ${ph}`).toBeNull();
          expect(m.chars).toEqual(UNDETECTABLE.chars);
        } else {
          expect(m.at, `${model} phase ${ph}`).not.toBeNull();
          expect(m.at!).toBeLessThanOrEqual((ph < 4 ? 4 : 8) + 1 - ph + 2);
          expect(m.next).toBeLessThanOrEqual(1);
        }
      }
    }
  });
});

interface RtlResult {
  detectedAt: number | null; // cycles after the fault
  state: number;
  delivered: number[];
  restarted: boolean;
}

function rtlCase(model: Model, phase: number, checkParity = true): RtlResult {
  const { bench, sim } = makeBench({ faults: true, b: { checkParity } });
  const { a, b, ab } = bench.pair;
  sim.runUntil((x) => x.peek(a.running) === 1 && x.peek(b.running) === 1, 5000);
  sim.step(100);
  // align on the first bit of a NULL on the a → b wires
  sim.runUntil((x) => x.peek(a.tokens.tok) === TOK_NULL && x.peek(a.ser.left) === LEN_NULL - 1, 20);
  sim.step(phase);
  if (model !== 'S') sim.poke(ab!.flipD, 1);
  if (model !== 'D') sim.poke(ab!.flipS, 1);
  let detectedAt: number | null = null;
  let state = S_RUN;
  for (let k = 1; k <= 200; k++) {
    sim.step();
    const st = sim.peek(b.linkState);
    if (st >= S_ERR_BASE) {
      detectedAt = k;
      state = st;
      break;
    }
  }
  const delivered = bench.sinkB.got.map((g) => g.ch);
  const restarted = detectedAt !== null && sim.runUntil((x) => x.peek(a.running) === 1 && x.peek(b.running) === 1, 6000).reached;
  return { detectedAt, state, delivered, restarted };
}

/** The property: every fault of `models` at every phase is detected within the bound, with nothing delivered. */
function faultViolations(models: readonly Model[], checkParity: boolean): string[] {
  const bad: string[] = [];
  for (const model of models) {
    for (let ph = 0; ph < 8; ph++) {
      const m = modelCase(model, ph);
      const r = rtlCase(model, ph, checkParity);
      if (m.at === null) {
        // the pinned protocol blind spot: the RTL delivers exactly what the model decodes
        if (r.detectedAt !== null || r.delivered.join() !== m.chars.join()) bad.push(`${model}@${ph}: undetectable case differs: ${JSON.stringify(r)}`);
        continue;
      }
      if (r.detectedAt === null) bad.push(`${model}@${ph}: not detected (delivered ${JSON.stringify(r.delivered)})`);
      else {
        if (r.detectedAt !== m.at + 3) bad.push(`${model}@${ph}: detected after ${r.detectedAt} cycles, model bit +${m.at} (+3 register stages)`);
        if (r.delivered.length) bad.push(`${model}@${ph}: delivered ${JSON.stringify(r.delivered)} before detection`);
        if (!r.restarted) bad.push(`${model}@${ph}: no restart to Run`);
      }
    }
  }
  return bad;
}

describe('single-bit faults: RTL pair with NULLs flowing', () => {
  it('detects every bit flip and every detectable one-wire glitch within the bound, then restarts', () => {
    expect(faultViolations(MODELS, true)).toEqual([]);
  });
  it('names the error state: parity for a flipped parity bit, escape for a flipped FCT code bit', () => {
    expect(rtlCase('bit', 0).state).toBe(S_ERR_BASE + 1); // ErrParity
    expect(rtlCase('bit', 6).state).toBe(S_ERR_BASE + 2); // ErrEscape
  });
  it('negative control: without the parity check, bit flips get through and the property fails', () => {
    const bad = faultViolations(['bit'], false);
    expect(bad.some((x) => /not detected/.test(x))).toBe(true);
  });
});
