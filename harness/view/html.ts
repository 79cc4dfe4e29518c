/**
 * The page generator: one self-contained HTML file (no server, no network:
 * the script is bundled by esbuild from page/*.ts and inlined, the model is
 * inlined as JSON with its typed arrays in base64).
 */
import { buildSync } from 'esbuild';
import { fileURLToPath } from 'node:url';
import type { ViewModel } from './model.ts';
import { PAGE_CSS } from './style.ts';

let bundled: string | undefined;
/** The page script (bundled once per process). */
export function pageScript(): string {
  if (bundled === undefined) {
    const r = buildSync({
      entryPoints: [fileURLToPath(new URL('./page/main.ts', import.meta.url))],
      bundle: true,
      format: 'iife',
      target: 'es2020',
      write: false,
      minify: false,
      legalComments: 'none',
    });
    bundled = r.outputFiles[0]!.text;
  }
  return bundled;
}

/** JSON with typed arrays as {$i32|$f64: base64} (page/decode.ts reverses it). */
export function encodeModel(m: ViewModel, sub: number): string {
  const json = JSON.stringify({ ...m, sub }, (_k, v: unknown) => {
    if (v instanceof Int32Array) return { $i32: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
    if (v instanceof Float64Array) return { $f64: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
    return v;
  });
  return json.replace(/</g, '\\u003c');
}

const CUBE_LEGEND =
  'Link colour: occupancy over the window (grey idle → blue → green → yellow → red busy); dashed: held by flow control; square: PBU CAM full; red ring: deadlock. Black marks: packets, on the link their head last crossed (in the buffer at its end until forwarded).';
const C104_LEGEND =
  'Squares: C104 switches; circles: T9000s (a hunt group of links each way). Link colour: occupancy over the window (grey idle → blue → green → yellow → red busy): a link is busy while a packet head has crossed it and not yet left the unit at its end. Black marks: switch-level packets (data and acks), on the link their head last crossed; followed by their number. Dashed: the link end holds its sender (no credit); small orange square: a switch input buffer with no room for another flow-control grant; red ring: a deadlock (its waiting links). Clicking a packet follows its T9000 message: the paths of all its data packets and acks. The histogram is of T9000 messages, queued → complete.';

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function renderPage(m: ViewModel, opts: { sub?: number } = {}): string {
  const script = pageScript().replace(/<\/script/gi, '<\\/script');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>icemu view: ${esc(m.title)}</title>
<style>${PAGE_CSS}</style></head>
<body>
<header><b>icemu view</b> <span id="title"></span></header>
<div id="controls">
  <button id="play">play</button>
  <label>speed <select id="speed"><option value="100">100</option><option value="1000" selected>1,000</option><option value="10000">10,000</option><option value="100000">100,000</option></select> ${esc(m.unit)}/s</label>
  <button id="back" title="one cycle back">−1</button><button id="fwd" title="one cycle on">+1</button>
  <button id="prevev" title="previous event">◀ event</button><button id="nextev" title="next event">event ▶</button>
  <label>cycle <input id="cycle" type="number" min="0" max="${m.tEnd}" value="0"></label>
  <label>window <select id="window"><option value="100">100</option><option value="500" selected>500</option><option value="2000">2,000</option><option value="10000">10,000</option></select></label>
  <label>follow ${m.c104 ? 'packet' : 'message'} <input id="msg" type="number" min="0" placeholder="id"></label>${m.messages ? ' <label>follow T9000 message <input id="tmsg" type="number" min="0" placeholder="id"></label>' : ''}
  <span id="deadlocks"></span>
  <input id="slider" type="range" min="0" max="${m.tEnd}" value="0">
  <div id="status"></div>
</div>
<main>
  <div id="stage"></div>
  <aside>
    <div id="info"><p>Click a packet to follow its message, a link or node for its counters.</p></div>
    <h3>link utilisation, whole run</h3><div id="heatbox"></div>
    <h3>message latency</h3><div id="histbox"></div>
    <p class="legend">${m.c104 ? C104_LEGEND : CUBE_LEGEND}</p>
  </aside>
</main>
<script type="application/json" id="icemu-data">${encodeModel(m, opts.sub ?? 0)}</script>
<script>${script}</script>
</body></html>
`;
}
