/**
 * The C104 configuration layer: interval tables and their build-time checks,
 * mesh / ring / chain / PUMA labellings, routes traced through the tables
 * against independently computed dimension-order paths, and the static
 * channel-dependency (deadlock) check with a cyclic ring as the negative
 * control.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDeadlockFree, traceRoute } from '../../rtl/c104/channel_deps.ts';
import { C104ConfigError, compileTable, emptyTable, lookupGroup, type SwitchTable } from '../../rtl/c104/interval_table.ts';
import { chainNetwork, meshLabel, meshNetwork, pumaNetwork, ringNetwork, type MeshRouting } from '../../rtl/c104/labelling.ts';
import { checkNetwork } from '../../rtl/c104/topology.ts';

function table(over: Partial<SwitchTable>): SwitchTable {
  const t = emptyTable('sw0', 10);
  const connected = [...t.connected];
  connected[0] = connected[1] = connected[2] = true;
  return { ...t, connected, groups: [[0], [1, 2]], intervals: [{ lo: 0, hi: 4, group: 0 }, { lo: 5, hi: 9, group: 1 }], ...over };
}

/** The message of the error `f` throws (it must throw a C104ConfigError). */
function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(C104ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a configuration error');
}

describe('interval table checks: one line each', () => {
  it('a valid table compiles and looks up by interval', () => {
    const c = compileTable(table({}));
    expect([0, 4, 5, 9].map((h) => lookupGroup(c, h))).toEqual([0, 0, 1, 1]);
    expect(lookupGroup(c, 10)).toBe(-1);
    expect(c.groupMask[1]).toBe(0b110);
  });
  it('gap', () => {
    expect(errorOf(() => compileTable(table({ intervals: [{ lo: 0, hi: 3, group: 0 }, { lo: 5, hi: 9, group: 1 }] })))).toBe('c104 sw0: gap: header 4 route nowhere');
    expect(errorOf(() => compileTable(table({ intervals: [{ lo: 0, hi: 4, group: 0 }, { lo: 5, hi: 7, group: 1 }] })))).toBe('c104 sw0: gap: headers 8..9 route nowhere');
  });
  it('overlap', () => {
    expect(errorOf(() => compileTable(table({ intervals: [{ lo: 0, hi: 6, group: 0 }, { lo: 5, hi: 9, group: 1 }] })))).toBe('c104 sw0: overlap: headers 5..6 are in two intervals');
  });
  it('an interval naming an unconnected link', () => {
    const t = table({});
    const connected = [...t.connected];
    connected[2] = false;
    expect(errorOf(() => compileTable({ ...t, connected }))).toBe('c104 sw0: interval 5..9 routes to link 2, which is not connected');
  });
  it('hunt groups and ranges', () => {
    expect(errorOf(() => compileTable(table({ groups: [[0], [0, 2]] })))).toBe('c104 sw0: link 0 is in hunt groups 0 and 1; a link belongs to one group');
    expect(errorOf(() => compileTable(table({ groups: [[0], []] })))).toBe('c104 sw0: hunt group 1 has no links');
    expect(errorOf(() => compileTable(table({ intervals: [{ lo: 0, hi: 9, group: 2 }] })))).toBe('c104 sw0: interval 0..9 names hunt group 2, but groups are 0..1');
    expect(errorOf(() => compileTable(table({ intervals: [{ lo: 0, hi: 10, group: 0 }] })))).toBe('c104 sw0: interval 0..10 goes past the last label 9');
    expect(errorOf(() => compileTable(table({ labels: 300 })))).toBe('c104 sw0: labels 300 is outside 1..256 for 1-byte headers');
  });
  it('network wiring', () => {
    const spec = chainNetwork(2);
    spec.cables.push([{ sw: 0, link: 1 }, { sw: 1, link: 5 }]);
    expect(errorOf(() => checkNetwork(spec))).toBe('network: c104_0.link1 is wired twice');
    const s2 = chainNetwork(2);
    s2.cables = [];
    expect(errorOf(() => checkNetwork(s2))).toBe('c104 c104_0: link 1 is marked connected but not wired');
  });
});

/** The x-first (or y-first) path from a to b as the list of (node, direction) hops, computed without tables. */
function dimensionOrderPath(w: number, h: number, routing: MeshRouting, a: [number, number], b: [number, number]): string[] {
  let [x, y] = a;
  const hops: string[] = [];
  const moveX = (): void => {
    while (x !== b[0]) {
      hops.push(`${x},${y}:${x < b[0] ? 'E' : 'W'}`);
      x += x < b[0] ? 1 : -1;
    }
  };
  const moveY = (): void => {
    while (y !== b[1]) {
      hops.push(`${x},${y}:${y < b[1] ? 'N' : 'S'}`);
      y += y < b[1] ? 1 : -1;
    }
  };
  if (routing === 'y-first') {
    moveY();
    moveX();
  } else {
    moveX();
    moveY();
  }
  hops.push(`${x},${y}:L`);
  return hops;
}

describe('mesh labellings', () => {
  for (const routing of ['x-first', 'y-first'] as const) {
    it(`every ${routing} route equals the path its interval tables trace`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 7 }), fc.integer({ min: 1, max: 4 }), (w, h, cpuLinks) => {
          const net = checkNetwork(meshNetwork({ w, h, routing, cpuLinks }));
          const dirName = ['W', 'E', 'S', 'N'];
          for (let ax = 0; ax < w; ax++)
            for (let ay = 0; ay < h; ay++)
              for (let bx = 0; bx < w; bx++)
                for (let by = 0; by < h; by++) {
                  if (ax === bx && ay === by) continue;
                  const from = ax * h + ay;
                  const r = traceRoute(net, from, meshLabel({ w, h, routing }, bx, by));
                  const traced = r.hops.map((hp) => {
                    const [, x, y] = net.spec.switches[hp.sw]!.name.split('_');
                    return `${x},${y}:${hp.link < cpuLinks ? 'L' : dirName[hp.link - cpuLinks]}`;
                  });
                  expect(traced).toEqual(dimensionOrderPath(w, h, routing, [ax, ay], [bx, by]));
                  expect(net.spec.terminals[r.terminal]!.name).toBe(`t9000_${bx}_${by}`);
                }
        }),
        { numRuns: 25 },
      );
    });
  }

  it('several labels per node (a T9000\'s virtual links): every label reaches its node on the dimension-order path', () => {
    for (const routing of ['x-first', 'y-first', 'two-phase'] as const) {
      const spec = meshNetwork({ w: 3, h: 4, routing, labelsPerNode: 3 });
      const net = checkNetwork(spec);
      expect(checkDeadlockFree(net).deadlockFree).toBe(true);
      for (let t = 0; t < 12; t++) {
        for (let l = 0; l < 36; l++) {
          const owner = net.terminalOfLabel.get(l)!;
          if (owner === t) continue;
          expect(traceRoute(net, t, l).terminal).toBe(owner);
        }
      }
    }
  });

  it('the x-first and y-first meshes are deadlock-free, and so is two-phase on separate link sets', () => {
    for (const routing of ['x-first', 'y-first', 'two-phase'] as const) expect(checkDeadlockFree(meshNetwork({ w: 4, h: 3, routing })).deadlockFree).toBe(true);
  });

  it('two-phase: the injection link prefixes a random phase-1 header, the loopback input deletes it, and every intermediate is reachable', () => {
    const net = checkNetwork(meshNetwork({ w: 3, h: 3, routing: 'two-phase' }));
    const n = 9;
    for (let r = 0; r < n; r++) {
      const route = traceRoute(net, 0, 8, () => n + r);
      // The packet passes the loopback (link 12) of the intermediate switch r exactly once.
      const loops = route.hops.filter((hp) => hp.link === 12);
      expect(loops.map((hp) => hp.sw)).toEqual([r]);
      expect(route.terminal).toBe(8);
    }
  });

  it('two-phase on one shared link set is not deadlock-free (the reason for separate sets)', () => {
    const spec = meshNetwork({ w: 3, h: 3, routing: 'two-phase' });
    // Route phase 1 over the phase-2 links: the intervals of labels n..2n-1 point at the same groups as phase 2's.
    for (const sw of spec.switches) {
      const phase2 = sw.intervals.filter((iv) => iv.hi < 9);
      const moved = phase2.map((iv) => ({ lo: iv.lo + 9, hi: iv.hi + 9, group: iv.group }));
      const local = sw.intervals.find((iv) => iv.lo >= 9 && sw.groups[iv.group]![0] === 12)!;
      sw.intervals = [...phase2, ...moved.filter((iv) => !(iv.lo <= local.lo && local.lo <= iv.hi)), local];
    }
    const v = checkDeadlockFree(spec);
    expect(v.deadlockFree).toBe(false);
  });
});

describe('deadlock check', () => {
  it('a ring with cyclic labelling is reported with its cycle', () => {
    const v = checkDeadlockFree(ringNetwork(4, true));
    expect(v.deadlockFree).toBe(false);
    if (v.deadlockFree) return;
    expect(v.cycle.length).toBe(5);
    expect(v.cycle[0]).toBe(v.cycle[4]);
    expect([...v.cycle.slice(0, 4)].sort()).toEqual(['c104_0.link1', 'c104_1.link1', 'c104_2.link1', 'c104_3.link1']);
    expect(v.message).toMatch(/^labelling is not deadlock-free: channel dependency cycle c104_\d\.link1 → c104_\d\.link1 → c104_\d\.link1 → c104_\d\.link1 → c104_\d\.link1$/);
  });
  it('the same ring with a cut (line) labelling is deadlock-free', () => {
    expect(checkDeadlockFree(ringNetwork(4, false)).deadlockFree).toBe(true);
  });
  it('chain and PUMA (double hypercube, highest dimension first) are deadlock-free; PUMA routes every pair', () => {
    expect(checkDeadlockFree(chainNetwork(5)).deadlockFree).toBe(true);
    const spec = pumaNetwork();
    expect(spec.switches.length).toBe(64);
    expect(spec.terminals.length).toBe(256);
    const net = checkNetwork(spec);
    for (const [from, to] of [[0, 255], [17, 200], [255, 3]] as const) {
      const r = traceRoute(net, from, to);
      const dist = popcount((from >> 2) ^ (to >> 2));
      expect(r.hops.length).toBe(dist + 1);
      expect(r.terminal).toBe(to);
    }
    expect(checkDeadlockFree(pumaNetwork(3)).deadlockFree).toBe(true);
  });
  it('a misdelivering labelling is a configuration error', () => {
    const spec = ringNetwork(3, false);
    spec.switches[1]!.intervals = [{ lo: 0, hi: 0, group: 0 }, { lo: 1, hi: 1, group: 2 }, { lo: 2, hi: 2, group: 1 }];
    expect(() => checkDeadlockFree(spec)).toThrow(C104ConfigError);
  });
});

function popcount(v: number): number {
  let c = 0;
  for (; v; v &= v - 1) c++;
  return c;
}
