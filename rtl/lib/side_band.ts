/**
 * Side-band packet tags that travel beside the wires, not on them: the
 * out-of-band identity of a packet's virtual link under `addressing: 'node'`
 * (docs/t9000.md#addressing), standing for the socket reference the thesis's
 * simulator hands from object to object (seed 004 §3.5.4).
 *
 * One lane per transmitting link direction, a FIFO of tags in packet order.
 * A sender pushes a packet's tag in the cycle its first header character is
 * taken by its link end; the unit at the far end pops it when it takes that
 * packet's header (a T9000 receive port) or connects it to an output (a C104
 * input router, which pushes it on the output's lane). Every stage between
 * is FIFO per link direction and a packet starts with its header, so the
 * lanes stay aligned with the character streams (docs/t9000.md#addressing).
 *
 * The lanes are saved and restored with the simulator's snapshots
 * (`stateProvider`), so time travel keeps them in step with the wires.
 */
import type { StateProvider } from '../kernel/simulator.ts';
import { IntFifo } from './int_fifo.ts';

/** One lane: a FIFO of tags in packet order. */
export class SideBandLane {
  private readonly q = new IntFifo();
  constructor(
    private readonly band: SideBand,
    readonly name: string,
  ) {}
  get length(): number {
    return this.q.length;
  }
  push(tag: number): void {
    if (this.band.dropPush(tag)) return;
    this.q.push(tag);
  }
  /** The oldest tag, or -1 when the lane is empty. */
  peek(): number {
    return this.q.peek();
  }
  /** Take the oldest tag, or -1 when the lane is empty. */
  shift(): number {
    return this.q.shift();
  }
  /** @internal snapshot support */
  contents(): number[] {
    return this.q.contents();
  }
  /** @internal snapshot support */
  load(v: readonly number[]): void {
    this.q.load(v);
  }
}

export interface SideBandOptions {
  /**
   * Negative control only (docs/t9000.md#fault-injection): the push with this
   * 0-based number (over all lanes) is lost, so later packets on its lane take
   * the wrong tag. Default -1: none.
   */
  dropPushAt?: number;
}

/** All lanes of one system, by name (e.g. the transmitting link end's path). */
export class SideBand {
  private readonly lanes = new Map<string, SideBandLane>();
  private pushes = 0;
  private readonly dropAt: number;
  constructor(o: SideBandOptions = {}) {
    this.dropAt = o.dropPushAt ?? -1;
  }
  lane(name: string): SideBandLane {
    let l = this.lanes.get(name);
    if (!l) {
      l = new SideBandLane(this, name);
      this.lanes.set(name, l);
    }
    return l;
  }
  /** @internal counts pushes; true = this one is dropped (fault injection). */
  dropPush(_tag: number): boolean {
    return this.pushes++ === this.dropAt;
  }
  /** Tags in flight over all lanes. */
  inFlight(): number {
    let n = 0;
    for (const l of this.lanes.values()) n += l.length;
    return n;
  }
  stateProvider(): StateProvider {
    return {
      save: () => ({ pushes: this.pushes, lanes: [...this.lanes].map(([k, l]) => [k, l.contents()] as const) }),
      restore: (v) => {
        const s = v as { pushes: number; lanes: (readonly [string, number[]])[] };
        this.pushes = s.pushes;
        for (const l of this.lanes.values()) l.load([]);
        for (const [k, q] of s.lanes) this.lane(k).load(q);
      },
    };
  }
}
