/**
 * The §4.4 transport simulator (harness/tlm/ch4.ts) against closed forms
 * written out here (1 tick per byte, 1 tick set-up, 40 ticks buffer
 * allocation), d hops, M bytes, alone in the cube:
 *   datagram     d·(40 + 1 + M)
 *   cut-through  d·1 + 40 + M   (one staged connection, the receive buffer allocated at its end)
 *   circuit      d·1 + 40 + M   (the receive buffer allocated when the circuit is up)
 * and, with the earlier readings (cutThrough 'buffer-at-block', destinationBuffer
 * false) as negative control, d + M for both; a blocked cut-through
 * connection ends with a buffer at the blocking node (= a datagram hop);
 * adaptive routing waits on the e-cube link only ('ecube') or on all
 * profitable links ('all'); plus: unidirectional links serialise two messages crossing one link in
 * opposite directions, bidirectional ones do not; the oldest waiting
 * message gets a freed link; every message is delivered under flooded load
 * for all 12 configurations.
 */
import { describe, expect, it } from 'vitest';
import { runCh4, type Ch4Transport } from '../../harness/tlm/ch4.ts';
import { buzzardCh4Workload, CH4_FIGURES } from '../../harness/workloads/buzzard.ts';
import { finalizeMessages, type DraftMessage, type Workload } from '../../harness/workloads/types.ts';

const wl = (drafts: DraftMessage[], n = 4): Workload => ({ name: 't', seed: null, params: {}, unit: 'ticks', cubeDegree: n, messages: finalizeMessages(drafts) });
const msg = (t: number, src: number, dst: number, bytes: number): DraftMessage => ({ t, src, dst, bytes, kind: 'unicast' });

describe('§4.4 simulator at zero load', () => {
  it('datagram d·(41 + M), cut-through and circuit d + 40 + M, for every routing and link model', () => {
    for (const M of [1, 16, 100, 8192]) {
      for (let d = 1; d <= 4; d++) {
        const w = wl([msg(5, 0, (1 << d) - 1, M)]);
        const want: Record<Ch4Transport, number> = { datagram: d * (41 + M), 'cut-through': d + 40 + M, circuit: d + 40 + M };
        for (const transport of ['datagram', 'cut-through', 'circuit'] as const) {
          for (const routing of ['fixed', 'adaptive'] as const) {
            for (const links of ['uni', 'bi'] as const) expect(runCh4(w, { transport, routing, links }).times[0], `${transport} ${routing} ${links} M=${M} d=${d}`).toBe(want[transport]);
          }
        }
        // negative control: the earlier readings give d + M (no receive buffer, no allocation while streaming)
        const old = { cutThrough: 'buffer-at-block', destinationBuffer: false } as const;
        expect(runCh4(w, { transport: 'cut-through', routing: 'fixed', links: 'bi', ...old }).times[0]).toBe(d + M);
        expect(runCh4(w, { transport: 'circuit', routing: 'fixed', links: 'bi', destinationBuffer: false }).times[0]).toBe(d + M);
      }
    }
  });
  it('a blocked cut-through connection ends with a buffer at the blocking node: there it is a datagram hop', () => {
    // m0 holds link 1→3 (dimension 2) for 1 + 40 + 100 ticks; m1 (0→3) cuts through to node 1 and blocks there
    const w = wl([msg(0, 1, 3, 100), msg(0, 0, 3, 10)], 2);
    const ct = runCh4(w, { transport: 'cut-through', routing: 'fixed', links: 'bi' });
    const dt = runCh4(w, { transport: 'datagram', routing: 'fixed', links: 'bi' });
    expect(Array.from(ct.times)).toEqual([141, 192]); // 1 + 40 + 10 into node 1's buffer; at 141: 1 + 40 + 10 more
    expect(Array.from(dt.times)).toEqual([141, 192]);
    expect(ct.maxBufferBytes).toBe(10);
    // negative control: the earlier reading streams on and pays the 40 only where it blocks, overlapped with its arrival
    expect(runCh4(w, { transport: 'cut-through', routing: 'fixed', links: 'bi', cutThrough: 'buffer-at-block' }).times[1]).not.toBe(192);
  });
  it("adaptive routing with every profitable link busy waits on the e-cube link ('ecube', default) or on all ('all')", () => {
    // node 0's links 0→1 (busy until 141) and 0→2 (busy until 61); m2 (0→3) is generated at 1
    const w = wl([msg(0, 0, 1, 100), msg(0, 0, 2, 20), msg(1, 0, 3, 10)], 2);
    expect(runCh4(w, { transport: 'datagram', routing: 'adaptive', links: 'bi' }).times[2]).toBe(141 + 2 * 51 - 1);
    expect(runCh4(w, { transport: 'datagram', routing: 'adaptive', links: 'bi', adaptiveWait: 'all' }).times[2]).toBe(61 + 2 * 51 - 1);
  });
  it('a unidirectional link carries one direction at a time: two messages crossing it wait for each other; bidirectional links do not', () => {
    const w = wl([msg(0, 0, 1, 100), msg(0, 1, 0, 100)]);
    for (const transport of ['cut-through', 'circuit'] as const) {
      expect(Array.from(runCh4(w, { transport, routing: 'fixed', links: 'bi' }).times)).toEqual([141, 141]);
      expect(Array.from(runCh4(w, { transport, routing: 'fixed', links: 'uni' }).times)).toEqual([141, 282]);
    }
  });
  it('creation-time priority: the older of two waiting messages gets the freed link', () => {
    // m0 holds 0→1 (dimension 1); m1 (older) and m2 (younger) both wait for it at node 0
    const w = wl([msg(0, 0, 1, 100), msg(10, 0, 1, 10), msg(20, 0, 1, 10)]);
    const r = runCh4(w, { transport: 'circuit', routing: 'fixed', links: 'bi' });
    expect(r.times[1]! + 10).toBeLessThan(r.times[2]! + 20); // m1 completes before m2
  });
});

describe('§4.4 simulator under flooded load', () => {
  it('delivers every message in all 12 configurations (Fig. 4.7 and Fig. 4.6 workloads, 5 per node); circuits in set-up give way to older messages', () => {
    for (const fig of ['4.6', '4.7']) {
      const w = buzzardCh4Workload({ ...CH4_FIGURES[fig]!, messagesPerNode: 5, seed: 2 });
      for (const transport of ['datagram', 'cut-through', 'circuit'] as const) {
        for (const routing of ['fixed', 'adaptive'] as const) {
          for (const links of ['uni', 'bi'] as const) {
            const r = runCh4(w, { transport, routing, links });
            expect(r.delivered, `${fig} ${transport} ${routing} ${links}`).toBe(w.messages.length);
            if (transport !== 'circuit') expect(r.preemptions).toBe(0);
          }
        }
      }
    }
  });
});
