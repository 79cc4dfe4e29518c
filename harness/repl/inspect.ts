/** REPL views of the network: trace, wave, cam, queues, links, deadlock, messages (rendering in views.ts). */
import { Signal } from '../../rtl/kernel/index.ts';
import { ReplError, type CommandDef } from './common.ts';
import type { ReplEngine } from './engine.ts';
import { parseInteger } from './expr.ts';
import { renderWave, type WaveRow } from './format.ts';
import { history } from './travel.ts';
import { camView, checkNode, checkUnit, deadlockView, linksView, messagesView, queuesView } from './views.ts';

export function viewCommands(e: ReplEngine): CommandDef[] {
  return [
    {
      name: 'trace',
      aliases: [],
      usage: 'trace on|off [node | scope]',
      summary: 'one line per cycle for a node while running (trace off: all)',
      help: ['Columns: PBUs (input/output/framing state, free rows, packet), links, slots, node input port, control unit.', 'The legend is printed when a trace is switched on.'],
      arg: 'node',
      words: ['on', 'off'],
      run: (a) => cmdTrace(e, a),
    },
    {
      name: 'wave',
      aliases: ['wv'],
      usage: 'wave <names | globs> ... [cycles]',
      summary: 'ASCII waveform of the last cycles (default 40), replayed from a checkpoint',
      help: ['1-bit signals draw as _/‾\\, vectors as X<value> at each change (state names for FSM registers).'],
      arg: 'signal',
      run: (a) => cmdWave(e, a),
    },
    {
      name: 'cam',
      aliases: [],
      usage: 'cam [node] [unit]',
      summary: 'the CAM of a packet buffer unit: rows as fields, packets as source/destination/length',
      help: ['cam 3 1 or cam node3 pbu1; without arguments, the PBU of the scope (cd node3.pbu1).'],
      maxArgs: 2,
      arg: 'node',
      run: (a) => {
        // default: the node / PBU of the current scope (cd node3.pbu1; cam)
        const m = /^node(\d+)(?:\.pbu(\d+))?/.exec(e.scope);
        const x = a[0] ?? (m ? m[1] : undefined);
        const i = a[1] ?? (m && a[0] === undefined ? m[2] : undefined);
        e.emit(...camView(e.view, checkNode(e.cube, x, 'cam'), checkUnit(e.cube, i, 'cam')));
      },
    },
    {
      name: 'queues',
      aliases: ['qs'],
      usage: 'queues [node]',
      summary: "a node's send queues, output port slots, input FIFO, receive engine and PBUs",
      help: [],
      maxArgs: 1,
      arg: 'node',
      run: (a) => e.emit(...queuesView(e.view, checkNode(e.cube, a[0] ?? /^node(\d+)/.exec(e.scope)?.[1], 'queues'))),
    },
    {
      name: 'links',
      aliases: ['l'],
      usage: 'links [all]',
      summary: 'which links carry bits, which are held or blocked (all: idle ones too)',
      help: [],
      maxArgs: 1,
      arg: 'none',
      words: ['all'],
      run: (a) => {
        if (a[0] !== undefined && a[0] !== 'all') throw new ReplError(`links: unexpected '${a[0]}' (links [all])`);
        e.emit(...linksView(e.view, a[0] === 'all'));
      },
    },
    {
      name: 'deadlock',
      aliases: ['dl'],
      usage: 'deadlock',
      summary: 'if the network is stuck, print the cycle of waiting units',
      help: ['harness/rtl/deadlock.ts: the largest set of full packet buffer units all waiting on each other.'],
      maxArgs: 0,
      arg: 'none',
      run: () => {
        e.emit(...deadlockView(e.view));
        if (e.eventFile?.noteDeadlock()) e.emit(`events: the ring is recorded in ${e.eventFile.path}`);
      },
    },
    {
      name: 'messages',
      aliases: ['msgs'],
      usage: 'messages',
      summary: 'sends and receives issued so far and their completion flags',
      help: [],
      maxArgs: 0,
      arg: 'none',
      run: () => e.emit(...messagesView(e.view)),
    },
  ];
}

export function cmdTrace(e: ReplEngine, a: string[]): void {
  const onoff = a[0];
  if (onoff !== 'on' && onoff !== 'off') throw new ReplError('usage: trace on|off [node]');
  let node: number | undefined;
  if (a[1] !== undefined) node = checkNode(e.cube, /^node\d+\./.test(a[1]) ? a[1].slice(0, a[1].indexOf('.')) : a[1], 'trace');
  else {
    const m = /^node(\d+)/.exec(e.scope);
    if (m) node = Number(m[1]);
  }
  if (onoff === 'off') {
    const which = node === undefined ? [...e.traces.keys()] : [node];
    for (const x of which) {
      const t = e.traces.get(x);
      if (!t) throw new ReplError(`trace off: node ${x} is not traced`);
      t.detach?.();
      e.traces.delete(x);
    }
    e.emit(which.length ? `trace off: ${which.map((x) => `node${x}`).join(', ')}` : 'no traces were on');
    return;
  }
  if (node === undefined) throw new ReplError('trace on: which node? (trace on 3, or cd into a node first)');
  if (e.traces.has(node)) throw new ReplError(`trace on: node ${node} is already traced`);
  const trace = e.makeTrace(node);
  e.traces.set(node, { node, trace, detach: trace.detach });
  e.emit(`trace on: node${node}, one line per cycle while running`, ...trace.legend().split('\n').map((l) => e.c.dim(l)));
}

export function cmdWave(e: ReplEngine, a: string[]): void {
  if (!a.length) throw new ReplError('usage: wave <names | globs> ... [cycles]');
  let n = 40;
  const last = a[a.length - 1]!;
  let globs = a;
  if (a.length > 1 && parseInteger(last) !== undefined) {
    n = e.intArg(last, 'cycles', 1, 2000);
    globs = a.slice(0, -1);
  }
  const sigs: Signal[] = [];
  for (const g of globs) for (const h of e.lookup(g)) if (h instanceof Signal && !sigs.includes(h)) sigs.push(h);
  if (!sigs.length) throw new ReplError('wave: only memories matched; name signals');
  if (sigs.length > 48) throw new ReplError(`wave: ${sigs.length} signals match; at most 48`);
  const refs = sigs.map((s) => e.sigRef(s));
  const h = history(e, refs, n);
  const rows: WaveRow[] = sigs.map((s, k) => ({ name: e.rel(s.path), sig: s, values: h.values[k]! }));
  e.emit(`cycles ${h.first}..${e.sim.cycle}`, ...renderWave(e.sim, rows, h.first, e.width, e.c));
}
