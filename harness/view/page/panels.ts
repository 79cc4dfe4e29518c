/// <reference lib="dom" />
/**
 * The side panels: the whole-run link utilisation heat map (a row per
 * node, a column per dimension; for a C104 network a row per switch or
 * T9000, a column per link), the message latency histogram, and the
 * info box (a link's or node's counters, or the followed message's per-hop
 * rows).
 */
import { linkEnds, unitName, type ViewModel } from '../model.ts';
import { endpointLink, peers, switchLink } from '../c104_model.ts';
import { coveredUpTo, utilisation } from '../replay.ts';
import { el } from './draw.ts';
import { occColour } from './layout.ts';

/** The heat map's cells: [row, column, link] for every drawn link of the network. */
function heatCells(m: ViewModel): { rows: number; cols: number; cells: [number, number, number][]; head: (c: number) => string } {
  const t = m.c104;
  if (!t) {
    const cells: [number, number, number][] = [];
    for (let x = 0; x < m.nodes; x++) for (let p = 1; p <= m.n; p++) cells.push([x, p - 1, x * m.n + p - 1]);
    return { rows: m.nodes, cols: m.n, cells, head: (c) => `d${c + 1}` };
  }
  const S = t.switches.length;
  const cells: [number, number, number][] = [];
  const wired = new Set<number>();
  for (const [a, la, b, lb] of t.cables) wired.add(a * 32 + la).add(b * 32 + lb);
  t.endpoints.forEach((e, k) => e.links.forEach((j, q) => wired.add(e.sw * 32 + j).add(S * 32 + k * 4 + q)));
  const cols = Math.max(0, ...[...wired].map((l) => linkEnds(m, l).port)) + 1;
  for (const l of [...wired].sort((a, b) => a - b)) {
    const { node, port } = linkEnds(m, l);
    cells.push([node, port, l]);
  }
  return { rows: m.nodes, cols, cells, head: (c) => (c % 4 === 0 ? String(c) : '') };
}

export function heatMap(m: ViewModel, host: Element, pick: (l: number) => void): void {
  const { rows, cols, cells, head } = heatCells(m);
  const cell = Math.max(6, Math.min(18, Math.floor(360 / rows)));
  const cw = cols > 8 ? 9 : 22;
  const left = m.c104 ? 64 : 28;
  const w = left + cols * cw;
  let max = 0;
  for (const [, , l] of cells) max = Math.max(max, utilisation(m, l));
  host.insertAdjacentHTML('beforebegin', `<p class="legend">colour scale 0 .. ${(100 * max).toFixed(1)}% (the busiest link)</p>`);
  const svg = el('svg', { id: 'heat', width: w, height: 18 + rows * cell }, host);
  for (let c = 0; c < cols; c++) el('text', { x: left + c * cw + cw / 2 - 1, y: 12, class: 'axis' }, svg).textContent = head(c);
  for (let x = 0; x < rows; x++) {
    if (cell >= 10 || x % 8 === 0) el('text', { x: left - 4, y: 18 + x * cell + cell - 1, class: 'axis end' }, svg).textContent = m.c104 ? unitName(m, x) : String(x);
  }
  for (const [x, c, l] of cells) {
    const u = utilisation(m, l);
    const r = el('rect', { x: left + c * cw, y: 18 + x * cell, width: cw - 2, height: cell - 1, fill: occColour(max > 0 ? u / max : 0), 'data-link': l, 'data-util': u.toFixed(3) }, svg);
    el('title', {}, r).textContent = `${linkEnds(m, l).text}: ${(100 * u).toFixed(1)}% busy`;
    r.addEventListener('click', () => pick(l));
  }
}

export function latencyHistogram(m: ViewModel, host: Element): void {
  const lat = [...m.latency];
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
  const busy = coveredUpTo(m.busy, l, m.tEnd);
  const held = coveredUpTo(m.held, l, m.tEnd);
  let hops = 0;
  for (const h of m.pkt.hopLink) if (h === l) hops++;
  return `<h3>${linkEnds(m, l).text}</h3><table>${td(['busy cycles', busy])}${td(['utilisation', `${((100 * busy) / (m.tEnd + 1)).toFixed(2)}%`])}${td(['held cycles (flow control)', held])}${td(['busy periods', m.busy.off[l + 1]! - m.busy.off[l]!])}${td(['packets carried', hops])}</table>`;
}

export function nodeInfo(m: ViewModel, x: number): string {
  const e = m.c104 ? x - m.c104.switches.length : x;
  const sent = m.msgs.filter((q) => q.src === e).length;
  const recv = m.msgs.filter((q) => q.dest === e).length;
  if (m.c104) {
    const t = m.c104;
    if (x >= t.switches.length) return `<h3>${unitName(m, x)}</h3><table>${td(['switch-level packets sent', sent]) + td(['switch-level packets received', recv])}</table>`;
    const through = m.msgs.filter((q) => q.rows.some((r) => r.node === x)).length;
    // each wired input's buffer: full intervals are kept under the link feeding it (c104_model.ts)
    let rows = '';
    peers(t)[x]!.forEach((p, k) => {
      if (!p) return;
      const id = 'ep' in p ? endpointLink(t, p.ep, p.m) : switchLink(p.sw, p.link);
      rows += td([`in${k}`, coveredUpTo(m.full, id, m.tEnd), m.full.off[id + 1]! - m.full.off[id]!]);
    });
    return `<h3>${unitName(m, x)}</h3><table>${td(['switch-level packets through it', through])}</table><table><tr><th>input</th><th>buffer full cycles</th><th>times full</th></tr>${rows}</table>`;
  }
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
  const rows = q.rows.map((r) => td([m.c104 ? unitName(m, r.node) : r.node, r.unit, fmt(r.arrive), fmt(r.grant), fmt(r.forward), r.arrive >= 0 && r.forward >= 0 ? r.forward - r.arrive : '–'])).join('');
  const ep = (e: number): string => (m.c104 ? (m.c104.endpoints[e]?.name ?? '?') : `node ${e}`);
  if (m.c104) return `<h3>switch-level packet ${id}: ${ep(q.src)} → ${ep(q.dest)}</h3><table>${td(['head at the first switch', fmt(q.queued)])}${td(['head at the endpoint', fmt(q.complete)])}</table><p>per switch (${m.unit}):</p><table class="hops"><tr><th>switch</th><th>input</th><th>head arrives</th><th>grant</th><th>forwarded</th><th>in switch</th></tr>${rows}</table>`;
  return `<h3>message ${id}: ${ep(q.src)} → ${ep(q.dest)}</h3><table>${td(['queued', fmt(q.queued)])}${td(['first packet delivered', fmt(q.first)])}${td(['complete', fmt(q.complete)])}${td(['packets', q.packets])}</table><p>packet 0, per hop (${m.unit}):</p><table class="hops"><tr><th>node</th><th>unit</th><th>head arrives</th><th>grant</th><th>forwarded</th><th>in unit</th></tr>${rows}</table>`;
}

/** C104: a T9000 message and every switch-level packet linked to it (data and acks), per switch. */
export function t9000MessageInfo(m: ViewModel, id: number, clicked = -1): string {
  const q = m.messages?.find((x) => x.id === id);
  if (!q) return `<h3>T9000 message ${id}</h3><p>not in the trace</p>`;
  const ep = (e: number): string => m.c104?.endpoints[e]?.name ?? '?';
  const rows = q.rows
    .map((r) => td([r.pkt ?? '', unitName(m, r.node), r.unit, fmt(r.arrive), fmt(r.grant), fmt(r.forward), r.arrive >= 0 && r.forward >= 0 ? r.forward - r.arrive : '–']).replace('<tr>', `<tr class="${r.pkt?.startsWith('ack') ? 'ack' : 'data'}">`))
    .join('');
  const from = clicked >= 0 ? `<p>switch-level packet #${clicked} is one of them.</p>` : '';
  return `<h3>T9000 message ${id}: ${ep(q.src)} → ${q.dest < 0 ? '(not delivered)' : ep(q.dest)}</h3>${from}<table>${td(['queued', fmt(q.queued)])}${td(['first packet delivered', fmt(q.first)])}${td(['complete', fmt(q.complete)])}${td(['data packets seen in the switches', q.packets])}</table><p>its packets (data and acks, #switch-level number), per switch (${m.unit}):</p><table class="hops"><tr><th>packet</th><th>switch</th><th>input</th><th>head arrives</th><th>grant</th><th>forwarded</th><th>in switch</th></tr>${rows}</table>`;
}
