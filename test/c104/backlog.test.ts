/**
 * The driver's packed messages (harness/rtl/t9000_backlog.ts,
 * docs/c104.md#lazy-workload): bytes come back as they went in whatever the
 * length and the order of frees; `post` refuses what `send` would not take
 * and mixing with `send` on one virtual link.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MessageBacklog } from '../../harness/rtl/t9000_backlog.ts';
import { buildC104Mesh, C104_START } from '../../bench/c104.ts';

describe('MessageBacklog', () => {
  it('gives back every message as it was put, across frees and reuse (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.uint8Array({ maxLength: 100 }), fc.boolean()), { maxLength: 60 }), (ops) => {
        const b = new MessageBacklog();
        const live = new Map<number, { id: number; bytes: number[] }>();
        ops.forEach(([bytes, freeOne], id) => {
          live.set(b.put(id, 7 * id, bytes, id % 3 === 0 ? -1 : id), { id, bytes: [...bytes] });
          if (freeOne) {
            const [s] = live.keys();
            b.free(s!);
            live.delete(s!);
          }
        });
        for (const [s, m] of live) {
          expect([b.id(s), b.cycle(s), b.size(s), b.addr(s)]).toEqual([m.id, 7 * m.id, m.bytes.length, m.id % 3 === 0 ? -1 : m.id]);
          expect(b.read(s)).toEqual(m.bytes);
        }
        expect(b.live).toBe(live.size);
      }),
      { numRuns: 200 },
    );
  });

  it('control: a byte changed in the store is seen', () => {
    const b = new MessageBacklog();
    const s = b.put(1, 0, [1, 2, 3], -1);
    const t = b.put(2, 0, [4, 5, 6], -1);
    expect(b.read(s)).toEqual([1, 2, 3]);
    (b as unknown as { bytes: Uint8Array }).bytes[t * 32 + 1]! ^= 1;
    expect(b.read(t)).not.toEqual([4, 5, 6]);
  });

  it('keeps the digest once the bytes are dropped', () => {
    const b = new MessageBacklog();
    const s = b.put(1, 0, [9, 9], -1);
    b.dropBytes(s, 0xfedcba98);
    expect(b.digest(s)).toBe(0xfedcba98);
    expect(b.footprint).toBeGreaterThan(0);
  });
});

describe('T9000Driver.post', () => {
  const mesh = { side: 2, window: 1, interval: 100, warmup: 0, cycles: 0, seed: 2 };
  it('refuses a byte outside 0..255, a post before the previous one, a send on a posted virtual link and a post on a sent one, in one line each', () => {
    const sys = buildC104Mesh(mesh, C104_START + 1000, { summary: true });
    const [k] = sys.driver.bySource.keys();
    const [node, vl] = k!.split(':').map(Number) as [number, number];
    expect(() => sys.driver.post(node, vl, [1, 256], C104_START + 5000)).toThrow(/^t9000 driver: byte 1 of a message on node \d+ virtual link \d+ is 256, not 0\.\.255$/);
    sys.driver.post(node, vl, [1], C104_START + 5000);
    expect(() => sys.driver.post(node, vl, [1], C104_START + 4000)).toThrow(/before its previous post/);
    expect(() => sys.driver.send(node, vl, [1], C104_START + 5000)).toThrow(/is fed by post; post and send do not mix/);
    const full = buildC104Mesh(mesh, C104_START + 1000);
    expect(() => full.driver.post(node, vl, [1], C104_START + 5000)).toThrow(/post needs retainMessages off/);
    full.driver.retainMessages = false;
    expect(() => full.driver.post(node, vl, [1], C104_START + 5000)).toThrow(/was fed by send; post and send do not mix/);
  });
});
