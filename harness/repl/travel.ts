/**
 * REPL time travel: automatic checkpoints, replay of the stimulus log,
 * back, named checkpoints (checkpoint, restore), hash; see engine.ts for
 * what a jump resets.
 */
import type { Snapshot } from '../../rtl/kernel/index.ts';
import { nearestNames } from '../../rtl/kernel/names.ts';
import { errorText, ReplError, type CommandDef, type NamedCheckpoint, type Packed } from './common.ts';
import { loadCheckpointFile, saveCheckpointFile } from './savefile.ts';
import type { ReplEngine } from './engine.ts';
import type { Ref } from './expr.ts';

const PAGE = 1024;
const MAX_AUTOS = 64;

function equalArrays(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

export function pack(s: Snapshot, prev: Packed | undefined): Packed {
  const { mems, ...base } = s;
  const pages = mems.map((m, k) => {
    const prevPages = prev?.pages[k];
    const out: Float64Array[] = [];
    for (let a = 0, j = 0; a < m.length; a += PAGE, j++) {
      const view = m.subarray(a, Math.min(m.length, a + PAGE));
      const old = prevPages?.[j];
      out.push(old && equalArrays(old, view) ? old : view.slice());
    }
    return out;
  });
  return { cycle: s.cycle, base, pages, depths: mems.map((m) => m.length) };
}

export function unpack(p: Packed): Snapshot {
  const mems = p.depths.map((d, k) => {
    const a = new Float64Array(d);
    p.pages[k]!.forEach((pg, j) => a.set(pg, j * PAGE));
    return a;
  });
  return { ...p.base, mems };
}

export function travelCommands(e: ReplEngine): CommandDef[] {
  return [
    {
      name: 'checkpoint',
      aliases: ['cp'],
      usage: 'checkpoint [name] | checkpoint save <file> | checkpoint load <file>',
      summary: 'save the whole state under a name (default c1, c2, ...), or in a file for a later session',
      help: [
        'checkpoint save FILE writes the configuration, the cycle, the state hash and the stimulus typed since',
        'cycle 0 (JSON); checkpoint load FILE replays them from cycle 0 and checks the hash. A load replaces',
        'the current history; breakpoints, displays and named checkpoints stay.',
      ],
      maxArgs: 2,
      arg: 'file',
      words: ['save', 'load'],
      run: async (a) => {
        if (a[0] === 'save' || a[0] === 'load') {
          if (a[1] === undefined) throw new ReplError(`checkpoint ${a[0]}: which file?`);
          if (a[0] === 'save') saveCheckpointFile(e, a[1]);
          else await loadCheckpointFile(e, a[1]);
        } else cmdCheckpoint(e, a[0], a[1]);
      },
    },
    {
      name: 'restore',
      aliases: ['rs'],
      usage: 'restore <name>',
      summary: 'go back (or forward) to a named checkpoint',
      help: ['The history (auto checkpoints, typed stimulus) of that checkpoint comes back with it.'],
      maxArgs: 1,
      arg: 'checkpoint',
      run: (a) => cmdRestore(e, a[0]),
    },
    {
      name: 'back',
      aliases: ['reverse-step', 'rstep'],
      usage: 'back [n]',
      summary: 'reverse step n cycles (default 1): restore the nearest checkpoint and replay',
      help: [
        'The state afterwards is exactly the one the model had at that cycle (state hash included),',
        'with the commands typed at that cycle applied. Commands typed later are forgotten.',
      ],
      maxArgs: 1,
      arg: 'none',
      run: (a) => {
        const n = e.intArg(a[0], 'cycle count', 1, Number.MAX_SAFE_INTEGER, 1);
        if (n > e.sim.cycle) throw new ReplError(`back ${n}: only ${e.sim.cycle} cycles have run`);
        const from = e.sim.cycle;
        const r = travel(e, from - n);
        e.emit(`cycle ${e.sim.cycle} (back ${n} from ${from}: checkpoint at cycle ${r.from}, ${r.replayed} cycles replayed)`);
      },
    },
    {
      name: 'hash',
      aliases: [],
      usage: 'hash',
      summary: 'the state hash (every register, wire and memory word)',
      help: ['Equal states give equal hashes: compare before and after back.'],
      maxArgs: 0,
      arg: 'none',
      run: () => e.emit(`cycle ${e.sim.cycle} state ${e.sim.stateHash()}`),
    },
  ];
}

export function autoCheckpoint(e: ReplEngine): void {
  const last = e.autos[e.autos.length - 1];
  e.autos.push({ snap: pack(e.sim.save(), last?.snap), logLen: e.log.length });
  e.nextAutoAt = e.sim.cycle + e.every;
  if (e.autos.length > MAX_AUTOS) {
    // Thin out: keep cycle 0, the newest and every other one; the interval doubles.
    const n = e.autos.length;
    e.autos = e.autos.filter((_, k) => k === 0 || k === n - 1 || k % 2 === 0);
    e.every *= 2;
  }
}

/** Step `k` cycles; on a model error put the model back at the start of the failing cycle and report. */
export function stepSafe(e: ReplEngine, k: number): void {
  try {
    e.sim.step(k);
  } catch (err) {
    const failed = e.sim.cycle;
    let where = '';
    try {
      travel(e, failed);
      where = `; the model is back at cycle ${failed}, before the failing clock edge (use back, poke or restore)`;
    } catch (e2) {
      where = `; the model could not be restored (${errorText(e2)})`;
    }
    throw new ReplError(`${errorText(err)}${where}`);
  }
  if (e.sim.cycle >= e.nextAutoAt) autoCheckpoint(e);
}

/**
 * Apply the logged commands from index `from` and step to `target`
 * (commands typed at `target` included). `onChunk(a, b)`: the cycles
 * a+1..b were just simulated (values are constant over a multi-cycle
 * chunk). Returns the index of the first command not applied.
 */
export function replay(e: ReplEngine, from: number, target: number, onChunk?: (a: number, b: number) => void): number {
  const sim = e.sim;
  let i = from;
  for (;;) {
    while (i < e.log.length && e.log[i]!.cycle <= sim.cycle) {
      e.log[i]!.apply();
      i++;
    }
    if (sim.cycle >= target) return i;
    const stop = Math.min(target, i < e.log.length ? e.log[i]!.cycle : Infinity);
    const a = sim.cycle;
    if (onChunk) {
      const k = sim.quiescent ? Math.max(1, Math.min(stop, sim.nextStimulus) - a) : 1;
      sim.step(k);
      onChunk(a, sim.cycle);
    } else sim.step(stop - a);
  }
}

export function lastAutoAtOrBefore(e: ReplEngine, cycle: number): number {
  let k = e.autos.length - 1;
  while (k > 0 && e.autos[k]!.snap.cycle > cycle) k--;
  return k;
}

/** Go to an earlier cycle (or the current one): restore + replay; forget later history. */
export function travel(e: ReplEngine, target: number): { from: number; replayed: number } {
  if (target > e.sim.cycle) throw new ReplError(`cannot travel forward to cycle ${target} (now ${e.sim.cycle}): use run`);
  const k = lastAutoAtOrBefore(e, target);
  const cp = e.autos[k]!;
  const oldEvents = e.events;
  e.detachInstruments();
  e.sim.restore(unpack(cp.snap));
  e.newRecorder(oldEvents.filter((ev) => ev.t < cp.snap.cycle));
  const applied = replay(e, cp.logLen, target);
  e.autos.length = k + 1;
  e.log.length = applied;
  e.nextAutoAt = cp.snap.cycle + e.every;
  if (e.nextAutoAt <= e.sim.cycle) autoCheckpoint(e);
  e.attachInstruments(true);
  for (const b of e.bps) if (b.type === 'watch') b.prev = b.refs.map((r) => r.read());
  return { from: cp.snap.cycle, replayed: target - cp.snap.cycle };
}

/**
 * Values of `refs` over cycles now-n+1..now, by replaying from a
 * checkpoint; the model ends exactly where it was (same state, same
 * recorder, same history).
 */
export function history(e: ReplEngine, refs: Ref[], n: number): { first: number; values: number[][] } {
  const sim = e.sim;
  const now = sim.cycle;
  const first = Math.max(0, now - n + 1);
  const values: number[][] = refs.map(() => []);
  const record = (times: number): void => {
    refs.forEach((r, k) => {
      const v = r.read();
      for (let t = 0; t < times; t++) values[k]!.push(v);
    });
  };
  const here = sim.save();
  e.detachInstruments();
  try {
    const k = lastAutoAtOrBefore(e, first);
    sim.restore(unpack(e.autos[k]!.snap));
    const i = replay(e, e.autos[k]!.logLen, first);
    record(1);
    replay(e, i, now, (a, b) => record(b - a));
  } finally {
    sim.restore(here);
    e.attachInstruments(false);
  }
  return { first, values };
}


export function cmdCheckpoint(e: ReplEngine, nameArg: string | undefined, extra?: string): void {
  let name = nameArg;
  if (name !== undefined && !/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name)) throw new ReplError(`checkpoint: bad name '${name}' (letters, digits, _ . -)`);
  if (extra !== undefined) throw new ReplError(`checkpoint: unexpected '${extra}' (usage: checkpoint [name] | checkpoint save <file> | checkpoint load <file>)`);
  if (name === undefined) {
    do name = `c${++e.namedCounter}`;
    while (e.named.has(name));
  }
  const old = e.named.get(name);
  e.named.set(name, takeCheckpoint(e, name));
  e.emit(`checkpoint ${name} at cycle ${e.sim.cycle}${old ? ` (replaces the one at cycle ${old.snap.cycle})` : ''}`);
}

export function cmdRestore(e: ReplEngine, name: string | undefined): void {
  if (name === undefined) throw new ReplError(`restore: which checkpoint?${e.named.size ? ` (${[...e.named.keys()].join(', ')})` : ' (none saved: checkpoint [name])'}`);
  const cp = e.named.get(name);
  if (!cp) {
    const near = nearestNames(name, [...e.named.keys()]);
    throw new ReplError(`restore: no checkpoint '${name}'${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}${e.named.size ? `; have ${[...e.named.keys()].join(', ')}` : ''}`);
  }
  const from = e.sim.cycle;
  restoreCheckpoint(e, cp);
  e.emit(`restored checkpoint ${name}: cycle ${e.sim.cycle} (was ${from})`);
}

/** The whole state with its history (auto checkpoints, stimulus log, events). */
export function takeCheckpoint(e: ReplEngine, name: string): NamedCheckpoint {
  const last = e.autos[e.autos.length - 1]!.snap;
  return { name, snap: pack(e.sim.save(), last), autos: e.autos.slice(), log: e.log.slice(), events: e.events.slice() };
}

/** Put the model and its history back as `cp` holds them; the recorder is rebuilt (engine.ts). */
export function restoreCheckpoint(e: ReplEngine, cp: NamedCheckpoint): void {
  e.detachInstruments();
  e.sim.restore(unpack(cp.snap));
  e.autos = cp.autos.slice();
  e.log = cp.log.slice();
  e.nextAutoAt = e.autos[e.autos.length - 1]!.snap.cycle + e.every;
  e.newRecorder(cp.events.filter((ev) => ev.t < cp.snap.cycle));
  e.attachInstruments(true);
  for (const b of e.bps) if (b.type === 'watch') b.prev = b.refs.map((r) => r.read());
}

export function checkpointStats(e: ReplEngine): string[] {
  const seen = new Set<Float64Array>();
  let bytes = 0;
  const add = (p: Packed): void => {
    bytes += p.base.state.byteLength;
    for (const list of p.pages) for (const pg of list) if (!seen.has(pg)) (seen.add(pg), (bytes += pg.byteLength));
  };
  for (const a of e.autos) add(a.snap);
  for (const n of e.named.values()) add(n.snap);
  return [`checkpoints: ${e.autos.length} automatic (every ${e.every} cycles), ${e.named.size} named; about ${(bytes / 1e6).toFixed(1)} MB; ${e.log.length} stimulus command(s) in the replay log`];
}
