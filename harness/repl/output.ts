/** REPL output and settings: vcd, stats, set, assert, echo. */
import { planVcd, startVcdOutput, type VcdOutput } from '../cli/vcd-output.ts';
import { ReplError, type CommandDef } from './common.ts';
import type { ReplEngine } from './engine.ts';
import { witness } from './expr.ts';
import { checkpointStats } from './travel.ts';
import { statsView } from './views.ts';

const SET_USAGE = 'set run-limit <n> | set checkpoint-every <n> | set width <n> | set print-limit <n>';

export function outputCommands(e: ReplEngine): CommandDef[] {
  return [
    {
      name: 'vcd',
      aliases: [],
      usage: 'vcd start <file> [globs] | vcd stop',
      summary: 'dump a VCD waveform file (default: everything under the scope) from now on',
      help: ['Open it with gtkwave or surfer. State registers get string twins with their state names.'],
      arg: 'file',
      words: ['start', 'stop'],
      run: (a) => cmdVcd(e, a),
    },
    {
      name: 'stats',
      aliases: [],
      usage: 'stats',
      summary: 'cycles, work, messages, events, link utilisation, checkpoints',
      help: [],
      maxArgs: 0,
      arg: 'none',
      run: () => e.emit(...statsView(e.view, checkpointStats(e))),
    },
    {
      name: 'set',
      aliases: [],
      usage: SET_USAGE,
      summary: 'settings',
      help: [],
      maxArgs: 2,
      arg: 'none',
      words: ['run-limit', 'checkpoint-every', 'width', 'print-limit'],
      run: (a) => cmdSet(e, a),
    },
    {
      name: 'assert',
      aliases: [],
      usage: 'assert <condition>',
      summary: 'error unless the condition holds now (for scripts)',
      help: [],
      arg: 'expr',
      run: (_a, rest) => {
        const cond = e.compile(rest);
        const w: string[] = [];
        if (!cond.test(w)) {
          const vals = cond.refs.slice(0, 6).map((r) => witness(r, r.read()));
          throw new ReplError(`assertion failed at cycle ${e.sim.cycle}: ${rest}${vals.length ? `  [${vals.join(', ')}]` : ''}`);
        }
        e.emit(`ok: ${rest}`);
      },
    },
    {
      name: 'echo',
      aliases: [],
      usage: 'echo <text>',
      summary: 'print text (for scripts)',
      help: [],
      arg: 'none',
      run: (_a, rest) => e.emit(rest),
    },
  ];
}

export function cmdVcd(e: ReplEngine, a: string[]): void {
  if (a[0] === 'stop') {
    if (!e.vcd) throw new ReplError('vcd stop: no VCD is being written');
    e.vcd.writer.close();
    e.emit(`vcd: closed ${e.vcd.path}${e.vcd.writer.gtkwPath ? `; save file ${e.vcd.writer.gtkwPath}` : ''}`);
    e.vcd = undefined;
    return;
  }
  if (a[0] !== 'start' || a[1] === undefined) throw new ReplError('usage: vcd start <file> [globs] | vcd stop');
  if (e.vcd) throw new ReplError(`vcd start: already writing ${e.vcd.path} (vcd stop first)`);
  const path = a[1];
  const globs = a.slice(2).map((g) => {
    for (const cand of e.candidatesFor(g)) {
      try {
        if (e.sim.glob(cand).length) return cand;
      } catch (err) {
        throw new ReplError((err as Error).message);
      }
    }
    throw new ReplError(`vcd start: no signal matches '${g}'`);
  });
  const signals = globs.length ? globs : [e.scope ? `${e.scope}.**` : '**'];
  let writer: VcdOutput;
  try {
    writer = startVcdOutput(e.sim, planVcd('vcd', path, ''), { signals, stateStrings: true, comment: `icemu repl (${e.configName}), from cycle ${e.sim.cycle}` });
  } catch (err) {
    throw new ReplError(`vcd start: ${(err as Error).message}`);
  }
  e.vcd = { writer, path };
  e.emit(`vcd: writing ${path} (${signals.join(', ')}) from cycle ${e.sim.cycle}; vcd stop closes it${writer.gtkwPath ? ` and writes ${writer.gtkwPath}` : ''}`);
}

export function cmdSet(e: ReplEngine, a: string[]): void {
  const [k, v] = a;
  if (k === 'run-limit') e.runLimit = e.intArg(v, 'run-limit', 1, Number.MAX_SAFE_INTEGER);
  else if (k === 'checkpoint-every') {
    e.every = e.intArg(v, 'checkpoint-every', 10, 1e9);
    e.nextAutoAt = e.autos[e.autos.length - 1]!.snap.cycle + e.every;
  } else if (k === 'width') e.width = e.intArg(v, 'width', 20, 1000);
  else if (k === 'print-limit') e.printLimit = e.intArg(v, 'print-limit', 1, 1_000_000);
  else throw new ReplError(`usage: ${SET_USAGE}`);
  e.emit(`${k} = ${v}`);
}
