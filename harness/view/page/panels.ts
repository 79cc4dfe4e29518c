/// <reference lib="dom" />
/**
 * The side panels: the whole-run link utilisation heat map (a row per
 * node, a column per dimension), the message latency histogram, and the
 * info box (a link's or node's counters, or the followed message's per-hop
 * rows).
 */
import type { ViewModel } from '../model.ts';
import { coveredUpTo, utilisation } from '../replay.ts';
import { el } from './draw.ts';
import { occColour } from './layout.ts';

export function heatMap(m: ViewModel, host: Element, pick: (l: number) => void): void {
  const cell = Math.max(6, Math.min(18, Math.floor(360 / m.nodes)));
  const w = 28 + m.n * 22;
  const L = m.nodes * m.n;
  let max = 0;
  for (let l = 0; l < L; l++) max = Math.max(max, utilisation(m, l));
  host.insertAdjacentHTML('beforebegin', `<p class="legend">colour scale 0 .. ${(100 * max).toFixed(1)}% (the busiest link)</p>`);
  const svg = el('svg', { id: 'heat', width: w, height: 18 + m.nodes * cell }, host);
  for (let p = 1; p <= m.n; p++) el('text', { x: 28 + (p - 1) * 22 + 10, y: 12, class: 'axis' }, svg).textContent = `d${p}`;
  for (let x = 0; x < m.nodes; x++) {
    if (cell >= 10 || x % 8 === 0) el('text', { x: 24, y: 18 + x * cell + cell - 1, class: 'axis end' }, svg).textContent = String(x);
    for (let p = 1; p <= m.n; p++) {
      const l = x * m.n + p - 1;
      const u = utilisation(m, l);
      const r = el('rect', { x: 28 + (p - 1) * 22, y: 18 + x * cell, width: 20, height: cell - 1, fill: occColour(max > 0 ? u / max : 0), 'data-link': l, 'data-util': u.toFixed(3) }, svg);
      el('title', {}, r).textContent = `node ${x} link ${p}: ${(100 * u).toFixed(1)}% busy`;
      r.addEventListener('click', () => pick(l));
    }
  }
}

export function latencyHistogram(m: ViewModel, host: Element): void {
  const lat = m.msgs.filter((q) => q.complete >= 0 && q.queued >= 0).map((q) => q.complete - q.queued);
  const W = 300;
  const H = 120;
  const svg = el('svg', { id: 'hist', width: W, height: H + 30 }, host);
  if (!lat.length) {
    el('text', { x: 10, y: 20, class: 'axis' }, svg).textContent = 'no completed messages';
    return;
  }
  const max = Math.max(...lat);
  const bins = 24;
  const width = Math.max(1, Math.ceil((max + 1) / bins));
  const counts = new Array<number>(bins).fill(0);
  for (const v of lat) counts[Math.min(bins - 1, Math.floor(v / width))]!++;
  const top = Math.max(...counts);
  counts.forEach((c, k) => {
    const h = (c / top) * H;
    const r = el('rect', { x: 4 + k * ((W - 8) / bins), y: H - h + 4, width: (W - 8) / bins - 1, height: h, class: 'bar', 'data-count': c }, svg);
    el('title', {}, r).textContent = `${k * width}..${(k + 1) * width - 1} ${m.unit}: ${c} messages`;
  });
  el('text', { x: 4, y: H + 20, class: 'axis' }, svg).textContent = `0`;
  el('text', { x: W - 4, y: H + 20, class: 'axis end' }, svg).textContent = `${width * bins} ${m.unit}`;
  el('text', { x: W / 2, y: H + 20, class: 'axis mid' }, svg).textContent = `${lat.length} messages, queued → complete`;
}

const td = (cells: (string | number)[]): string => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
const fmt = (t: number): string => (t < 0 ? '–' : String(t));

export function linkInfo(m: ViewModel, l: number): string {
  const x = Math.floor(l / m.n);
  const p = (l % m.n) + 1;
  const busy = coveredUpTo(m.busy, l, m.tEnd);
  const held = coveredUpTo(m.held, l, m.tEnd);
  let hops = 0;
  for (const h of m.pkt.hopLink) if (h === l) hops++;
  return `<h3>link ${x} → ${x ^ (1 << (p - 1))} (node ${x}, port ${p})</h3><table>${td(['busy cycles', busy])}${td(['utilisation', `${((100 * busy) / (m.tEnd + 1)).toFixed(2)}%`])}${td(['held cycles (flow control)', held])}${td(['busy periods', m.busy.off[l + 1]! - m.busy.off[l]!])}${td(['packets carried', hops])}</table>`;
}

export function nodeInfo(m: ViewModel, x: number): string {
  const sent = m.msgs.filter((q) => q.src === x).length;
  const recv = m.msgs.filter((q) => q.dest === x).length;
  let rows = '';
  for (let i = 1; i <= m.n; i++) {
    const id = x * m.n + i - 1;
    rows += td([`pbu${i}`, coveredUpTo(m.full, id, m.tEnd), m.full.off[id + 1]! - m.full.off[id]!]);
  }
  return `<h3>node ${x}</h3><table>${td(['messages sent', sent])}${td(['messages received', recv])}</table><table><tr><th>unit</th><th>full cycles</th><th>times full</th></tr>${rows}</table>`;
}

export function messageInfo(m: ViewModel, id: number): string {
  const q = m.msgs.find((x) => x.id === id);
  if (!q) return `<h3>message ${id}</h3><p>not in the trace</p>`;
  const rows = q.rows.map((r) => td([r.node, r.unit, fmt(r.arrive), fmt(r.grant), fmt(r.forward), r.arrive >= 0 && r.forward >= 0 ? r.forward - r.arrive : '–'])).join('');
  return `<h3>message ${id}: node ${q.src} → ${q.dest}</h3><table>${td(['queued', fmt(q.queued)])}${td(['first packet delivered', fmt(q.first)])}${td(['complete', fmt(q.complete)])}${td(['packets', q.packets])}</table><p>packet 0, per hop (${m.unit}):</p><table class="hops"><tr><th>node</th><th>unit</th><th>head arrives</th><th>grant</th><th>forwarded</th><th>in unit</th></tr>${rows}</table>`;
}
