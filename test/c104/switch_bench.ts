/**
 * Test bench for one C104 without DS-links: each of the 32 links has a
 * test-only stand-in of a DsLinkEnd's core side (the port contract of
 * rtl/dslink/chars.ts): a receive FIFO of `inputBufferTokens` characters
 * that the "far end" fills at most one character per `charCycles`, and a
 * transmit FIFO of `outputBufferTokens` that the far end drains at the same
 * rate. The bench records, per cycle, the observable facts the properties
 * need: when an input began waiting, grants (input → output), and the
 * characters that left on every link.
 */
import { Module, Simulator, type SimMode, type Signal } from '../../rtl/kernel/index.ts';
import { Fifo } from '../../rtl/lib/fifo.ts';
import { CHAR_BITS, CHAR_EOP, isEnd } from '../../rtl/dslink/chars.ts';
import { C104 } from '../../rtl/c104/c104.ts';
import { attachEnd } from '../../rtl/c104/network.ts';
import type { DsLinkEndPorts } from '../../rtl/dslink/ports.ts';
import type { C104Config } from '../../rtl/c104/config.ts';
import { C104_LINKS, type CompiledTable } from '../../rtl/c104/interval_table.ts';

/**
 * Stand-in for one DsLinkEnd: two FIFOs behind the contract's core-side
 * ports. Its wires (dOut, sOut, dIn, sIn) are dead (tied 0); the far side is
 * character-level ports (src*, sink*), joined by `charJoin` or driven by a bench.
 */
export class LinkEndStub extends Module implements DsLinkEndPorts {
  readonly dOut: Signal;
  readonly sOut: Signal;
  readonly dIn: Signal;
  readonly sIn: Signal;
  readonly running: Signal;
  readonly rxValid: Signal;
  readonly rxChar: Signal;
  readonly rxPop: Signal;
  readonly txValid: Signal;
  readonly txChar: Signal;
  readonly txReady: Signal;
  readonly srcValid: Signal;
  readonly srcChar: Signal;
  readonly srcReady: Signal;
  readonly sinkValid: Signal;
  readonly sinkChar: Signal;
  readonly sinkPop: Signal;

  constructor(parent: Module, name: string, inTokens: number, outTokens: number) {
    super(parent, name);
    const rx = new Fifo(this, 'rx', { width: CHAR_BITS, depth: inTokens });
    const tx = new Fifo(this, 'tx', { width: CHAR_BITS, depth: outTokens });
    this.dOut = this.output('dOut');
    this.sOut = this.output('sOut');
    this.dIn = this.input('dIn');
    this.sIn = this.input('sIn');
    for (const w of [this.dOut, this.sOut, this.dIn, this.sIn]) this.tie(w, 0);
    this.running = this.output('running');
    this.tie(this.running, 1);
    this.rxValid = this.output('rxValid');
    this.rxChar = this.output('rxChar', CHAR_BITS);
    this.rxPop = this.input('rxPop');
    this.txValid = this.input('txValid');
    this.txChar = this.input('txChar', CHAR_BITS);
    this.txReady = this.output('txReady');
    this.srcValid = this.input('srcValid');
    this.srcChar = this.input('srcChar', CHAR_BITS);
    this.srcReady = this.output('srcReady');
    this.sinkValid = this.output('sinkValid');
    this.sinkChar = this.output('sinkChar', CHAR_BITS);
    this.sinkPop = this.input('sinkPop');
    this.connect(this.srcChar, rx.din);
    this.connect(rx.dout, this.rxChar);
    this.connect(this.rxPop, rx.pop);
    this.connect(this.txChar, tx.din);
    this.connect(tx.dout, this.sinkChar);
    const { srcValid, srcReady, rxValid, txValid, txReady, sinkValid, sinkPop } = this;
    const [rxFull, rxEmpty, txFull, txEmpty] = [rx.full, rx.empty, tx.full, tx.empty].map((sig, k) => {
      const w = this.wire(`st${k}`);
      this.connect(sig, w);
      return w;
    }) as [Signal, Signal, Signal, Signal];
    const rxPush = this.wire('rxPush');
    const txPush = this.wire('txPush');
    const txPop = this.wire('txPop');
    this.connect(rxPush, rx.push);
    this.connect(txPush, tx.push);
    this.connect(txPop, tx.pop);
    // Status from the FIFOs' registers only (txReady must not depend on txValid).
    this.comb(
      () => {
        const s = this.s;
        s[srcReady.i] = 1 - s[rxFull.i]!;
        s[rxValid.i] = 1 - s[rxEmpty.i]!;
        s[txReady.i] = 1 - s[txFull.i]!;
        s[sinkValid.i] = 1 - s[txEmpty.i]!;
      },
      { writes: [srcReady, rxValid, txReady, sinkValid], reads: [rxFull, rxEmpty, txFull, txEmpty], name: 'status' },
    );
    this.comb(
      () => {
        const s = this.s;
        s[rxPush.i] = s[srcValid.i]! & (1 - s[rxFull.i]!);
        s[txPush.i] = s[txValid.i]! & (1 - s[txFull.i]!);
        s[txPop.i] = s[sinkPop.i]! & (1 - s[txEmpty.i]!);
      },
      { writes: [rxPush, txPush, txPop], reads: [srcValid, txValid, sinkPop, rxFull, txFull, txEmpty], name: 'ops' },
    );
  }
}

/** A cable between two stand-ins: each transmit buffer drains into the other's receive buffer, one character per cycle when it has room. */
export function charJoin(where: Module, a: DsLinkEndPorts, b: DsLinkEndPorts): void {
  const x = a as LinkEndStub;
  const y = b as LinkEndStub;
  for (const [u, v] of [[x, y], [y, x]] as const) {
    where.connect(u.sinkValid, v.srcValid);
    where.connect(u.sinkChar, v.srcChar);
    where.connect(v.srcReady, u.sinkPop);
  }
}

class Bench extends Module {
  readonly sw: C104;
  readonly ends: LinkEndStub[] = [];
  readonly srcValid: Signal[] = [];
  readonly srcChar: Signal[] = [];
  readonly sinkPop: Signal[] = [];
  readonly tag: Signal[] = [];
  constructor(table: CompiledTable, cfg: C104Config, tags: boolean) {
    super(null, 'bench');
    this.sw = new C104(this, 'sw', table, cfg, { tags });
    for (let k = 0; k < C104_LINKS; k++) {
      const e = new LinkEndStub(this, `end${k}`, cfg.inputBufferTokens, cfg.outputBufferTokens);
      this.ends.push(e);
      const sw = this.sw;
      attachEnd(this, sw, k, e);
      const sv = this.input(`srcValid${k}`);
      const sc = this.input(`srcChar${k}`, CHAR_BITS);
      const sp = this.input(`sinkPop${k}`);
      this.connect(sv, e.srcValid);
      this.connect(sc, e.srcChar);
      this.connect(sp, e.sinkPop);
      this.srcValid.push(sv);
      this.srcChar.push(sc);
      this.sinkPop.push(sp);
      if (tags) {
        const t = this.input(`tag${k}`, 16);
        this.connect(t, sw.tag[k]!);
        this.tag.push(t);
      }
    }
  }
}

export interface Grant {
  cycle: number;
  input: number;
  output: number;
  /** Cycle the input's request first became visible. */
  since: number;
}

/** A violation of "never wait while a link of the group is free": cycle, input, the free link. */
export interface IdleWait {
  cycle: number;
  input: number;
  free: number;
}

export class SwitchBench {
  readonly bench: Bench;
  readonly sim: Simulator;
  /** Characters still to send, per link. */
  readonly pending: number[][] = Array.from({ length: C104_LINKS }, () => []);
  /** Side-band tag to present with the next packet on each link. */
  readonly tags: number[][] = Array.from({ length: C104_LINKS }, () => []);
  /** Characters that left on every link, in order. */
  readonly out: number[][] = Array.from({ length: C104_LINKS }, () => []);
  /** Per link: the cycle each character of `out` was taken by the far end. */
  readonly outAt: number[][] = Array.from({ length: C104_LINKS }, () => []);
  readonly grants: Grant[] = [];
  readonly idleWaits: IdleWait[] = [];
  /** Per input: the cycle its current request became visible (-1: not waiting). */
  readonly since: number[] = new Array<number>(C104_LINKS).fill(-1);
  /** The request mask of each wait, by `input@since`. */
  readonly masks = new Map<string, number>();
  /** If set: the links the idle-wait check treats as a packet's group, by header (instead of the router's request). */
  watchMasks: number[] | null = null;
  /** Per link: cycles between characters on the wire (far end). */
  private readonly nextSrc = new Array<number>(C104_LINKS).fill(0);
  private readonly nextSink = new Array<number>(C104_LINKS).fill(0);
  /** Per link: sink stalls (the far end stops draining) until this cycle. */
  readonly sinkHoldUntil = new Array<number>(C104_LINKS).fill(0);

  constructor(
    table: CompiledTable,
    readonly cfg: C104Config,
    readonly charCycles = 1,
    tags = false,
    mode: SimMode = 'activity',
  ) {
    this.bench = new Bench(table, cfg, tags);
    this.sim = new Simulator(this.bench, { mode });
  }

  /** Queue a packet on input link `link` (characters including header and terminator). */
  send(link: number, chars: readonly number[], tag = 0): void {
    this.pending[link]!.push(...chars);
    this.tags[link]!.push(tag);
  }

  get sw(): C104 {
    return this.bench.sw;
  }

  /** One cycle: far ends push and drain, observations, clock edge. */
  step(): void {
    const { sim, bench } = this;
    const t = sim.cycle;
    for (let k = 0; k < C104_LINKS; k++) {
      const q = this.pending[k]!;
      const e = bench.ends[k]!;
      const want = q.length > 0 && t >= this.nextSrc[k]!;
      sim.poke(bench.srcValid[k]!, want ? 1 : 0);
      if (want) sim.poke(bench.srcChar[k]!, q[0]!);
      const drain = t >= this.nextSink[k]! && t >= this.sinkHoldUntil[k]!;
      sim.poke(bench.sinkPop[k]!, drain ? 1 : 0);
      if (bench.tag.length > 0 && this.tags[k]!.length > 0) sim.poke(bench.tag[k]!, this.tags[k]![0]!);
      void e;
    }
    const sw = this.sw;
    const xbar = sw.xbar;
    const granted = new Array<number>(C104_LINKS).fill(0);
    for (let i = 0; i < C104_LINKS; i++) {
      if (sim.peek(xbar.gnt[i]!) === 1) granted[sim.peek(xbar.gidx[i]!)] = 1;
    }
    for (let i = 0; i < C104_LINKS; i++) {
      const r = sw.routers[i]!;
      // Waiting = the request is visible (REQ state, or a cut-through header at the buffer head).
      const req = sim.peek(r.req);
      const waiting = req !== 0;
      if (waiting && this.since[i] === -1) {
        this.since[i] = t;
        this.masks.set(`${i}@${t}`, req);
      }
      if (!waiting) continue;
      if (sim.peek(xbar.gnt[i]!) === 1) {
        this.grants.push({ cycle: t, input: i, output: sim.peek(xbar.gidx[i]!), since: this.since[i]! });
        this.since[i] = -1;
        continue;
      }
      const gm = this.watchMasks ? this.watchMasks[sim.peek(r.hdr)]! : req;
      for (let j = 0; j < C104_LINKS; j++) {
        if (((gm >>> j) & 1) === 0 || granted[j] === 1) continue;
        if (sim.peek(xbar.valid[j]!) === 0 && sim.peek(sw.blocked[j]!) === 0) {
          this.idleWaits.push({ cycle: t, input: i, free: j });
          break;
        }
      }
    }
    const took: boolean[] = [];
    const gave: number[] = [];
    for (let k = 0; k < C104_LINKS; k++) {
      const e = bench.ends[k]!;
      took.push(sim.peek(bench.srcValid[k]!) === 1 && sim.peek(e.srcReady) === 1);
      gave.push(sim.peek(bench.sinkPop[k]!) === 1 && sim.peek(e.sinkValid) === 1 ? sim.peek(e.sinkChar) : -1);
    }
    sim.step();
    for (let k = 0; k < C104_LINKS; k++) {
      if (took[k]) {
        const ch = this.pending[k]!.shift()!;
        if (isEnd(ch)) this.tags[k]!.shift();
        this.nextSrc[k] = t + this.charCycles;
      }
      if (gave[k]! >= 0) {
        this.out[k]!.push(gave[k]!);
        this.outAt[k]!.push(t);
        this.nextSink[k] = t + this.charCycles;
      }
    }
  }

  /** Everything sent has left the switch and every buffer is empty. */
  drained(): boolean {
    if (this.pending.some((q) => q.length > 0)) return false;
    for (let k = 0; k < C104_LINKS; k++) {
      const e = this.bench.ends[k]!;
      if (this.sim.peek(e.rxValid) === 1 || this.sim.peek(e.sinkValid) === 1) return false;
      if (this.sim.peek(this.sw.routers[k]!.st) !== 0) return false;
    }
    return true;
  }

  /** Step until drained (true) or `max` cycles passed (false). */
  run(max: number): boolean {
    for (let c = 0; c < max; c++) {
      if (this.drained()) return true;
      this.step();
    }
    return this.drained();
  }
}

/** Split a character stream into packets (each ends with EOP or EOM). */
export function packetsOf(stream: readonly number[]): number[][] {
  const out: number[][] = [];
  let cur: number[] = [];
  for (const ch of stream) {
    cur.push(ch);
    if (isEnd(ch)) {
      out.push(cur);
      cur = [];
    }
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

export { CHAR_EOP };
