/**
 * Link state machine (docs/dslink.md#link-state-machine, #errors):
 *  - start-up reaches Run at both ends whatever the start order and delay
 *    (linkStart driven per end, AutoStart on or off);
 *  - a disconnect (cut wire) and a parity error (flipped bit) in Run each put
 *    the end into its named error state, raise its error count, and the link
 *    restarts cleanly (the far end sees the silence as a disconnect, or as a
 *    parity error when the wires' drop to 0 makes one last bit): Run again at both ends, fresh credit, and characters
 *    pushed after the restart arrive intact and in order;
 *  - what is lost is a contiguous gap of the stream (no corruption,
 *    duplication or reordering around it); the ends count what they held
 *    (flushed transmit buffer, partly sent token, token held for its parity
 *    check) and the only characters neither end can count are those the
 *    sender sent after the far end had gone silent and before it saw the
 *    disconnect: at most ⌈(disconnect + 3 cycles) / 10⌉ + 1 data characters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINK_STATES, S_ERR_BASE } from '../../rtl/dslink/link_fsm.ts';
import { LEN_DATA } from '../../rtl/dslink/tokens.ts';
import { makeBench } from './bench.ts';

const bothRun = (x: { peek: (s: never) => number }, a: unknown, b: unknown): boolean =>
  x.peek((a as { running: never }).running) === 1 && x.peek((b as { running: never }).running) === 1;

describe('DS-link start-up', () => {
  it('reaches Run at both ends whatever the start order and delay', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 12000 }),
        fc.integer({ min: 0, max: 12000 }),
        fc.boolean(),
        fc.boolean(),
        (startA, startB, autoA, autoB) => {
          const { bench, sim } = makeBench({ startA, startB, a: { autoStart: autoA }, b: { autoStart: autoB } });
          const { a, b } = bench.pair;
          const late = Math.max(startA, startB);
          const early = Math.min(startA, startB);
          // Not before the later start (unless that end auto-starts on NULLs)
          const r = sim.runUntil((x) => bothRun(x, a, b), 20000);
          expect(r.reached).toBe(true);
          if (!(autoA || autoB)) expect(r.cycles).toBeGreaterThanOrEqual(Math.max(late, 1920));
          // At most one retry round (ErrorReset + ErrorWait + Started timeout) after the later start.
          expect(r.cycles).toBeLessThanOrEqual(Math.max(late, early, 1920) + 640 + 1280 + 1280 + 100);
        },
      ),
      { numRuns: 20 },
    );
  });
});

function streamBench(kind: 'disconnect' | 'parity') {
  const sent = Array.from({ length: 400 }, (_, k) => (k * 7 + 3) & 0xff);
  const { bench, sim } = makeBench({ faults: true, aToB: sent, popB: [true, false, true] });
  const { a, b, ab } = bench.pair;
  sim.runUntil((x) => bothRun(x, a, b), 5000);
  sim.runUntil(() => bench.sinkB.got.length >= 60, 5000);
  // inject in the middle of a data token on the a → b wires
  sim.runUntil((x) => x.peek(a.tokens.normalOnWire) === 1 && x.peek(a.ser.left) === 4, 100);
  if (kind === 'disconnect') sim.poke(ab!.cut, 1);
  else sim.poke(ab!.flipD, 1), sim.poke(ab!.flipS, 1); // a data bit's value inverted
  const states = new Set<string>();
  sim.observe({ onCycle: (x) => void states.add(`${LINK_STATES[x.peek(a.linkState)]}/${LINK_STATES[x.peek(b.linkState)]}`) });
  const errB = sim.runUntil((x) => x.peek(b.linkState) >= S_ERR_BASE, 200);
  const errState = LINK_STATES[sim.peek(b.linkState)];
  const lostB = () => sim.peek(b.fsm.lastLostTx) + sim.peek(b.fsm.lastLostRx);
  sim.runUntil((x) => x.peek(a.linkState) >= S_ERR_BASE, 400);
  const errStateA = LINK_STATES[sim.peek(a.linkState)];
  if (kind === 'disconnect') sim.poke(ab!.cut, 0);
  sim.step(2);
  const counted = sim.peek(a.fsm.lastLostTx) + sim.peek(a.fsm.lastLostRx) + lostB();
  const restart = sim.runUntil((x) => bothRun(x, a, b), 10000);
  const creditAfter = sim.peek(a.txCredit);
  // until the source has pushed everything and both buffers are empty again
  sim.runUntil((x) => x.peek(bench.srcA.idx) === sent.length && x.peek(a.txBuf.count) === 0 && x.peek(b.rxBuf.count) === 0, 30000);
  sim.step(100);
  return { bench, sim, sent, errB, errState, errStateA, counted, restart, creditAfter, states };
}

describe('DS-link errors and restart', () => {
  for (const kind of ['disconnect', 'parity'] as const) {
    it(`a ${kind} in Run: named error state, event count, clean restart, a counted gap`, () => {
      const r = streamBench(kind);
      const { a, b } = r.bench.pair;
      expect(r.errB.reached).toBe(true);
      expect(r.errState).toBe(kind === 'disconnect' ? 'ErrDisconnect' : 'ErrParity');
      // a sees b go silent: a disconnect, or a parity error when b's wires
      // dropping to 0 make one last clock edge that completes a token's flag bit
      expect(['ErrDisconnect', 'ErrParity']).toContain(r.errStateA);
      expect(r.sim.peek(b.errCount)).toBe(1);
      expect(r.sim.peek(a.errCount)).toBe(1);
      expect(r.restart.reached).toBe(true);
      expect(r.creditAfter).toBeLessThanOrEqual(56);
      for (const st of ['ErrorReset/ErrorReset', 'Run/Run']) expect([...r.states]).toContain(st);
      const got = r.bench.sinkB.got.map((g) => g.ch);
      // a gap: a prefix of the stream, then a suffix
      let k = 0;
      while (k < got.length && got[k] === r.sent[k]) k++;
      const rest = got.slice(k);
      expect(rest).toEqual(r.sent.slice(r.sent.length - rest.length));
      const gap = r.sent.length - got.length;
      expect(gap).toBeGreaterThan(0);
      expect(gap).toBeGreaterThanOrEqual(r.counted);
      const uncountable = Math.ceil((85 + 3) / LEN_DATA) + 1;
      expect(gap - r.counted).toBeLessThanOrEqual(uncountable);
      expect(r.sim.peek(a.errCount) + r.sim.peek(b.errCount)).toBe(2); // no further errors after the restart
    });
  }
});

describe('DS-link credit errors', () => {
  it('a sender that overruns its credit: the receiver goes to ErrCredit and counts the dropped character', () => {
    const sent = Array.from({ length: 100 }, (_, k) => k);
    const { bench, sim } = makeBench({ a: { ignoreCredit: true, creditCap: 16 }, b: { rxBufferTokens: 16, creditCap: 16 }, aToB: sent, popB: [false] });
    const { b } = bench.pair;
    const r = sim.runUntil((x) => x.peek(b.linkState) >= S_ERR_BASE, 5000);
    expect(r.reached).toBe(true);
    expect(LINK_STATES[sim.peek(b.linkState)]).toBe('ErrCredit');
    sim.step();
    expect(sim.peek(b.fsm.lastLostRx)).toBeGreaterThanOrEqual(1);
    expect(sim.peek(b.rxBuf.count)).toBe(16); // full, never over
  });

  it('more credit than the cap (a receiver granting 56 to a sender capped at 8): the sender goes to ErrCredit', () => {
    const { bench, sim } = makeBench({ a: { creditCap: 8 } });
    const { a } = bench.pair;
    const r = sim.runUntil((x) => x.peek(a.linkState) >= S_ERR_BASE, 5000);
    expect(r.reached).toBe(true);
    expect(LINK_STATES[sim.peek(a.linkState)]).toBe('ErrCredit');
  });
});

describe('DS-link config', () => {
  it('rejects a bad field with one error naming it and the allowed range', async () => {
    const { checkDsLinkConfig } = await import('../../rtl/dslink/config.ts');
    expect(() => checkDsLinkConfig({ creditCap: 60 })).toThrow(/^dslink\.creditCap: 60 is not a multiple of 8 in 8\.\.1024$/);
    expect(() => checkDsLinkConfig({ rxBufferTokens: 7 })).toThrow(/^dslink\.rxBufferTokens: 7 is outside 8\.\.4096$/);
    expect(() => checkDsLinkConfig({ bitRateMbps: 0 })).toThrow(/^dslink\.bitRateMbps: 0 is outside 1\.\.1000$/);
    expect(() => checkDsLinkConfig({ linkStart: 'never' as never })).toThrow(/^dslink\.linkStart: 'never' is not 'always' or 'port'$/);
    expect(() => checkDsLinkConfig({ disconnectNs: 30 })).toThrow(/^dslink\.disconnectNs: 30 ns is under 4 bit times/);
    expect(() => checkDsLinkConfig({ buffer: 3 } as never)).toThrow(/^dslink\.buffer: unknown field/);
    const c = checkDsLinkConfig({ bitRateMbps: 200 });
    expect(c.resetNs).toBe(6400);
  });
});
