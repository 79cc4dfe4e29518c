/**
 * The DS-link token layer as plain functions: control codes, parity, the bit
 * pattern of a token in transmission order, and the names a person reads.
 * Shared by the transmitter and receiver units and by the tests' reference
 * model. Readings: docs/dslink.md#tokens, docs/dslink.md#parity (spec §16
 * V2, V3).
 *
 * A token's bits are held LSB = first bit on the wire:
 *   bit 0      parity P
 *   bit 1      flag F (0 data, 1 control)
 *   bits 2..9  data byte, LSB first (data token, 10 bits)
 *   bits 2..3  control code c0 c1 (control token, 4 bits)
 * Control codes, as the value c0 + 2·c1 of the two control bits:
 *   FCT P100 → 0, EOM P110 → 1, EOP P101 → 2, ESC P111 → 3.
 * NULL = ESC then FCT, sent as one 8-bit pattern.
 */
import { CHAR_EOM, CHAR_EOP } from './chars.ts';

export const CTL_FCT = 0;
export const CTL_EOM = 1;
export const CTL_EOP = 2;
export const CTL_ESC = 3;

/**
 * Decoded-token codes for display registers (VCD string twins, REPL):
 * 0..0xff data, then the control tokens. The normal characters keep their
 * core encoding (chars.ts), so a received character and its token code agree.
 */
export const TOK_EOP = CHAR_EOP; // 0x100
export const TOK_EOM = CHAR_EOM; // 0x101
export const TOK_FCT = 0x102;
export const TOK_NULL = 0x103;
export const TOK_ESC = 0x104;
/** Nothing (idle wire, or nothing decoded yet). */
export const TOK_NONE = 0x105;
export const TOK_BITS = 9;

/** Names of the token codes, for `options.enum` (VCD turns the space into '_'). */
export const TOKEN_NAMES: readonly string[] = [
  ...Array.from({ length: 256 }, (_, b) => `D 0x${b.toString(16).padStart(2, '0')}`),
  'EOP',
  'EOM',
  'FCT',
  'NULL',
  'ESC',
  '-',
];

/** Parity (0/1) of the set bits of v. */
export function parity(v: number): number {
  let p = 0;
  let x = v >>> 0;
  while (x) {
    p ^= 1;
    x &= x - 1;
  }
  return p;
}

/** Control code → token code. */
export function ctlToken(c: number): number {
  return c === CTL_FCT ? TOK_FCT : c === CTL_EOM ? TOK_EOM : c === CTL_EOP ? TOK_EOP : TOK_ESC;
}

/** Normal character (chars.ts) → control code (EOP/EOM) or -1 for a data byte. */
export function charCtl(ch: number): number {
  return ch === CHAR_EOP ? CTL_EOP : ch === CHAR_EOM ? CTL_EOM : -1;
}

/**
 * Bits of a data or control token in transmission order (bit 0 first),
 * given the parity of the previous token's data/control bits (`prevPar`):
 * odd parity over those bits plus this token's P and F (docs/dslink.md#parity).
 */
export function tokenBits(flag: 0 | 1, payload: number, prevPar: number): number {
  const p = 1 ^ prevPar ^ flag;
  return p | (flag << 1) | (payload << 2);
}

/** Bit length of a data token, a control token, a NULL. */
export const LEN_DATA = 10;
export const LEN_CTL = 4;
export const LEN_NULL = 8;

/** A NULL's 8 bits (ESC then FCT) after a token whose data/control bits have parity prevPar; it leaves parity 0 (FCT's bits are 00). */
export function nullBits(prevPar: number): number {
  const esc = tokenBits(1, CTL_ESC, prevPar); // 4 bits
  const fct = tokenBits(1, CTL_FCT, parity(CTL_ESC)); // P = 0
  return esc | (fct << 4);
}

/** The 7 bits of a NULL after its first (ESC parity) bit, in transmission order: 1 1 1 0 1 0 0. */
export const NULL_SYNC_BITS = nullBits(0) >>> 1; // 0b0010111
export const NULL_SYNC_MASK = 0x7f;

// ------------------------------------------------------------ reference model

/** One token of a stream as the tests describe it. */
export type Token = { kind: 'char'; ch: number } | { kind: 'fct' } | { kind: 'null' };

/** Reference encoder: a token stream → bits (0/1 array), starting from previous-token parity 0. */
export function encodeTokens(tokens: readonly Token[]): number[] {
  const out: number[] = [];
  let prevPar = 0;
  const push = (v: number, n: number): void => {
    for (let k = 0; k < n; k++) out.push((v >>> k) & 1);
  };
  for (const t of tokens) {
    if (t.kind === 'null') {
      push(nullBits(prevPar), LEN_NULL);
      prevPar = 0;
    } else if (t.kind === 'fct') {
      push(tokenBits(1, CTL_FCT, prevPar), LEN_CTL);
      prevPar = 0;
    } else {
      const c = charCtl(t.ch);
      if (c < 0) {
        push(tokenBits(0, t.ch, prevPar), LEN_DATA);
        prevPar = parity(t.ch);
      } else {
        push(tokenBits(1, c, prevPar), LEN_CTL);
        prevPar = parity(c);
      }
    }
  }
  return out;
}

/** Data/Strobe encoding of a bit sequence from wires D = S = 0: exactly one wire changes per bit (spec §16 V1). */
export function dsEncode(bits: readonly number[]): { d: number[]; s: number[] } {
  const d: number[] = [];
  const s: number[] = [];
  let pd = 0;
  let ps = 0;
  for (const b of bits) {
    const ns = b === pd ? ps ^ 1 : ps;
    d.push(b);
    s.push(ns);
    pd = b;
    ps = ns;
  }
  return { d, s };
}

/** Bits carried by D/S wire samples that start from D = S = 0: a bit wherever D xor S changes (spec §16 V1), its value D. */
export function dsDecode(d: readonly number[], s: readonly number[]): number[] {
  const out: number[] = [];
  let x = 0;
  for (let k = 0; k < d.length; k++) {
    const y = d[k]! ^ s[k]!;
    if (y !== x) out.push(d[k]!);
    x = y;
  }
  return out;
}

/** What the reference decoder found: tokens in order, and the first error (bit index where it was detected). */
export interface DecodeResult {
  tokens: Token[];
  error: { kind: 'parity' | 'escape'; bit: number } | null;
  /** Bit index at which the first NULL was recognised (-1: never). */
  syncBit: number;
  /** Bit index of the first bit of every token framed after synchronisation. */
  starts: number[];
}

/**
 * Reference decoder of a bit sequence (docs/dslink.md#synchronisation,
 * #parity, #errors): hunts for the first NULL, then frames tokens, checks
 * parity at each token's flag bit and ESC pairing; stops at the first error.
 * A token is reported once the next token's parity check has passed, like
 * the RTL receiver's checked delivery (tokens the bits end inside, or whose
 * check never came, are not reported).
 */
export function decodeBits(bits: readonly number[]): DecodeResult {
  const tokens: Token[] = [];
  let k = 0;
  let hist = 0;
  let syncBit = -1;
  for (; k < bits.length; k++) {
    hist = (hist >>> 1) | (bits[k]! << 6);
    if ((hist & NULL_SYNC_MASK) === NULL_SYNC_BITS) {
      syncBit = k;
      k++;
      break;
    }
  }
  const starts: number[] = [];
  if (syncBit < 0) return { tokens, error: null, syncBit, starts };
  let pending: Token | null = { kind: 'null' };
  let prevPar = 0;
  let esc = false;
  while (k + 1 < bits.length) {
    starts.push(k);
    const p = bits[k]!;
    const f = bits[k + 1]!;
    if ((prevPar ^ p ^ f) !== 1) return { tokens, error: { kind: 'parity', bit: k + 1 }, syncBit, starts };
    if (pending) tokens.push(pending);
    pending = null;
    const len = f ? LEN_CTL : LEN_DATA;
    if (k + len > bits.length) break;
    let pay = 0;
    for (let j = 2; j < len; j++) pay |= bits[k + j]! << (j - 2);
    const end = k + len - 1;
    k += len;
    prevPar = parity(pay);
    if (f) {
      if (esc) {
        if (pay !== CTL_FCT) return { tokens, error: { kind: 'escape', bit: end }, syncBit, starts };
        pending = { kind: 'null' };
        esc = false;
      } else if (pay === CTL_ESC) esc = true;
      else if (pay === CTL_FCT) pending = { kind: 'fct' };
      else pending = { kind: 'char', ch: ctlToken(pay) };
    } else {
      if (esc) return { tokens, error: { kind: 'escape', bit: end }, syncBit, starts };
      pending = { kind: 'char', ch: pay };
    }
  }
  return { tokens, error: null, syncBit, starts };
}
