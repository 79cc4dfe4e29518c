/**
 * What a person sees of a DS-link (docs/dslink.md#vcd, #events):
 *  - VCD: the D and S wires of each direction, and string twins of the
 *    decoded tokens on both sides (transmitter `tokens.tok_s`, receiver
 *    `dec.tok_s`: "D_0x41", "FCT", "EOP", "EOM", "NULL"; VCD strings have no
 *    spaces) and of the link state ("Run");
 *  - events: link-up when an end reaches Run; link-error with the kind and
 *    the end's lost count, valid against the event vocabulary;
 *  - the one-line status of an end (harness/rtl/dslink_status.ts).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { attachLinkEvents } from '../../harness/rtl/dslink_events.ts';
import { formatLinkStatus, linkStatus } from '../../harness/rtl/dslink_status.ts';
import { CHAR_EOM, CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { validateEvent } from '../../traces/events/vocabulary.ts';
import { readVcd } from '../../traces/vcd/reader.ts';
import { startVcd } from '../../traces/vcd/writer.ts';
import { makeBench } from './bench.ts';

const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'icemu-dslink-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('DS-link in a VCD', () => {
  it('dumps both directions’ wires and the decoded tokens as strings', () => {
    const { bench, sim } = makeBench({ aToB: [0x41, CHAR_EOP, 0x42, CHAR_EOM] });
    const path = nodePath.join(dir, 'link.vcd');
    const vcd = startVcd(sim, path, {
      signals: ['link.*.dOut', 'link.*.sOut', 'link.*.tokens.tok', 'link.*.dec.tok', 'link.*.fsm.state'],
      stateStrings: true,
      date: 'fixed',
    });
    sim.runUntil(() => bench.sinkB.got.length === 4, 5000);
    sim.step(20);
    vcd.close();
    const text = fs.readFileSync(path, 'utf8');
    const names = readVcd(path).names();
    for (const n of ['top.link.a.dOut', 'top.link.a.sOut', 'top.link.b.dOut', 'top.link.b.sOut', 'top.link.b.dec.tok_s', 'top.link.a.tokens.tok_s', 'top.link.a.fsm.state_s']) {
      expect(names).toContain(n);
    }
    for (const v of ['sD_0x41', 'sD_0x42', 'sEOP', 'sEOM', 'sNULL', 'sFCT', 'sRun', 'sConnecting']) expect(text).toContain(v);
  });
});

describe('DS-link events', () => {
  it('link-up at both ends, then link-error (parity at b, silence seen by a) with lost counts, then link-up again', () => {
    const sent = Array.from({ length: 200 }, (_, k) => k & 0xff);
    const { bench, sim } = makeBench({ faults: true, aToB: sent });
    const { a, b, ab } = bench.pair;
    const rec = attachLinkEvents(sim, [
      { end: a, node: 0, port: 1 },
      { end: b, node: 1, port: 1 },
    ]);
    sim.runUntil(() => bench.sinkB.got.length >= 30, 5000);
    sim.runUntil((x) => x.peek(a.tokens.normalOnWire) === 1 && x.peek(a.ser.left) === 4, 100);
    sim.poke(ab!.flipD, 1);
    sim.poke(ab!.flipS, 1);
    sim.step(5000);
    const ev = rec.events;
    for (const e of ev) expect(validateEvent(JSON.parse(JSON.stringify(e)))).toBeNull();
    expect(ev.map((e) => `${e.kind} ${e.unit}`).slice(0, 2).sort()).toEqual(['link-up link.a', 'link-up link.b']);
    const errs = ev.filter((e) => e.kind === 'link-error');
    expect(errs.length).toBe(2);
    const eb = errs.find((e) => e.unit === 'link.b')!;
    const ea = errs.find((e) => e.unit === 'link.a')!;
    expect(eb.error).toBe('parity');
    expect(eb.lost).toBe(1); // the data token held for its parity check
    expect(['disconnect', 'parity']).toContain(ea.error);
    expect(ea.lost).toBe(sim.peek(a.fsm.lastLostTx));
    expect(ea.lost).toBeGreaterThan(0); // a's transmit buffer was flushed
    expect(eb.t).toBeLessThan(ea.t);
    expect(ev.filter((e) => e.kind === 'link-up').length).toBe(4);
    rec.detach();
    const st = linkStatus(sim, b);
    expect(st).toMatchObject({ path: 'link.b', state: 'Run', errors: 1, lastError: 'parity', lostTotal: 1, rxSize: 56 });
    expect(formatLinkStatus(st)).toMatch(/^link\.b {2}Run {2}credit \d+ {2}granted \d+ {2}tx 0\/56 {2}rx \d+\/56 {2}errors 1 \(last parity, lost 1\)$/);
  });
});
