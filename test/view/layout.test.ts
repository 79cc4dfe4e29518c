/**
 * The n-cube drawing (harness/view/page/layout.ts, pure geometry): every
 * node at its own place, one curve per directed link in each dimension
 * drawn, the two directions of a pair apart; above degree 6 one 6-subcube.
 * A C104 mesh on its grid, other C104 networks with every unit apart.
 */
import { describe, expect, it } from 'vitest';
import { along, c104Layout, layout, SCALE } from '../../harness/view/page/layout.ts';
import type { C104Topo } from '../../harness/view/model.ts';
import { c104Topology } from '../../harness/rtl/c104_events.ts';
import { chainNetwork, meshNetwork } from '../../rtl/c104/labelling.ts';

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

describe('C104 layout (from the header record c104Topology writes)', () => {
  it('a 3x2 mesh: switches on the grid (x to the right, y up), each T9000 beside its switch, one curve per wired directed link', () => {
    const t = c104Topology(meshNetwork({ w: 3, h: 2, routing: 'x-first' })) as unknown as C104Topo;
    expect(t.grid).toEqual({ w: 3, h: 2 });
    const lay = c104Layout(t);
    const S = 6;
    expect(lay.nodes).toHaveLength(12);
    t.places!.forEach(([x, y], s) => {
      const q = lay.pos.get(s)!;
      t.places!.forEach(([x2, y2], s2) => {
        const r = lay.pos.get(s2)!;
        if (x2 > x && y2 === y) expect(r.x).toBeGreaterThan(q.x);
        if (y2 > y && x2 === x) expect(r.y).toBeLessThan(q.y);
      });
    });
    t.endpoints.forEach((e, k) => {
      const a = lay.pos.get(S + k)!;
      const b = lay.pos.get(e.sw)!;
      expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeLessThan(0.9 * SCALE * 1.6);
    });
    // 7 cables both ways + 6 endpoints × 4 links both ways
    expect(lay.links.size).toBe(7 * 2 + 6 * 4 * 2);
    for (const [a, la, b, lb] of t.cables) {
      expect(lay.links.get(a * 32 + la)![0].x).toBeCloseTo(lay.pos.get(a)!.x, -1);
      expect(lay.links.get(b * 32 + lb)![2].x).toBeCloseTo(lay.pos.get(a)!.x, -1);
    }
  });

  it('a chain (not a grid): no grid in the record; every switch and endpoint at its own place', () => {
    const t = c104Topology(chainNetwork(3)) as unknown as C104Topo;
    expect(t.grid).toBeUndefined();
    const lay = c104Layout(t);
    const keys = new Set([...lay.pos.values()].map((p) => `${Math.round(p.x)},${Math.round(p.y)}`));
    expect(keys.size).toBe(t.switches.length + t.endpoints.length);
  });
});
