/**
 * The TLM's documented modelling options (harness/tlm/config.ts):
 * forwardStart (where per-hop packet forwarding starts) and wormholeSlotFree
 * (when a wormhole source slot frees), against closed forms written out here.
 *   packet, one message alone, forwarding after f bytes of a packet (f capped at its size w_k):
 *     first = a + d·(f·τ + a) + w_1·τ
 */
import { describe, expect, it } from 'vitest';
import { resolveTlmConfig, runTlm } from '../../harness/tlm/index.ts';
import { finalizeMessages } from '../../harness/workloads/index.ts';
import type { Workload } from '../../harness/workloads/types.ts';
import { CH5, packetZeroLoad } from './closed-forms.ts';

function one(bytes: number, d: number, extra: { t: number; bytes: number }[] = []): Workload {
  const msgs = [{ t: 5, src: 3, dst: 3 ^ ((1 << d) - 1), bytes, kind: 'unicast' as const }, ...extra.map((e) => ({ t: e.t, src: 3, dst: 3 ^ ((1 << d) - 1), bytes: e.bytes, kind: 'unicast' as const }))];
  return { name: 't', seed: null, params: {}, unit: 'ticks', cubeDegree: 4, messages: finalizeMessages(msgs) };
}

describe('forwardStart: where per-hop packet forwarding starts', () => {
  const { ticksPerByte: tau, arbitrationTicks: a, headerBytes: H, packetBytes: P } = CH5;
  it("'header' (default) is the cut-through closed form; 'packet' is store-and-forward; a number k forwards after k bytes", () => {
    for (const bytes of [10, 32, 100]) {
      for (let d = 1; d <= 4; d++) {
        const w1 = H + Math.min(P, bytes);
        const first = (f: number): number => a + d * (Math.min(f, w1) * tau + a) + w1 * tau;
        expect(runTlm(one(bytes, d), { transport: 'fixed-packet', recordEvents: false }).perMessage[0]!.first).toBe(packetZeroLoad(CH5, bytes, d).first);
        expect(runTlm(one(bytes, d), { transport: 'fixed-packet', forwardStart: 'header', recordEvents: false }).perMessage[0]!.first).toBe(first(H));
        expect(runTlm(one(bytes, d), { transport: 'fixed-packet', forwardStart: 'packet', recordEvents: false }).perMessage[0]!.first).toBe(first(w1));
        for (const k of [0, 1, 12, 1000]) expect(runTlm(one(bytes, d), { transport: 'quasi-adaptive', forwardStart: k, recordEvents: false }).perMessage[0]!.first, `${bytes} B d=${d} k=${k}`).toBe(first(k));
      }
    }
  });
  it('is validated: a whole number of bytes or header / packet', () => {
    expect(() => resolveTlmConfig({ transport: 'fixed-packet', forwardStart: -1 })).toThrow(/tlm\.forwardStart: -1 is outside 0\.\./);
    expect(() => resolveTlmConfig({ transport: 'fixed-packet', forwardStart: 'tail' as never })).toThrow(/tlm\.forwardStart: 'tail' is not one of 'header', 'packet'/);
  });
});

describe('wormholeSlotFree: when the source slot takes its next message', () => {
  it("'tail-sent' starts the second worm while the first is still arriving; 'delivered' only after its last byte", () => {
    // two 1000-byte messages on the same slot, the second queued right behind the first, 3 hops
    const w = one(1000, 3, [{ t: 6, bytes: 1000 }]);
    const inject = (mode: 'tail-sent' | 'delivered') => {
      const r = runTlm(w, { transport: 'wormhole', wormholeSlotFree: mode });
      const injected = r.events!.find((e) => e.kind === 'packet-injected' && e.msg === 1)!.t;
      return { injected, firstDone: r.lastAt[0]!, secondLast: r.perMessage[1]!.last };
    };
    const tail = inject('tail-sent');
    const deliv = inject('delivered');
    expect(tail.injected).toBeLessThan(tail.firstDone);
    expect(deliv.injected).toBeGreaterThanOrEqual(deliv.firstDone);
    expect(deliv.secondLast).toBeGreaterThan(tail.secondLast);
    expect(tail.firstDone).toBe(deliv.firstDone); // the first message is not affected
  });
});
