/**
 * Serial lines and timed wake-ups (rtl/kernel/serial_line.ts, docs/kernel.md
 * "Serial lines"): the primitive on its own, then a DS-link-style token link
 * on a serial line held bit for bit against a bit-by-bit reference.
 */
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataStrobeLine, Module, SerialLine, SimError, Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { startVcd } from '../../traces/vcd/index.ts';
import { fastLink, referenceLink, token, type LinkIo } from './serial_line_link.ts';

const dir = mkdtempSync(join(tmpdir(), 'icemu-serial-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SerialLine', () => {
  it('carries posted words and levels bit by bit, msb or lsb first, idle before and after', () => {
    const l = new SerialLine('l', 0);
    expect(l.send(3, 0b1011, 4)).toBe(7);
    l.level(7, 1);
    l.send(10, 0b0011, 4, 'lsb-first');
    const bits = Array.from({ length: 16 }, (_, c) => l.bitAt(c));
    expect(bits.join('')).toBe('000' + '1011' + '111' + '1100' + '00');
    expect(l.bits(3, 4)).toBe(0b1011);
    expect(l.bits(10, 4, 'lsb-first')).toBe(0b0011);
    expect(l.endOfPosts).toBe(14);
  });

  it('bits() reads whole run slices and equals the bit-by-bit loop (random posts, cut runs, levels, idle gaps)', () => {
    const post = fc.record({ gap: fc.integer({ min: 0, max: 12 }), nbits: fc.integer({ min: 1, max: 32 }), word: fc.double({ min: 0, max: 1, noNaN: true }), kind: fc.constantFrom('msb', 'lsb', 'level0', 'level1') });
    const build = (posts: { gap: number; nbits: number; word: number; kind: string }[], idle: 0 | 1): SerialLine => {
      const l = new SerialLine('l', idle);
      let c = 0;
      for (const p of posts) {
        c += p.gap;
        if (p.kind === 'level0' || p.kind === 'level1') l.level(c, p.kind === 'level1' ? 1 : 0);
        else l.send(c, Math.floor(p.word * 2 ** p.nbits) % 2 ** p.nbits, p.nbits, p.kind === 'msb' ? 'msb-first' : 'lsb-first');
      }
      return l;
    };
    const loop = (l: SerialLine, from: number, n: number): number => {
      let v = 0;
      for (let k = 0; k < n; k++) v = v * 2 + l.bitAt(from + k);
      return v;
    };
    type Read = (l: SerialLine, from: number, to: number) => number;
    const agrees = (read: Read, posts: fc.Arbitrary<{ gap: number; nbits: number; word: number; kind: string }[]>) =>
      fc.property(posts, fc.constantFrom<0 | 1>(0, 1), fc.integer({ min: 0, max: 150 }), fc.integer({ min: 1, max: 32 }), (ps, idle, from, n) => {
        const l = build(ps, idle);
        return read(l, from, from + n) === loop(l, from, n);
      });
    const any = fc.array(post, { minLength: 1, maxLength: 12 });
    fc.assert(agrees((l, from, to) => l.bitsMsb(from, to), any), { numRuns: 500 });
    fc.assert(agrees((l, from, to) => l.bits(from, to - from), any), { numRuns: 500 });
    // Negative control: a real slice reader that forgets a later post cuts a word short (it reads every msb-first
    // word to its full length). It agrees while no post cuts another (gaps of 32 or more) and the property
    // above catches it as soon as posts overlap.
    const ignoresCut: Read = (l, from, to) => {
      let v = 0;
      for (let c = from; c < to; ) {
        const w = l.wordAt(c);
        if (!w) {
          v = v * 2 + l.bitAt(c++);
          continue;
        }
        const e = Math.min(to, w.start + w.nbits);
        v = v * 2 ** (e - c) + (Math.floor(w.word / 2 ** (w.start + w.nbits - e)) % 2 ** (e - c));
        c = e;
      }
      return v;
    };
    const msbOnly = (minGap: number) => fc.array(fc.record({ gap: fc.integer({ min: minGap, max: minGap + 12 }), nbits: fc.integer({ min: 1, max: 32 }), word: fc.double({ min: 0, max: 1, noNaN: true }), kind: fc.constant('msb') }), { minLength: 1, maxLength: 12 });
    fc.assert(agrees(ignoresCut, msbOnly(32)), { numRuns: 200 });
    expect(fc.check(agrees(ignoresCut, msbOnly(0)), { numRuns: 500 }).failed).toBe(true);
  });

  it('a later post cuts the previous run short; same-cycle posts replace; history can be forgotten', () => {
    const l = new SerialLine('l', 0);
    l.send(0, 0xff, 8);
    l.send(4, 0, 2); // an aborted word
    l.level(6, 1);
    l.level(6, 0); // replaces the level posted for the same cycle
    expect(Array.from({ length: 9 }, (_, c) => l.bitAt(c)).join('')).toBe('111100000');
    l.forget(6);
    expect(() => l.bitAt(2)).toThrow(/forgotten/);
    expect(l.bitAt(7)).toBe(0);
  });

  it('rejects posts out of time order, bad widths and words that do not fit', () => {
    const l = new SerialLine('l', 0);
    l.send(5, 1, 1);
    expect(() => l.send(4, 1, 1)).toThrow(SimError);
    expect(() => l.send(9, 1, 33)).toThrow(/nbits 33/);
    expect(() => l.send(9, 4, 2)).toThrow(/does not fit/);
  });

  it('property: on a data/strobe line exactly one of the two wires changes every cycle while encoding', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 32 }), fc.nat()), { minLength: 1, maxLength: 20 }), fc.nat(5), (posts, c0) => {
        const l = new DataStrobeLine('ds', 0);
        l.encodeFrom(c0);
        let t = c0;
        for (const [n, w] of posts) t = l.send(t, w % 2 ** n, n);
        for (let c = c0; c < t; c++) {
          const before = c === c0 ? [0, 0] : [l.bitAt(c - 1), l.strobeAt(c - 1)];
          const changed = Number(before[0] !== l.bitAt(c)) + Number(before[1] !== l.strobeAt(c));
          expect(changed).toBe(1);
        }
      }),
    );
  });
});

interface Run {
  sim: Simulator;
  io: LinkIo;
  vcd: string;
}

/** Build a link (reference or fast), run it with pokes of rx.ready, record the observables per cycle. */
function runLink(kind: 'reference' | 'fast', mode: SimMode, bytes: number[], pokes: [number, number][], cycles: number, tag: string, skew = 0): { trace: string[]; run: Run } {
  const top = new Module(null, 'top');
  const io = kind === 'reference' ? referenceLink(top, bytes) : fastLink(top, bytes, skew);
  const sim = new Simulator(top, { mode });
  io.start(sim);
  const vcd = join(dir, `${tag}-${kind}-${mode}.vcd`);
  const w = startVcd(sim, vcd, { signals: ['link.tx.line', 'link.tx.strobe', 'link.tx.sent', 'link.rx.token', 'link.rx.isCtrl', 'link.rx.tokens', 'link.rx.ready'], date: '2026-01-01T00:00:00Z', handleExit: false });
  for (const [c, v] of pokes) sim.schedule(c, () => sim.poke(io.rx.ready, v));
  const sigs = [io.tx.line, io.tx.strobe, io.tx.sent, io.rx.token, io.rx.isCtrl, io.rx.tokens, io.rx.ready];
  const trace: string[] = [];
  for (let c = 0; c <= cycles; c++) {
    if (c > 0) sim.step(1);
    trace.push(sigs.map((x) => sim.peek(x)).join(' '));
  }
  w.close();
  return { trace, run: { sim, io, vcd } };
}

const workload = fc.record({
  bytes: fc.array(fc.nat(255), { minLength: 1, maxLength: 30 }),
  pokes: fc.array(fc.tuple(fc.integer({ min: 1, max: 300 }), fc.nat(1)), { maxLength: 8 }),
});

describe('a DS-link-style token link on a serial line = the bit-by-bit link', () => {
  const cycles = 360;
  it('property: line, strobe, tokens and flow control agree at every cycle, in both kernel modes, and the VCDs are byte-identical', () => {
    let k = 0;
    fc.assert(
      fc.property(workload, ({ bytes, pokes }) => {
        const tag = `p${k++}`;
        const ref = runLink('reference', 'plain', bytes, pokes, cycles, tag);
        for (const mode of ['activity', 'plain'] as const) {
          const fast = runLink('fast', mode, bytes, pokes, cycles, tag);
          fast.trace.forEach((row, c) => expect(row, `cycle ${c} (${mode})`).toBe(ref.trace[c]));
          expect(readFileSync(fast.run.vcd, "utf8")).toBe(readFileSync(ref.run.vcd, "utf8"));
        }
      }),
      { numRuns: 25 },
    );
  });

  it('the fast link evaluates per token, not per bit', () => {
    const bytes = Array.from({ length: 20 }, (_, i) => i * 7);
    const ref = runLink('reference', 'activity', bytes, [], 300, 'work');
    const fast = runLink('fast', 'activity', bytes, [], 300, 'work');
    expect(fast.trace).toEqual(ref.trace);
    // reference: both ends every cycle; fast: about two wake-ups per token and end
    expect(ref.run.sim.evaluations).toBeGreaterThanOrEqual(2 * 300);
    expect(fast.run.sim.evaluations).toBeLessThan(ref.run.sim.evaluations / 3);
  });

  it('snapshots carry the line: restore and replay give the same bits', () => {
    const bytes = [1, 2, 3, 250, 251];
    const { run } = runLink('fast', 'activity', bytes, [], 40, 'snap');
    const snap = run.sim.save();
    const after = (): string[] => Array.from({ length: 60 }, () => (run.sim.step(1), `${run.sim.peek(run.io.tx.line)}${run.sim.peek(run.io.tx.strobe)} ${run.sim.peek(run.io.rx.token)}`));
    const a = after();
    run.sim.restore(snap);
    expect(after()).toEqual(a);
  });

  it('negative control: the fast link posting every token one cycle late is caught', () => {
    const bytes = [0x55, 0xaa, 0x0f];
    const ref = runLink('reference', 'plain', bytes, [], 80, 'neg');
    const late = runLink('fast', 'activity', bytes, [], 80, 'neg', 1);
    const first = late.trace.findIndex((row, c) => row !== ref.trace[c]);
    expect(first).toBe(1); // the first token's first bit
  });

  it('tokens are what the DS-link framing says: 10-bit data, 4-bit control, lsb first', () => {
    expect(token(0x81)[1]).toBe(10);
    expect((token(0x81)[0] >>> 2) & 0xff).toBe(0x81);
    expect(token(undefined)[1]).toBe(4);
    expect((token(undefined)[0] >>> 1) & 1).toBe(1);
  });
});
