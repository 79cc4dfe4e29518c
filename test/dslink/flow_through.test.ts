/**
 * Flow-through (docs/dslink.md#flow-through): `flowThrough: true` hands a
 * token on combinationally from the deserialiser and passes a character
 * past an empty buffer on both sides.
 *  - delivery stays exact with gaps, stalls, traffic both ways, with and
 *    without NULLs, in both kernel modes (property), and both modes agree on
 *    every register and wire at every cycle through a fault and a restart;
 *  - the saving: on a saturated stream every character reaches the core
 *    exactly 3 cycles earlier than with on-arrival alone (the deserialiser's
 *    and the decoder's registers and the receive buffer); after a gap, the
 *    first character leaves 1 cycle earlier too (the transmit buffer);
 *  - one ack round trip of a T9000 pair (m = 33): 24 cycles, the thesis's
 *    24 (control: 32 without flow-through);
 *  - a parity error in a character handed on is still detected and reported
 *    as suspect; control: without the parity check it is not;
 *  - config: refused without rxHandover 'on-arrival'.
 */
import { describe, expect, it } from 'vitest';
import { checkDsLinkConfig, type DsLinkConfig, type RunIdle } from '../../rtl/dslink/config.ts';
import { S_ERR_BASE } from '../../rtl/dslink/link_fsm.ts';
import { dsLinks, makeT9000Pair, runUntilLinksUp, T9000_THESIS_LINKS } from '../../harness/rtl/t9000_pair.ts';
import type { DsLinkEnd } from '../../rtl/dslink/end.ts';
import { makeBench } from './bench.ts';
import { assertExactDelivery, assertModesAgree } from './properties.ts';

const FLOW = (runIdle: RunIdle = 'nulls'): Partial<DsLinkConfig> => ({ rxHandover: 'on-arrival', runIdle, flowThrough: true });

describe('DS-link flow-through: delivery', () => {
  it('random characters both ways with gaps and stalls arrive exactly (both kernel modes)', () => assertExactDelivery([FLOW('nulls'), FLOW('silent')], 30));

  it('plain and activity modes agree on every register and wire at every cycle (gaps, a fault, a restart)', () => assertModesAgree([FLOW('nulls'), FLOW('silent')], 6));
});

describe('DS-link flow-through: the saving', () => {
  const arrivals = (b: Partial<DsLinkConfig>, pushA?: boolean[]) => {
    const sent = Array.from({ length: 40 }, (_, k) => (k * 13 + 5) & 0xff);
    const { bench, sim } = makeBench({ a: b, b, aToB: sent, pushA });
    sim.runUntil(() => bench.sinkB.got.length === sent.length, 40_000);
    return bench.sinkB.got.map((g) => g.cycle);
  };

  it('a saturated stream: every character 3 cycles earlier than on-arrival (deserialiser and decoder registers, receive buffer)', () => {
    const reg = arrivals({ rxHandover: 'on-arrival' });
    const flow = arrivals(FLOW());
    expect(flow.map((t, k) => reg[k]! - t)).toEqual(reg.map(() => 3));
  });

  it('characters offered one at a time with silent links: 4 cycles earlier each (the transmit buffer too)', () => {
    // one character every 64 cycles once the link runs (start-up ends near cycle 1950): the link is still between them
    const pushA = Array.from({ length: 20_000 }, (_, c) => c >= 2100 && (c - 2100) % 64 === 0);
    const reg = arrivals({ rxHandover: 'on-arrival', runIdle: 'silent' }, pushA);
    const flow = arrivals(FLOW('silent'), pushA);
    expect(flow.slice(1).map((t, k) => reg[k + 1]! - t)).toEqual(reg.slice(1).map(() => 4));
  });
});

describe('DS-link flow-through: one ack round trip (T9000 pair, m = 33)', () => {
  /**
   * Each message is a 32-byte packet P1 and a 1-byte packet P2 (24 bit times:
   * header 10, data 10, EOM 4). Measured on a's wires: P2's header's first
   * bit → the next message's header's first bit. The thesis's simulator needs
   * 24 (P2's 24 bits = the header's 10 + the ack's 14: the ack's first bit
   * right after the header's last, the next header right after the ack's).
   */
  const trips = (cfg: Partial<DsLinkConfig>) => {
    const pair = makeT9000Pair(2, { sendAreaBytes: 1024, rxSlots: 3 }, { links: dsLinks({ ...T9000_THESIS_LINKS, ...cfg }) });
    const a = pair.a.links[0] as DsLinkEnd;
    const t0 = runUntilLinksUp(pair);
    // first bits of header tokens: the first data token after an end marker (or the first one)
    const headers: number[] = [];
    let afterEnd = true;
    pair.sim.observe({
      onCycle: (x) => {
        if (x.peek(a.tokens.normalOnWire) !== 1 || x.peek(a.ser.left) !== (x.peek(a.tokens.tok) >= 0x100 ? 3 : 9)) return;
        const tok = x.peek(a.tokens.tok);
        if (tok < 0x100 && afterEnd) headers.push(x.cycle);
        afterEnd = tok >= 0x100;
      },
    });
    pair.driver.receiveLoop(1, 0, 12, t0);
    pair.driver.sendLoop(0, 0, 12, t0, () => Array.from({ length: 33 }, (_, j) => j), true, 2);
    pair.sim.runUntil(() => pair.rec.deliveries.length >= 12, 100_000);
    // headers alternate P1, P2, P1', …: P2 → next P1, after the warm-up
    return headers.flatMap((t, i) => (i % 2 === 1 && i > 4 && headers[i + 1] ? [headers[i + 1]! - t] : []));
  };

  it('24 cycles (28 when an FCT goes first): the thesis 24, no register at either turnaround', () => {
    const flow = trips({ runIdle: 'silent', flowThrough: true });
    expect(flow.length).toBeGreaterThan(4);
    expect(Math.min(...flow)).toBe(24);
    expect(flow.every((t) => t === 24 || t === 28)).toBe(true);
    // control: without flow-through, 3 register stages more at each turnaround: 32 (36, 40 with one or two FCTs first)
    const reg = trips({ runIdle: 'silent' });
    expect(Math.min(...reg)).toBe(32);
    expect(reg.every((t) => t === 32 || t === 36 || t === 40)).toBe(true);
  });
});

describe('DS-link flow-through: parity errors', () => {
  /** A streams to b; the value of data bit 5 of the 10th character is flipped on the wires. */
  const flip = (cfg: Partial<DsLinkConfig>) => {
    const sent = Array.from({ length: 60 }, (_, k) => (k * 7 + 3) & 0xff);
    const { bench, sim } = makeBench({ faults: true, a: cfg, b: cfg, aToB: sent });
    const { a, ab } = bench.pair;
    sim.runUntil((x) => x.peek(a.tokens.tok) === sent[9] && x.peek(a.ser.left) === 9, 20_000);
    sim.step(5);
    sim.poke(ab!.flipD, 1);
    sim.poke(ab!.flipS, 1);
    const det = sim.runUntil((x) => x.peek(bench.pair.b.linkState) >= S_ERR_BASE, 200);
    sim.step(100);
    const got = bench.sinkB.got.map((g) => g.ch);
    return { detected: det.reached, corrupted: got.filter((c, k) => c !== sent[k]).length > 0, suspect: sim.peek(bench.pair.b.dec.suspectTotal) };
  };
  it('a flipped data bit is detected at the next token and the character handed on is reported as suspect', () => {
    expect(flip(FLOW())).toEqual({ detected: true, corrupted: true, suspect: 1 });
  });
  it('negative control: without the parity check the corrupted character goes through unreported', () => {
    expect(flip({ ...FLOW(), checkParity: false })).toEqual({ detected: false, corrupted: true, suspect: 0 });
  });
});

describe('DS-link flow-through: config', () => {
  it("needs rxHandover 'on-arrival'; off by default", () => {
    expect(() => checkDsLinkConfig({ flowThrough: true })).toThrow(/on-arrival/);
    expect(checkDsLinkConfig({}).flowThrough).toBe(false);
    expect(checkDsLinkConfig(FLOW()).flowThrough).toBe(true);
  });
});
