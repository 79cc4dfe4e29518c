/**
 * `icemu view <events.jsonl> [--out page.html]`: one self-contained HTML
 * page replaying a run recorded with `--events` (harness/view/).
 */
import { realpathSync } from 'node:fs';
import { basename } from 'node:path';
import { UsageError, type CommandSpec, type ParsedOptions } from '../cli/args.ts';
import { loadModel, ViewInputError } from '../view/load.ts';
import { renderPage } from '../view/html.ts';
import { outputFile, writeText } from '../cli/output-path.ts';

const spec: CommandSpec = {
  name: 'view',
  summary: 'write a self-contained HTML page that replays an event trace (icemu buzzard|c104 --events, repl events start)',
  usage: 'icemu view <events.jsonl> [--out page.html]',
  description: [
    'Reads an event trace recorded with --events and writes one HTML file (no server, works',
    'offline): the network drawn as an n-cube, links coloured by occupancy, packets moving',
    'hop by hop, held links and full buffers, deadlock rings, a timeline, message following,',
    'a link-utilisation heat map and the latency histogram. Cubes above degree 6 are drawn',
    'as one 6-subcube (--subcube). A C104 trace (icemu c104 --events) is drawn as its mesh',
    'grid (each node a T9000 beside its switch) or, for other presets, switches on a circle;',
    'clicking a switch packet follows its T9000 message (all its data packets and acks).',
    "Traces recorded in icemu repl (events start FILE ... events stop) open the same way.",
  ].join('\n'),
  positionals: [{ name: 'events.jsonl', description: 'an event trace recorded with --events (icemu buzzard, icemu c104) or the REPL (events start)' }],
  options: [
    { name: 'out', short: 'o', type: 'string', arg: 'FILE', description: 'the page to write (default: the trace name with .html)' },
    { name: 'subcube', type: 'int', default: 0, min: 0, max: 1023, description: 'for cubes above degree 6: which 6-subcube to draw (node bits 6.. of its nodes)' },
  ],
  examples: ['icemu buzzard --n 3 --cycles 20000 --events out/c3.jsonl --no-vcd', 'icemu view out/c3.jsonl --out out/c3.html'],
};

/** The two paths reach one file (symlinks followed; a path that does not exist yet is no file). */
function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

function run(opts: ParsedOptions, positionals: string[]): number {
  if (positionals.length !== 1) throw new UsageError(`icemu view: expected one trace file (got ${positionals.length}); usage: ${spec.usage}`);
  const trace = positionals[0]!;
  const out = (opts.out as string | undefined) ?? trace.replace(/\.jsonl?$/, '') + '.html';
  const target = outputFile('out', out); // checked before any work (harness/cli/output-path.ts)
  // `--out` naming the trace itself would replace the user's trace with the page.
  if (!target.inPlace && sameFile(trace, target.target)) throw new UsageError(`icemu view: --out ${out} is the trace being read (name another file for the page)`);
  let m;
  try {
    m = loadModel(trace);
  } catch (e) {
    if (e instanceof ViewInputError) throw new UsageError(`icemu view: ${e.message}`);
    throw e;
  }
  m.title = basename(trace);
  const sub = opts.subcube as number;
  if (sub !== 0 && !(m.n > 6)) throw new UsageError(`icemu view: --subcube goes with Buzzard traces of cubes above degree 6 (this trace: ${m.n ? `a ${m.n}-cube` : 'not an n-cube'})`);
  if (m.n > 6 && sub >= 1 << (m.n - 6)) throw new UsageError(`icemu view: --subcube must be in 0..${(1 << (m.n - 6)) - 1} for a ${m.n}-cube (got ${sub})`);
  writeText(target, renderPage(m, { sub: m.n > 6 ? sub : 0 }), 'out');
  console.log(`icemu view: ${out} (${m.nodes} nodes, ${m.pkt.msg.length} packets, ${m.tEnd + 1} ${m.unit})`);
  return 0;
}

export const viewCommand = { spec, run };
