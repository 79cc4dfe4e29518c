/// <reference lib="dom" />
/**
 * The network picture (SVG): links coloured by occupancy, held links
 * dashed, full PBUs as squares at the receiving end of their link, packets
 * as marks near the head end of the link they last entered, a message's
 * path highlighted, and recorded deadlock rings. Every drawn state is also in
 * the DOM as attributes (data-occ, class held/full/path, data-msg…), which is
 * what the browser tests read.
 */
import { linkEnds, type ViewModel } from '../model.ts';
import { ringLink } from '../c104_model.ts';
import type { StateAt } from '../replay.ts';
import { along, c104Layout, layout, occColour, pathD, type Layout, type Pt } from './layout.ts';

const NS = 'http://www.w3.org/2000/svg';
export function el<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, parent?: Element): SVGElementTagNameMap[K] {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  parent?.appendChild(e);
  return e;
}

export interface Picks {
  link(l: number): void;
  node(x: number): void;
  packet(msg: number): void;
  /** C104: a packet linked to T9000 message `msg` was clicked (`pkt`: its switch-level number). */
  message(msg: number, pkt: number): void;
}

export class NetworkPicture {
  readonly lay: Layout;
  readonly svg: SVGSVGElement;
  private readonly linkEl = new Map<number, SVGPathElement>();
  private readonly fullEl = new Map<number, SVGRectElement>();
  private readonly marks: SVGGElement;
  private readonly ringLayer: SVGGElement;
  private readonly markPool = new Map<number, SVGCircleElement>();
  private lastOcc = new Map<number, string>();
  private ringKey = '';

  constructor(readonly m: ViewModel, host: Element, picks: Picks, sub = 0) {
    const c104 = m.c104 ? c104Layout(m.c104) : undefined;
    this.lay = c104 ?? layout(m.n, sub);
    const svg = (this.svg = el('svg', { id: 'net', viewBox: `0 0 ${this.lay.width.toFixed(0)} ${this.lay.height.toFixed(0)}` }, host));
    if (m.n > 4 || m.nodes > 40) svg.classList.add('big');
    const linkLayer = el('g', { class: 'links' }, svg);
    for (const [l, geom] of this.lay.links) {
      const ends = linkEnds(m, l);
      const p = el('path', { d: pathD(geom), class: 'link', 'data-link': l, 'data-node': ends.node, 'data-port': ends.port, stroke: occColour(0), 'data-occ': '0' }, linkLayer);
      p.addEventListener('click', () => picks.link(l));
      this.linkEl.set(l, p);
    }
    const nodeLayer = el('g', { class: 'nodes' }, svg);
    for (const x of this.lay.nodes) {
      const q = this.lay.pos.get(x)!;
      const g = el('g', { class: 'node', 'data-node': x }, nodeLayer);
      if (c104 && x < m.c104!.switches.length) {
        // a C104 switch: a square, named below
        g.classList.add('switch');
        g.setAttribute('data-switch', String(x));
        el('rect', { x: q.x - 11, y: q.y - 11, width: 22, height: 22 }, g);
        el('text', { x: q.x, y: q.y + 24 }, g).textContent = c104.names.get(x)!;
      } else if (c104) {
        g.classList.add('endpoint');
        g.setAttribute('data-endpoint', String(x - m.c104!.switches.length));
        el('circle', { cx: q.x, cy: q.y, r: 9 }, g);
        el('text', { x: q.x, y: q.y - 13 }, g).textContent = c104.names.get(x)!;
      } else {
        el('circle', { cx: q.x, cy: q.y, r: 9 }, g);
        el('text', { x: q.x, y: q.y + 3.5 }, g).textContent = String(x);
      }
      g.addEventListener('click', () => picks.node(x));
    }
    const fullLayer = el('g', { class: 'fulls' }, svg);
    for (const [l] of this.lay.links) {
      const q = this.pbuPoint(l);
      if (!q) continue;
      this.fullEl.set(l, el('rect', { x: q.x - 4, y: q.y - 4, width: 8, height: 8, class: 'full', 'data-pbu': l, visibility: 'hidden' }, fullLayer));
    }
    this.ringLayer = el('g', { class: 'rings' }, svg);
    this.marks = el('g', { class: 'marks' }, svg);
    this.marks.addEventListener('click', (ev) => {
      const t = ev.target as Element;
      const msg = t.getAttribute('data-msg');
      const tm = Number(t.getAttribute('data-tmsg') ?? -1);
      if (tm >= 0) picks.message(tm, Number(msg));
      else if (msg !== null) picks.packet(Number(msg));
    });
  }

  /** Where PBU id (node·n + i − 1) sits: the receiving end of link i into the node (C104: the input fed by link id). */
  pbuPoint(id: number): Pt | undefined {
    const n = this.m.n;
    if (this.m.c104) {
      // a C104 switch input's buffer: id is the link into it (c104_model.ts)
      const l = this.lay.links.get(id);
      return l ? along(l, 0.86) : undefined;
    }
    const x = Math.floor(id / n);
    const i = (id % n) + 1;
    const from = x ^ (1 << (i - 1));
    const l = this.lay.links.get(from * n + i - 1);
    return l ? along(l, 0.86) : undefined;
  }

  update(s: StateAt): void {
    for (const [l, p] of this.linkEl) {
      const v = s.occupancy[l]!.toFixed(3);
      if (this.lastOcc.get(l) !== v) {
        this.lastOcc.set(l, v);
        p.setAttribute('data-occ', v);
        p.setAttribute('stroke', occColour(s.occupancy[l]!));
      }
      p.classList.toggle('held', s.held[l] === 1);
    }
    for (const [id, r] of this.fullEl) r.setAttribute('visibility', s.full[id] === 1 ? 'visible' : 'hidden');
    const seen = new Set<number>();
    for (const q of s.packets) {
      const geom = this.lay.links.get(q.link);
      if (!geom) continue;
      seen.add(q.p);
      let c = this.markPool.get(q.p);
      if (!c) {
        c = el('circle', { r: 5, class: 'pkt', 'data-msg': q.msg, 'data-packet': q.packet, ...(this.m.tmsg ? { 'data-tmsg': this.m.tmsg[q.p]! } : {}) }, this.marks);
        this.markPool.set(q.p, c);
      }
      const at = along(geom, 0.78 - 0.09 * (q.packet % 4)); // packets of one message queued on a link side by side
      c.setAttribute('cx', at.x.toFixed(1));
      c.setAttribute('cy', at.y.toFixed(1));
      c.setAttribute('data-link', String(q.link));
      c.setAttribute('data-hop', String(q.hop));
    }
    for (const [p, c] of this.markPool) {
      if (!seen.has(p)) {
        c.remove();
        this.markPool.delete(p);
      }
    }
    this.drawRings(s.rings);
  }

  private drawRings(rings: string[][]): void {
    const key = rings.map((r) => r.join(' ')).join('|');
    if (key === this.ringKey) return;
    this.ringKey = key;
    this.ringLayer.replaceChildren();
    const n = this.m.n;
    for (const ring of rings) {
      const pts: Pt[] = [];
      for (const u of ring) {
        const t = this.m.c104;
        // C104: a waiting link `name.linkJ`, drawn at its middle; Buzzard: a PBU `nodeX.pbuI`
        const sl = t ? ringLink(t, u) : null;
        const link = sl ? this.lay.links.get(sl[0] * 32 + sl[1]) : undefined;
        const mm = /node(\d+)\.pbu(\d+)/.exec(u);
        const q = link ? along(link, 0.5) : mm && !t ? this.pbuPoint(Number(mm[1]) * n + Number(mm[2]) - 1) : undefined;
        if (q) pts.push(q);
      }
      if (pts.length < 2) continue;
      const g = el('g', { class: 'ring', 'data-ring': ring.join(' ') }, this.ringLayer);
      el('path', { d: `M${pts.map((q) => `${q.x.toFixed(1)},${q.y.toFixed(1)}`).join(' L')} Z`, class: 'ring-path', 'marker-mid': 'url(#arrow)' }, g);
      for (const [k, q] of pts.entries()) {
        el('circle', { cx: q.x, cy: q.y, r: 7, class: 'ring-unit', 'data-unit': ring[k]! }, g);
      }
    }
  }

  /** Highlight a message's path (links), or nothing. */
  highlight(links: readonly number[]): void {
    const s = new Set(links);
    for (const [l, p] of this.linkEl) p.classList.toggle('path', s.has(l));
  }
}
