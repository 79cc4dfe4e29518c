/**
 * `events start <file>` / `events stop` / `events`: record the session's
 * event trace (traces/events/vocabulary.ts) into a file `icemu view` opens,
 * in the spirit of `vcd start` (gdb's `record`, vvp's $dumpfile): from the
 * cycle it starts to the cycle it stops. The file is written at `events
 * stop` (or when the session ends) through the output-path module, so a bad
 * path is one error line at `events start`.
 *
 * What it holds:
 *  - Buzzard cubes: the session recorder's message and packet events from
 *    the start cycle on, plus link, buffer and deadlock states
 *    (harness/rtl/view_events.ts), header topology `buzzard-ncube`;
 *  - C104 networks (Target.recordEvents, c104_target.ts): switch-level
 *    packets, held links, full buffers and deadlocks
 *    (harness/rtl/c104_events.ts), and, when the recording starts before
 *    the first `send`, the T9000 message events with every switch packet
 *    linked to its T9000 packet (c104_packet_source.ts).
 * `deadlock` adds its ring to the recording when it finds one (once per
 * ring), as does the recorders' own periodic check.
 *
 * Time travel: `back` and `restore` end the recording and write it up to
 * the cycle the session left (the recorders cannot follow a jump); `wave`'s
 * replays pause it (the model returns to the same cycle).
 */
import type { Observer, Simulator } from '../../rtl/kernel/index.ts';
import { outputFile } from '../cli/output-path.ts';
import type { OutputTarget } from '../../traces/files.ts';
import { writeTrace, type TraceEvent, type TraceHeader } from '../../traces/events/vocabulary.ts';
import { attachViewEvents, deadlockEvent } from '../rtl/view_events.ts';
import { findDeadlock } from '../rtl/deadlock.ts';
import { ReplError, type CommandDef } from './common.ts';
import type { ReplEngine } from './engine.ts';

/** What a target records for `events start` (Target.recordEvents). */
export interface RecordedEvents {
  header: TraceHeader;
  /** All events so far, any order (sorted when written). */
  events(): TraceEvent[];
  /** Run the structural deadlock detector; a ring found is recorded once. */
  checkDeadlock(): string[] | null;
  /** A note for the start line (what is and is not recorded). */
  note?: string;
}

export class EventFile {
  readonly from: number;
  private readonly observers: Observer[] = [];
  private detachers: (() => void)[] = [];
  private readonly rec: RecordedEvents;
  private until = -1;

  constructor(
    private readonly e: ReplEngine,
    readonly path: string,
    private readonly target: OutputTarget,
  ) {
    const sim = e.sim;
    this.from = sim.cycle;
    // Catch every observer the recorders attach, so a replay (wave) can take them off and put them back.
    const orig = sim.observe.bind(sim);
    sim.observe = (o: Observer) => {
      this.observers.push(o);
      const d = orig(o);
      this.detachers.push(d);
      return d;
    };
    try {
      this.rec = e.bz ? buzzardEvents(e, sim) : e.target.recordEvents ? e.target.recordEvents(sim) : unsupported(e);
    } finally {
      Reflect.deleteProperty(sim, 'observe');
    }
  }

  get note(): string | undefined {
    return this.rec.note;
  }

  /** Take the recorders off (a replay is about to run). */
  pause(): void {
    if (this.until < 0) this.until = this.e.sim.cycle;
    for (const d of this.detachers) d();
    this.detachers = [];
  }

  /** Put them back (the model is where it was). */
  resume(): void {
    this.until = -1;
    if (!this.detachers.length) this.detachers = this.observers.map((o) => this.e.sim.observe(o));
  }

  /** `deadlock` found a ring: record it (once). */
  noteDeadlock(): boolean {
    return this.rec.checkDeadlock() !== null;
  }

  /** Stop and write the file; returns the line to print. */
  finish(): string {
    const end = this.until >= 0 ? this.until : this.e.sim.cycle;
    this.pause();
    const events = this.rec
      .events()
      .filter((x) => x.t >= this.from && x.t <= end)
      .sort((a, b) => a.t - b.t);
    writeTrace(this.target, this.rec.header, events, 'events');
    return `events: wrote ${this.path} (cycles ${this.from}..${end}, ${events.length} events; open it with icemu view ${this.path})`;
  }
}

function unsupported(e: ReplEngine): never {
  throw new ReplError(`events: a ${e.target.name} session has no network icemu view draws (Buzzard cubes and C104 networks)`);
}

/** Buzzard: the session recorder's events (it is rebuilt on travel: read it at the end) plus link, buffer and deadlock states. */
function buzzardEvents(e: ReplEngine, sim: Simulator): RecordedEvents {
  const cube = e.cube;
  const states: TraceEvent[] = [];
  attachViewEvents(sim, cube, states);
  const rings = new Set<string>();
  const session = e.events;
  return {
    header: { ...e.recorder.header, workload: { source: 'harness/repl', preset: e.configName } },
    events: () => [...session, ...states],
    checkDeadlock: () => {
      const d = findDeadlock(sim, cube);
      if (!d) return null;
      const ev = deadlockEvent(sim.cycle, d);
      const key = ev.ring!.join(' ');
      if (!rings.has(key) && !states.some((x) => x.kind === 'deadlock' && x.ring!.join(' ') === key)) {
        rings.add(key);
        states.push(ev);
      }
      return ev.ring!;
    },
  };
}

export function eventsCommand(e: ReplEngine): CommandDef {
  return {
    name: 'events',
    aliases: [],
    usage: 'events start <file> | events stop | events',
    summary: 'record the event trace (for icemu view) from now on; stop writes the file',
    help: [
      'Messages, packets hop by hop, held links, full buffers and deadlock rings (`deadlock` adds the ring it finds).',
      'back and restore end the recording (the file is written up to the cycle left).',
    ],
    maxArgs: 2,
    arg: 'file',
    words: ['start', 'stop'],
    run: (a) => {
      if (a.length === 0) {
        e.emit(e.eventFile ? `events: recording into ${e.eventFile.path} since cycle ${e.eventFile.from}` : 'events: not recording (events start <file>)');
        return;
      }
      if (a[0] === 'stop') {
        if (!e.eventFile) throw new ReplError('events stop: no event trace is being recorded');
        const f = e.eventFile;
        e.eventFile = undefined;
        e.emit(f.finish());
        return;
      }
      if (a[0] !== 'start' || a[1] === undefined) throw new ReplError('usage: events start <file> | events stop | events');
      if (e.eventFile) throw new ReplError(`events start: already recording into ${e.eventFile.path} (events stop first)`);
      let target: OutputTarget;
      try {
        target = outputFile('events', a[1], '');
      } catch (err) {
        throw new ReplError(`events start: ${(err as Error).message}`);
      }
      const f = new EventFile(e, a[1], target);
      e.eventFile = f;
      e.emit(`events: recording into ${a[1]} from cycle ${f.from}; events stop writes it${f.note ? ` (${f.note})` : ''}`);
    },
  };
}
