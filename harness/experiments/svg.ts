/**
 * Self-contained SVG line plots for the experiment reports (no
 * dependencies): a frame with linear or log10 axes, nice ticks, grid lines,
 * axis labels, a title, a legend, and one <polyline> per series (plus a
 * small marker per point, class "marker": a circle, square, triangle or
 * diamond, so that series lying on top of each other stay distinguishable).
 * A series may be markers only (a seed's printed values at the loads where
 * it gives them), flag points as unstable (drawn hollow, with a ring, class
 * "unstable") and carry ± error bars (class "errorbar"). The output is
 * deterministic: the same spec gives the same bytes.
 *
 * The plot area and the scales are computed by `plotLayout`, which tests use
 * to map the data back and compare it with the polyline coordinates.
 */

export interface Series {
  /** Legend text. */
  readonly name: string;
  /** Data points [x, y]; points with a non-finite coordinate (or ≤ 0 on a log axis) are left out. */
  readonly points: readonly (readonly [number, number])[];
  /** Dashed line (e.g. a seed's printed values beside measured ones). */
  readonly dashed?: boolean;
  /** Colour; defaults to the palette by series index. */
  readonly color?: string;
  /** Marker shape (default circle). */
  readonly marker?: MarkerShape;
  /** Markers only: the polyline is kept (with its points) but not stroked. */
  readonly markersOnly?: boolean;
  /** Per point: true marks it unstable (hollow marker and a ring; legend says so). Same length as points. */
  readonly unstable?: readonly boolean[];
  /** Per point: ± half-width of an error bar in y (e.g. 1.96 standard errors), NaN or 0 for none. */
  readonly errors?: readonly number[];
}

export type MarkerShape = 'circle' | 'square' | 'triangle' | 'diamond';

export interface PlotSpec {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly Series[];
  readonly xLog?: boolean;
  readonly yLog?: boolean;
  /** Force the axis ranges (otherwise from the data, padded to nice ticks; linear y axes start at 0 when the data are ≥ 0). */
  readonly xRange?: readonly [number, number];
  readonly yRange?: readonly [number, number];
  readonly width?: number;
  readonly height?: number;
}

export interface Axis {
  readonly log: boolean;
  /** Data range of the axis (for a log axis, in data units, > 0). */
  readonly min: number;
  readonly max: number;
  readonly ticks: readonly number[];
}

export interface PlotLayout {
  readonly width: number;
  readonly height: number;
  /** Plot area in pixels. */
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
  readonly x: Axis;
  readonly y: Axis;
  /** Data → pixel. */
  sx(v: number): number;
  sy(v: number): number;
}

export const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];

/** Coordinates are written with 2 decimals. */
export function px(v: number): string {
  const r = Math.round(v * 100) / 100;
  return Object.is(r, -0) ? '0' : String(r);
}

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Ends of the error bars of a series (they widen the y axis). */
function errorEnds(s: Series, xLog = false, yLog = false): [number, number][] {
  if (!s.errors) return [];
  const out: [number, number][] = [];
  s.points.forEach(([x, y], k) => {
    const e = s.errors![k];
    if (e === undefined || !(e > 0)) return;
    for (const v of [y - e, y + e]) if (Number.isFinite(x) && Number.isFinite(v) && (!xLog || x > 0) && (!yLog || v > 0)) out.push([x, v]);
  });
  return out;
}

/** Indices of the drawable points of a series (to pick their flags and error bars). */
function drawableIndex(s: Series, xLog = false, yLog = false): number[] {
  const out: number[] = [];
  s.points.forEach(([x, y], k) => {
    if (Number.isFinite(x) && Number.isFinite(y) && (!xLog || x > 0) && (!yLog || y > 0)) out.push(k);
  });
  return out;
}

function markerSvg(shape: MarkerShape, cx: number, cy: number, color: string, hollow: boolean): string {
  const paint = hollow ? `fill="#ffffff" stroke="${color}" stroke-width="1.5"` : `fill="${color}"`;
  const cls = hollow ? 'marker unstable' : 'marker';
  const r = 3;
  if (shape === 'square') return `<rect class="${cls}" x="${px(cx - r)}" y="${px(cy - r)}" width="${2 * r}" height="${2 * r}" ${paint}/>`;
  if (shape === 'triangle') return `<path class="${cls}" d="M${px(cx)},${px(cy - r - 1)} L${px(cx + r + 0.5)},${px(cy + r)} L${px(cx - r - 0.5)},${px(cy + r)} Z" ${paint}/>`;
  if (shape === 'diamond') return `<path class="${cls}" d="M${px(cx)},${px(cy - r - 1)} L${px(cx + r + 1)},${px(cy)} L${px(cx)},${px(cy + r + 1)} L${px(cx - r - 1)},${px(cy)} Z" ${paint}/>`;
  return `<circle class="${cls}" cx="${px(cx)}" cy="${px(cy)}" r="${hollow ? 3.5 : 2.5}" ${paint}/>`;
}

/** The points of a series that can be drawn on the given axes. */
export function drawable(s: Series, xLog = false, yLog = false): [number, number][] {
  return s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y) && (!xLog || x > 0) && (!yLog || y > 0)).map(([x, y]) => [x, y]);
}

function niceStep(span: number, target: number): number {
  const raw = span / Math.max(1, target);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const f = raw / mag;
  const nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
  return nice * mag;
}

function linearAxis(lo: number, hi: number, forced: boolean): Axis {
  // A range too narrow to divide into ticks (equal ends, or a span that
  // underflows, e.g. [-5e-324, 0]) is widened around its centre.
  const scale = Math.max(Math.abs(lo), Math.abs(hi));
  if (!(hi > lo) || hi - lo < Math.max(scale * 1e-12, 1e-300)) {
    const c = (lo + hi) / 2;
    const d = Math.abs(c) > 1e-300 ? Math.abs(c) * 0.1 : 1;
    lo = c - d;
    hi = c + d;
  }
  const step = niceStep(hi - lo, 6);
  const min = forced ? lo : Math.floor(lo / step + 1e-9) * step;
  const max = forced ? hi : Math.ceil(hi / step - 1e-9) * step;
  const ticks: number[] = [];
  const k0 = Math.ceil(min / step - 1e-9);
  for (let k = k0; k - k0 < 50; k++) {
    const t = k * step;
    if (t > max + step * 1e-9) break;
    ticks.push(Number(t.toPrecision(12)));
  }
  return { log: false, min, max, ticks };
}

function logAxis(lo: number, hi: number, forced: boolean): Axis {
  if (!(hi > lo)) {
    lo /= 2;
    hi *= 2;
  }
  const min = forced ? lo : 10 ** Math.floor(Math.log10(lo) + 1e-9);
  const max = forced ? hi : 10 ** Math.ceil(Math.log10(hi) - 1e-9);
  const ticks: number[] = [];
  const decades = Math.log10(max / min);
  for (let e = Math.ceil(Math.log10(min) - 1e-9); e <= Math.floor(Math.log10(max) + 1e-9); e++) {
    for (const m of decades <= 2 ? [1, 2, 5] : [1]) {
      const t = m * 10 ** e;
      if (t >= min * (1 - 1e-9) && t <= max * (1 + 1e-9)) ticks.push(Number(t.toPrecision(12)));
    }
  }
  return { log: true, min, max, ticks };
}

function axis(values: number[], log: boolean, range: readonly [number, number] | undefined, zeroBased: boolean): Axis {
  if (range) return log ? logAxis(range[0], range[1], true) : linearAxis(range[0], range[1], true);
  if (!values.length) return log ? logAxis(1, 10, false) : linearAxis(0, 1, false);
  let lo = Math.min(...values);
  const hi = Math.max(...values);
  if (!log && zeroBased && lo >= 0) lo = 0;
  return log ? logAxis(lo, hi, false) : linearAxis(lo, hi, false);
}

/** Axes and pixel mapping of a plot (used by `linePlot` and by tests). */
export function plotLayout(spec: PlotSpec): PlotLayout {
  const width = spec.width ?? 760;
  const height = spec.height ?? 480;
  const pts = spec.series.flatMap((s) => [...drawable(s, spec.xLog, spec.yLog), ...errorEnds(s, spec.xLog, spec.yLog)]);
  const x = axis(
    pts.map((p) => p[0]),
    Boolean(spec.xLog),
    spec.xRange,
    false,
  );
  const y = axis(
    pts.map((p) => p[1]),
    Boolean(spec.yLog),
    spec.yRange,
    true,
  );
  const left = 78;
  const right = width - 210;
  const top = 44;
  const bottom = height - 58;
  const map = (a: Axis, v: number, p0: number, p1: number): number => {
    const f = a.log ? (Math.log10(v) - Math.log10(a.min)) / (Math.log10(a.max) - Math.log10(a.min)) : (v - a.min) / (a.max - a.min);
    return p0 + f * (p1 - p0);
  };
  return { width, height, left, right, top, bottom, x, y, sx: (v) => map(x, v, left, right), sy: (v) => map(y, v, bottom, top) };
}

/** Tick label: short, no float noise. */
export function tickLabel(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e6 || a < 1e-3) return v.toExponential(1).replace('e+', 'e');
  return String(Number(v.toPrecision(6)));
}

/** Render a line plot as a complete SVG document. */
export function linePlot(spec: PlotSpec): string {
  const L = plotLayout(spec);
  const out: string[] = [];
  out.push('<?xml version="1.0" encoding="UTF-8"?>');
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${L.width}" height="${L.height}" viewBox="0 0 ${L.width} ${L.height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  out.push(`<title>${escapeXml(spec.title)}</title>`);
  out.push(`<rect x="0" y="0" width="${L.width}" height="${L.height}" fill="#ffffff"/>`);
  out.push(`<text x="${px((L.left + L.right) / 2)}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(spec.title)}</text>`);
  // grid and ticks
  out.push('<g class="grid" stroke="#e4e4e4" stroke-width="1">');
  for (const t of L.x.ticks) out.push(`<line x1="${px(L.sx(t))}" y1="${px(L.top)}" x2="${px(L.sx(t))}" y2="${px(L.bottom)}"/>`);
  for (const t of L.y.ticks) out.push(`<line x1="${px(L.left)}" y1="${px(L.sy(t))}" x2="${px(L.right)}" y2="${px(L.sy(t))}"/>`);
  out.push('</g>');
  out.push(`<rect class="frame" x="${px(L.left)}" y="${px(L.top)}" width="${px(L.right - L.left)}" height="${px(L.bottom - L.top)}" fill="none" stroke="#000000"/>`);
  out.push('<g class="x-ticks" text-anchor="middle">');
  for (const t of L.x.ticks) {
    out.push(`<line x1="${px(L.sx(t))}" y1="${px(L.bottom)}" x2="${px(L.sx(t))}" y2="${px(L.bottom + 5)}" stroke="#000000"/>`);
    out.push(`<text x="${px(L.sx(t))}" y="${px(L.bottom + 19)}">${escapeXml(tickLabel(t))}</text>`);
  }
  out.push('</g>');
  out.push('<g class="y-ticks" text-anchor="end">');
  for (const t of L.y.ticks) {
    out.push(`<line x1="${px(L.left - 5)}" y1="${px(L.sy(t))}" x2="${px(L.left)}" y2="${px(L.sy(t))}" stroke="#000000"/>`);
    out.push(`<text x="${px(L.left - 8)}" y="${px(L.sy(t) + 4)}">${escapeXml(tickLabel(t))}</text>`);
  }
  out.push('</g>');
  out.push(`<text class="x-label" x="${px((L.left + L.right) / 2)}" y="${px(L.height - 16)}" text-anchor="middle">${escapeXml(spec.xLabel + (spec.xLog ? ' (log scale)' : ''))}</text>`);
  out.push(
    `<text class="y-label" x="18" y="${px((L.top + L.bottom) / 2)}" text-anchor="middle" transform="rotate(-90 18 ${px((L.top + L.bottom) / 2)})">${escapeXml(spec.yLabel + (spec.yLog ? ' (log scale)' : ''))}</text>`,
  );
  // series
  spec.series.forEach((s, k) => {
    const color = s.color ?? PALETTE[k % PALETTE.length]!;
    const pts = drawable(s, spec.xLog, spec.yLog);
    const idx = drawableIndex(s, spec.xLog, spec.yLog);
    const coords = pts.map(([x, y]) => `${px(L.sx(x))},${px(L.sy(y))}`);
    out.push(`<g class="series" data-name="${escapeXml(s.name)}">`);
    const stroke = s.markersOnly ? 'none' : color;
    out.push(`<polyline fill="none" stroke="${stroke}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''} points="${coords.join(' ')}"/>`);
    pts.forEach(([x, y], j) => {
      const k = idx[j]!;
      const e = s.errors?.[k];
      if (e !== undefined && e > 0) {
        const lo = spec.yLog ? Math.max(y - e, L.y.min) : y - e;
        out.push(`<line class="errorbar" x1="${px(L.sx(x))}" y1="${px(L.sy(lo))}" x2="${px(L.sx(x))}" y2="${px(L.sy(y + e))}" stroke="${color}" stroke-width="1"/>`);
      }
      const hollow = Boolean(s.unstable?.[k]);
      out.push(markerSvg(s.marker ?? 'circle', L.sx(x), L.sy(y), color, hollow));
      if (hollow) out.push(`<circle class="unstable-ring" cx="${px(L.sx(x))}" cy="${px(L.sy(y))}" r="7" fill="none" stroke="#000000" stroke-width="1" stroke-dasharray="2 2"/>`);
    });
    out.push('</g>');
  });
  // legend
  out.push(`<g class="legend" font-size="11">`);
  spec.series.forEach((s, k) => {
    const color = s.color ?? PALETTE[k % PALETTE.length]!;
    const y = L.top + 8 + k * 18;
    if (!s.markersOnly) out.push(`<line x1="${px(L.right + 14)}" y1="${px(y)}" x2="${px(L.right + 40)}" y2="${px(y)}" stroke="${color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    out.push(markerSvg(s.marker ?? 'circle', L.right + 27, y, color, false).replace('class="marker"', 'class="legend-marker"'));
    out.push(`<text x="${px(L.right + 46)}" y="${px(y + 4)}">${escapeXml(s.name)}</text>`);
  });
  if (spec.series.some((s) => s.unstable?.some(Boolean))) {
    const y = L.top + 8 + spec.series.length * 18;
    out.push(`<circle cx="${px(L.right + 27)}" cy="${px(y)}" r="7" fill="none" stroke="#000000" stroke-width="1" stroke-dasharray="2 2"/>`);
    out.push(`<text x="${px(L.right + 46)}" y="${px(y + 4)}">unstable (past saturation)</text>`);
  }
  out.push('</g>');
  out.push('</svg>');
  return out.join('\n') + '\n';
}
