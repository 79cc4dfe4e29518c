import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawable, escapeXml, linePlot, plotLayout, px, tickLabel } from '../../harness/experiments/svg.ts';
import { checkXml } from './helpers.ts';

describe('svg line plots', () => {
  it('is well formed, has one polyline per series and one marker per finite point, and maps the data into the frame', () => {
    const spec = {
      title: 'A & B <test>',
      xLabel: 'x "quoted"',
      yLabel: 'y',
      series: [
        { name: 'one', points: [[0, 1], [1, 2], [2, NaN], [3, 5]] as [number, number][] },
        { name: 'two & more', dashed: true, points: [[0.5, 0.25], [2.5, 4]] as [number, number][] },
      ],
    };
    const svg = linePlot(spec);
    const counts = checkXml(svg);
    expect(counts.get('polyline')).toBe(2);
    expect([...svg.matchAll(/class="marker"/g)].length).toBe(5); // the NaN point is left out
    expect(svg).toContain('A &amp; B &lt;test&gt;');
    expect(svg).toContain('stroke-dasharray');
    const L = plotLayout(spec);
    expect(L.x.min).toBeLessThanOrEqual(0);
    expect(L.x.max).toBeGreaterThanOrEqual(3);
    expect(L.y.min).toBe(0); // non-negative data: the y axis starts at 0
    const first = /points="([^"]*)"/.exec(svg)![1]!;
    expect(first).toBe([[0, 1], [1, 2], [3, 5]].map(([x, y]) => `${px(L.sx(x!))},${px(L.sy(y!))}`).join(' '));
    expect(L.sx(L.x.min)).toBe(L.left);
    expect(L.sy(L.y.min)).toBe(L.bottom);
    expect(linePlot(spec)).toBe(svg); // deterministic
  });

  it('log axes use decades and leave out non-positive points', () => {
    const spec = { title: 't', xLabel: 'x', yLabel: 'y', xLog: true, yLog: true, series: [{ name: 's', points: [[16, 100], [0, 5], [512, 2000], [64, -1]] as [number, number][] }] };
    const L = plotLayout(spec);
    expect(L.x.min).toBe(10);
    expect(L.x.max).toBe(1000);
    expect(L.y.min).toBe(100);
    expect(L.y.max).toBe(10000);
    expect(drawable(spec.series[0]!, true, true)).toEqual([
      [16, 100],
      [512, 2000],
    ]);
    expect([...linePlot(spec).matchAll(/class="marker"/g)].length).toBe(2);
  });

  it('any data gives a well-formed plot whose points lie inside the frame', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: -1e6, max: 1e6, noNaN: true })), { maxLength: 12 }), { minLength: 1, maxLength: 4 }),
        (sets) => {
          const spec = { title: 'p', xLabel: 'x', yLabel: 'y', series: sets.map((points, k) => ({ name: `s${k}`, points })) };
          const svg = linePlot(spec);
          checkXml(svg);
          const L = plotLayout(spec);
          for (const s of spec.series)
            for (const [x, y] of drawable(s)) {
              expect(L.sx(x)).toBeGreaterThanOrEqual(L.left - 1e-6);
              expect(L.sx(x)).toBeLessThanOrEqual(L.right + 1e-6);
              expect(L.sy(y)).toBeGreaterThanOrEqual(L.top - 1e-6);
              expect(L.sy(y)).toBeLessThanOrEqual(L.bottom + 1e-6);
            }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('tick labels and escaping', () => {
    expect(tickLabel(0.30000000000000004)).toBe('0.3');
    expect(tickLabel(2e7)).toBe('2.0e7');
    expect(escapeXml('<a href="x">&</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;');
  });
});

describe('svg axes (regression)', () => {
  it('a y range that underflows ([-5e-324, 0], found by the property above) still maps points inside the frame', () => {
    const spec = { title: 'p', xLabel: 'x', yLabel: 'y', series: [{ name: 's0', points: [[0, -5e-324]] as [number, number][] }] };
    const svg = linePlot(spec);
    checkXml(svg);
    expect(svg).not.toContain('NaN');
    const L = plotLayout(spec);
    expect(L.sy(-5e-324)).toBeGreaterThanOrEqual(L.top - 1e-6);
    expect(L.sy(-5e-324)).toBeLessThanOrEqual(L.bottom + 1e-6);
  });
});

describe('svg markers, unstable points, seed markers, error bars', () => {
  it('draws shapes per series, hollow ringed markers for unstable points, stroke-less polylines for marker-only series, and error bars that widen the axis', () => {
    const spec = {
      title: 't',
      xLabel: 'x',
      yLabel: 'y',
      series: [
        { name: 'a', marker: 'square' as const, points: [[0, 1], [1, 2], [2, 3]] as [number, number][], unstable: [false, false, true] },
        { name: 'seed', marker: 'diamond' as const, markersOnly: true, points: [[0, 1.5], [2, 2.5]] as [number, number][] },
        { name: 'mc', marker: 'triangle' as const, points: [[1, 1]] as [number, number][], errors: [4] },
      ],
    };
    const svg = linePlot(spec);
    checkXml(svg);
    expect([...svg.matchAll(/<rect class="marker/g)].length).toBe(3);
    expect([...svg.matchAll(/class="marker unstable"/g)].length).toBe(1);
    expect([...svg.matchAll(/class="unstable-ring"/g)].length).toBe(1);
    expect(svg).toContain('unstable (past saturation)');
    expect([...svg.matchAll(/<path class="marker"/g)].length).toBe(3); // 2 diamonds + 1 triangle
    expect(svg).toMatch(/<polyline fill="none" stroke="none"/);
    expect([...svg.matchAll(/class="errorbar"/g)].length).toBe(1);
    expect(plotLayout(spec).y.max).toBeGreaterThanOrEqual(5); // 1 + 4
    // negative control: without flags nothing is marked unstable
    const plain = linePlot({ ...spec, series: spec.series.map((s) => ({ ...s, unstable: undefined })) });
    expect(plain).not.toContain('unstable');
  });
});
