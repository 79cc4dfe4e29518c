/**
 * Buzzard links on serial lines (docs/kernel.md "Buzzard links on serial
 * lines", issue 8). Simulation machinery, not hardware: the units' registers
 * and their step-by-step behaviour are those of the seed (§5.4.2, §5.4.4,
 * §5.4.5, §5.4.8); what changes is when their clocked processes run.
 *
 * In the fast mode a sender (a PBU's output framing, a node output port
 * slot) posts each field it starts (the rest of a head or word, or the level
 * of a sync or start bit) on its own SerialLine; a LinkTap records which
 * sender's line a crossbar output carries from which cycle to which (the
 * connection, made at a grant and ended at a release), so the receiver at
 * the end of that output (the neighbour's PBU, or the node input port) can
 * read the bit of any cycle. The units wake only where the seed's step lists
 * act (a field's last bit, a sync's 0, a refusal point, a refill at 23): the
 * bit-level registers in between (bit counters, shift registers, the line
 * bit) move "silently" and are brought up to date by a catch-up that applies
 * the skipped pure edges exactly as the step would, whenever the unit runs or
 * anyone looks (peek, VCD, REPL: one OnDemand provider per cube).
 *
 * The reference mode (`Simulator` mode 'plain') runs every unit every cycle
 * and its receivers read the bits on the wires as before; the posts and
 * connections are recorded in both modes so either mode can take over
 * between cycles (Simulator.setMode).
 */
import { SimError } from '../kernel/errors.ts';
import { SerialLine } from '../kernel/serial_line.ts';
import type { Module, ProcessDecl, Signal } from '../kernel/module.ts';
import type { OnDemand, Simulator } from '../kernel/simulator.ts';

/** How much line history is kept: receivers catch up at most one field (26 bits) behind. */
const HISTORY = 4096;

/** A unit whose bit-level registers move silently in the fast mode. */
export interface LineUnit {
  /** Apply the pure edges of the cycles not yet applied, up to cycle now-1. */
  catchUp(now: number): void;
  /** A bit-level register changes next cycle without a process run (fast-forward must not skip). */
  shifting(): boolean;
  /** Forget everything (simulator reset to cycle `now`). */
  resetLines(now: number): void;
  save(): unknown;
  restore(v: unknown): void;
}

/** The end of a crossbar output: told when the bits it will carry change. */
export interface LineReceiver {
  lineChanged(from: number): void;
}

interface Conn {
  from: number;
  /** First cycle no longer carried (Infinity while connected). */
  to: number;
  line: SerialLine;
}

/** What one crossbar output carries, cycle by cycle: the connected sender's line, else 0. */
export class LinkTap {
  private conns: Conn[] = [];
  receiver: LineReceiver | null = null;

  constructor(readonly name: string) {}

  open(from: number, line: SerialLine): void {
    const last = this.conns[this.conns.length - 1];
    if (last && last.to > from) throw new SimError('bad-argument', `${this.name}: connection at cycle ${from} while the one from cycle ${last.from} is open`);
    if (this.conns.length > 64 && this.conns[0]!.to < from - HISTORY) {
      // The connections are in time order (each closed before the next opens), so those
      // that ended before the history window are a prefix: dropped in place, the same list
      // a filter made, without a new array and a callback per connection (issue 8).
      const cs = this.conns;
      let k = 1;
      while (k < cs.length && cs[k]!.to < from - HISTORY) k++;
      cs.splice(0, k);
    }
    this.conns.push({ from, to: Infinity, line });
    this.changed(from);
  }

  close(to: number): void {
    const last = this.conns[this.conns.length - 1];
    if (!last || last.to !== Infinity) throw new SimError('bad-argument', `${this.name}: release at cycle ${to - 1} without a connection`);
    last.to = to;
    this.changed(to);
  }

  changed(from: number): void {
    this.receiver?.lineChanged(from);
  }

  private connAt(c: number): Conn | undefined {
    const cs = this.conns;
    for (let k = cs.length - 1; k >= 0; k--) {
      const x = cs[k]!;
      if (x.from <= c) return c < x.to ? x : undefined;
    }
    return undefined;
  }

  bitAt(c: number): number {
    const x = this.connAt(c);
    return x ? x.line.bitAt(c) : 0;
  }

  /**
   * The bits of cycles from..to-1, msb first (to - from <= 26): what a
   * receiver catching up shifts in. One connection usually covers them all.
   */
  bits(from: number, to: number): number {
    const x = this.connAt(from);
    let v = 0;
    if (x && to <= x.to) {
      v = x.line.bitsMsb(from, to);
    } else {
      for (let c = from; c < to; c++) v = v * 2 + this.bitAt(c);
    }
    return v;
  }

  /** Whether a connection is open now. */
  get busy(): boolean {
    const last = this.conns[this.conns.length - 1];
    return last !== undefined && last.to === Infinity;
  }

  /**
   * The first cycle >= from whose bit is `want`, as far as the posts tell;
   * Infinity when not yet known (a later post or connection calls the
   * receiver's lineChanged).
   */
  nextWith(from: number, want: number): number {
    let c = from;
    for (let guard = 0; guard < 256; guard++) {
      const x = this.connAt(c);
      if (!x) {
        if (want === 0) return c;
        return Infinity; // a new connection notifies
      }
      const end = x.line.endOfPosts;
      for (;;) {
        if (c >= end) return Infinity; // not posted yet
        if (x.line.bitAt(c) === want) return c;
        const nc = x.line.nextChange(c);
        if (nc >= x.to) {
          c = x.to;
          break;
        }
        if (nc === Infinity) return Infinity;
        c = nc;
      }
    }
    throw new SimError('bad-argument', `${this.name}: lookahead from cycle ${from} did not settle`);
  }

  save(): unknown {
    return this.conns.map((k) => ({ ...k }));
  }

  restore(v: unknown): void {
    this.conns = (v as Conn[]).map((k) => ({ ...k }));
  }

  reset(): void {
    this.conns = [];
  }
}

/** A sender's line and the crossbar output (tap) it is connected to. */
export class SenderLine {
  readonly line: SerialLine;
  tap: LinkTap | null = null;
  private posts = 0;

  constructor(name: string) {
    this.line = new SerialLine(name);
  }

  /** The top `nbits` of a field, one per cycle from `from` (msb first). */
  send(from: number, word: number, nbits: number): void {
    this.line.send(from, word, nbits);
    this.after(from);
  }

  level(from: number, bit: 0 | 1): void {
    this.line.level(from, bit);
    this.after(from);
  }

  private after(from: number): void {
    this.tap?.changed(from);
    if ((++this.posts & 255) === 0) this.line.forget(from - HISTORY);
  }

  connect(tap: LinkTap, from: number): void {
    this.tap = tap;
    tap.open(from, this.line);
  }

  release(to: number): void {
    this.tap?.close(to);
    this.tap = null;
  }

  save(): unknown {
    return { line: this.line.save(), tap: this.tap };
  }

  restore(v: unknown): void {
    const st = v as { line: ReturnType<SerialLine['save']>; tap: LinkTap | null };
    this.line.restore(st.line);
    this.tap = st.tap;
  }

  reset(): void {
    this.line.restore({ runs: [], horizon: 0 });
    this.tap = null;
  }
}

/** A crossbar output's data wire, written on demand: busy ? din[src] : 0 (the crossbar's data path). */
export interface OutputWire {
  dout: Signal;
  busy: Signal;
  src: Signal;
  din: readonly Signal[];
}

/**
 * Everything of one cube that moves silently in the fast mode: the units to
 * catch up, the lines and taps to save, the crossbar outputs to write on
 * demand. One OnDemand provider (Simulator.addOnDemand).
 */
export class LinkSet implements OnDemand {
  readonly units: LineUnit[] = [];
  readonly taps: LinkTap[] = [];
  readonly lines: SenderLine[] = [];
  readonly wires: OutputWire[] = [];
  private sim: Simulator | null = null;
  /** Last cycle seen (a smaller one means the simulator was reset). */
  private seen = 0;
  /** The cycle last materialized, and whether a unit ran since (peeks within a cycle need no second pass). */
  private matCycle = -1;
  private ranSince = true;

  attach(sim: Simulator): void {
    this.sim = sim;
    sim.addOnDemand(this);
  }

  /** The fast mode: units sleep between their events and catch up. */
  get fast(): boolean {
    return this.sim !== null && this.sim.mode === 'activity';
  }

  get cycle(): number {
    return this.sim ? this.sim.clock.cycle : 0;
  }

  get checks(): boolean {
    return this.sim?.checks ?? false;
  }

  /** Called by every unit run: notices a simulator reset (cycle going back without a restore). */
  check(now: number): void {
    this.ranSince = true;
    if (now < this.seen) {
      for (const u of this.units) u.resetLines(now);
      for (const t of this.taps) t.reset();
      for (const l of this.lines) l.reset();
    }
    this.seen = now;
  }

  materialize(cycle: number, s: Float64Array): void {
    if (cycle === this.matCycle && !this.ranSince) return;
    this.check(cycle);
    this.matCycle = cycle;
    this.ranSince = false;
    if (!this.fast) return;
    const us = this.units;
    for (let k = 0; k < us.length; k++) us[k]!.catchUp(cycle);
    const ws = this.wires;
    for (let k = 0; k < ws.length; k++) {
      const w = ws[k]!;
      s[w.dout.i] = s[w.busy.i] === 1 ? s[w.din[s[w.src.i]!]!.i]! : 0;
    }
  }

  nextChange(cycle: number): number {
    if (!this.fast) return Infinity;
    for (const u of this.units) if (u.shifting()) return cycle + 1;
    for (const t of this.taps) if (t.busy) return cycle + 1;
    return Infinity;
  }

  save(): unknown {
    return { seen: this.seen, units: this.units.map((u) => u.save()), taps: this.taps.map((t) => t.save()), lines: this.lines.map((l) => l.save()) };
  }

  restore(v: unknown): void {
    const st = v as { seen: number; units: unknown[]; taps: unknown[]; lines: unknown[] };
    this.seen = st.seen;
    this.ranSince = true;
    this.units.forEach((u, k) => u.restore(st.units[k]));
    this.taps.forEach((t, k) => t.restore(st.taps[k]));
    this.lines.forEach((l, k) => l.restore(st.lines[k]));
  }
}

/**
 * A unit's timed wake-ups on serial lines: asks for a wake-up at cycle t
 * unless an earlier or equal one is still pending (an extra run is harmless:
 * a unit that runs in a cycle it did not need does exactly what the
 * bit-by-bit step would).
 */
export class Waker {
  private pending = -1;
  proc: ProcessDecl | null = null;

  constructor(
    private readonly m: Module,
    private readonly links: LinkSet,
  ) {}

  at(t: number): void {
    if (t === Infinity) return;
    if (this.pending > this.links.cycle && this.pending <= t) return;
    this.m.wakeAt(this.proc!, t);
    this.pending = t;
  }

  reset(): void {
    this.pending = -1;
  }

  get state(): number {
    return this.pending;
  }

  set state(v: number) {
    this.pending = v;
  }
}

/**
 * What a sending link end (a node output port slot, slot_line.ts; a PBU's
 * output controller, pbu_line.ts) keeps: its line, the first cycle whose
 * edge is not applied yet, and its wake-ups.
 */
export abstract class SenderEnd implements LineUnit {
  readonly sender: SenderLine;
  readonly waker: Waker;
  /** The first cycle whose edge is not applied yet. */
  protected done = 0;

  constructor(
    protected readonly m: Module,
    name: string,
    protected readonly links: LinkSet,
  ) {
    this.sender = new SenderLine(name);
    this.waker = new Waker(m, links);
    links.units.push(this);
    links.lines.push(this.sender);
  }

  abstract catchUp(now: number): void;
  abstract shifting(): boolean;

  /** Before the unit's step of cycle `now`. */
  before(now: number): void {
    this.links.check(now);
    this.catchUp(now);
  }

  resetLines(now: number): void {
    this.done = now;
    this.waker.reset();
  }

  save(): unknown {
    return { done: this.done, wake: this.waker.state };
  }

  restore(v: unknown): void {
    const st = v as { done: number; wake: number };
    this.done = st.done;
    this.waker.state = st.wake;
  }
}

/**
 * What a receiving link end (a PBU's input controller, the node input port)
 * keeps: the tap it reads, the first cycle not yet applied, the bit it waits
 * for, and its wake-ups; a post or connection on the tap that may show the
 * awaited bit asks for a wake-up there (lineChanged).
 */
/** Negative control only (test/buzzard/word_arrival.test.ts): ReceiverEnd.lineChanged also skips the lookahead after this edge's run. */
export const WRONG_LOOKAHEAD = { afterRun: false };

export abstract class ReceiverEnd implements LineUnit, LineReceiver {
  readonly waker: Waker;
  /** The tap of the crossbar output that feeds this end (set by the node or cube). */
  src: LinkTap | null = null;
  /** The first cycle whose edge is not applied yet. */
  protected done = 0;
  /** The bit the controller waits for (-1: none). */
  protected awaiting = -1;
  /** The current-value slot of the controller's line-bit register (Module.whenSlots; docs/kernel.md "Stop 21: Buzzard units"). */
  private inBitI = 0;

  constructor(
    protected readonly m: Module,
    protected readonly links: LinkSet,
    /** The controller's line-bit register (inBit), written from the tap in the fast mode. */
    inBit: Signal,
  ) {
    this.waker = new Waker(m, links);
    links.units.push(this);
    m.whenSlots(() => {
      this.inBitI = inBit.i;
    });
  }

  abstract catchUp(now: number): void;
  abstract shifting(): boolean;
  /** A skipped edge at cycle c was an event of the controller: a unit assertion. */
  protected abstract missed(now: number, c: number): never;

  /** Before the step of cycle `now`: catch up, and the line bit of cycle `now`. */
  before(now: number): void {
    this.links.check(now);
    this.catchUp(now);
    if (this.links.fast) this.m.s[this.inBitI] = this.src!.bitAt(now);
  }

  /** With checks on, while waiting: no skipped cycle from..now-1 may have carried the awaited bit. */
  protected checkAwaited(from: number, now: number): void {
    if (!this.links.checks || this.awaiting < 0) return;
    for (let c = from; c < now; c++) if (this.src!.bitAt(c) === this.awaiting) this.missed(now, c);
  }

  lineChanged(from: number): void {
    if (this.awaiting < 0 || !this.links.fast) return;
    // A run of this end at this edge that has not happened yet (woken for
    // it, not caught up past it) looks ahead itself after its step, from
    // its new state and every post made so far: a lookahead now, from the
    // state before that step, would find the awaited bit among the next
    // field's bits (a 0 in the word after the sync's 0) and wake it there
    // for nothing (docs/kernel.md "Stop 24: Buzzard"). A post after that
    // run (done past this edge) is looked at here as before.
    const now = this.links.cycle;
    if (this.waker.state === now && (this.done <= now || WRONG_LOOKAHEAD.afterRun)) return;
    const at = Math.max(from, this.done);
    this.waker.at(this.wakeFor(this.src!.nextWith(at, this.awaiting), this.done));
  }

  /** The edge to wake at when the awaited bit comes at `z` (`from`: the first edge not applied; `cnt`: the bit counter there, else the current one); a subclass may put its event later. */
  protected wakeFor(z: number, _from: number, _cnt?: number): number {
    return z;
  }

  resetLines(now: number): void {
    this.done = now;
    this.awaiting = -1;
    this.waker.reset();
  }

  save(): unknown {
    return { done: this.done, awaiting: this.awaiting, wake: this.waker.state };
  }

  restore(v: unknown): void {
    const st = v as { done: number; awaiting: number; wake: number };
    this.done = st.done;
    this.awaiting = st.awaiting;
    this.waker.state = st.wake;
  }
}
