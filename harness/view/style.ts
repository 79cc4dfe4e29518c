/** The page's style sheet (inlined by html.ts). */
export const PAGE_CSS = `
body { font: 13px system-ui, sans-serif; margin: 0; color: #222; background: #fafafa; }
header { padding: 6px 10px; background: #263238; color: #eee; }
#controls { padding: 6px 10px; display: flex; flex-wrap: wrap; gap: 8px; align-items: center; border-bottom: 1px solid #ccc; }
#controls input[type=number] { width: 7em; }
#slider { flex: 1 1 100%; }
#status { flex: 1 1 100%; color: #555; }
main { display: flex; gap: 10px; padding: 8px; }
#stage { flex: 1 1 auto; min-width: 0; }
#net { width: 100%; height: auto; max-height: 86vh; background: #fff; border: 1px solid #ddd; }
aside { flex: 0 0 330px; }
aside h3 { margin: 10px 0 4px; font-size: 13px; }
.link { fill: none; stroke-width: 3.5; cursor: pointer; }
.link[data-occ="0.000"] { stroke-opacity: 0.3; stroke-width: 2; }
.big .link { stroke-width: 2.5; }
.link.held { stroke-dasharray: 4 3; stroke-width: 5; }
.link.path { stroke-width: 6; filter: drop-shadow(0 0 2px #1565c0); }
.node circle { fill: #37474f; stroke: #fff; stroke-width: 1.5; cursor: pointer; }
.node text { fill: #fff; font-size: 8px; text-anchor: middle; pointer-events: none; }
.node rect { fill: #6d4c41; stroke: #fff; stroke-width: 1.5; cursor: pointer; }
.switch text, .endpoint text { fill: #37474f; font-size: 9px; }
.full { fill: #ff6f00; stroke: #000; stroke-width: 1; }
.pkt { fill: #111; stroke: #fff; stroke-width: 1.2; cursor: pointer; }
.ring-path { fill: rgba(211,47,47,0.08); stroke: #d32f2f; stroke-width: 3; stroke-dasharray: 7 4; }
.ring-unit { fill: none; stroke: #d32f2f; stroke-width: 2.5; }
#info table { border-collapse: collapse; margin: 4px 0; }
#info td, #info th { padding: 1px 6px; border-bottom: 1px solid #eee; text-align: right; }
#info td:first-child, #info th:first-child { text-align: left; }
.axis { font-size: 9px; fill: #555; }
.axis.end { text-anchor: end; } .axis.mid { text-anchor: middle; }
.bar { fill: #5c6bc0; }
.legend { color: #555; font-size: 11px; }
`;
