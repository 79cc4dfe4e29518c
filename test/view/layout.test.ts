/**
 * The n-cube drawing (harness/view/page/layout.ts, pure geometry): every
 * node at its own place, one curve per directed link in each dimension
 * drawn, the two directions of a pair apart; above degree 6 one 6-subcube.
 */
import { describe, expect, it } from 'vitest';
import { along, layout } from '../../harness/view/page/layout.ts';

describe('n-cube layout', () => {
  for (const n of [1, 2, 3, 4, 5, 6]) {
    it(`${n}-cube: ${1 << n} distinct node positions, ${n << n} directed links between the right nodes`, () => {
      const lay = layout(n);
      expect(lay.nodes).toHaveLength(1 << n);
      const keys = new Set([...lay.pos.values()].map((p) => `${Math.round(p.x)},${Math.round(p.y)}`));
      expect(keys.size).toBe(1 << n);
      expect(lay.links.size).toBe(n << n);
      for (const [id, geom] of lay.links) {
        const x = Math.floor(id / n);
        const y = x ^ (1 << (id % n));
        const a = lay.pos.get(x)!;
        const b = lay.pos.get(y)!;
        expect(Math.hypot(geom[0].x - a.x, geom[0].y - a.y)).toBeLessThan(5);
        expect(Math.hypot(geom[2].x - b.x, geom[2].y - b.y)).toBeLessThan(5);
        // the reverse link's midpoint is elsewhere: both directions visible
        const back = lay.links.get(y * n + (id % n))!;
        const m1 = along(geom, 0.5);
        const m2 = along(back, 0.5);
        expect(Math.hypot(m1.x - m2.x, m1.y - m2.y)).toBeGreaterThan(4);
      }
    });
  }
  it('an 8-cube is drawn as the chosen 6-subcube: its 64 nodes and their links in dimensions 1..6', () => {
    const lay = layout(8, 2);
    expect(lay.nodes).toEqual(Array.from({ length: 64 }, (_, k) => 128 + k));
    expect(lay.links.size).toBe(64 * 6);
    for (const id of lay.links.keys()) {
      expect(Math.floor(id / 8) >> 6).toBe(2);
      expect(id % 8).toBeLessThan(6);
    }
  });
});
