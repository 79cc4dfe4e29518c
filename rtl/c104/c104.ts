/**
 * The INMOS C104 routing switch: 32 link slices, each with the routing logic
 * of its input (input_router.ts), joined by a non-blocking 32×32 crossbar
 * (rtl/lib/crossbar.ts) with per-output arbitration among waiting inputs
 * (seed 004 §3.1.1.3, §4.2.3–4.2.4; spec §3 and §16 V7–V10).
 *
 * The switch sits behind 32 DS-link ends (rtl/dslink/chars.ts contract): the
 * routing logic of link k reads the end's receive side (its buffer is the
 * slice's input buffer), and the crossbar output k pushes into the end's
 * transmit side (its buffer is the slice's output buffer). Buffer sizes are
 * therefore the link ends' (config inputBufferTokens/outputBufferTokens).
 *
 * Ports, per link k (all 32; links the table does not mark connected are
 * tied off inside: nothing arrives, nothing may leave):
 *   rxValid{k} (in), rxChar{k}[9] (in), rxPop{k} (out)    receive side of link end k
 *   txValid{k} (out), txChar{k}[9] (out), txReady{k} (in) transmit side of link end k
 *   tag{k}[16] (in, only with option `tags`)               side-band packet tag for
 *                                                           'hops-first'/'oldest-first'
 * Output stage (pipeline 'registered', the default): per link a one-character
 * register (ov{k}, oc{k}) between the crossbar and the link end's transmit
 * side, which drives txValid/txChar (so the crossbar's data path never
 * depends combinationally on the link end). Pipeline 'cut-through': the
 * crossbar drives the transmit side directly (docs/c104.md#pipeline). Children: in0..in31 (InputRouter), xbar (Crossbar, width 10: valid + char,
 * FIFO arbiters of latency 0), and `sel` (PolicySelector) for the thesis
 * policies. Readings: docs/c104.md#the-switch, docs/c104.md#arbitration.
 *
 * Option `dataPath` (docs/c104.md#direct-data-path): 'direct' (default, with
 * pipeline 'registered') has each output stage read the din of the input its
 * crossbar output is connected to (wires xi{k}, xh{k}; the crossbar has no
 * data path); 'crossbar', the reference, reads the crossbar's dout (xd{k}).
 *
 * Option `slices: 'connected'` (docs/c104.md#compact-slices): only the
 * connected links' slices are elaborated (ports, router, output stage) and
 * the crossbar and the selector have one input and one output per connected
 * link, in link order; `linkOf[x]` is the link of crossbar index x and
 * `xOf[k]` the crossbar index of link k (-1: not elaborated). With 'all'
 * (the default) both are the identity. Per-link arrays (ports, routers,
 * blocked) stay indexed by link and have holes for the links not elaborated.
 */
import { Module, type Signal } from '../kernel/module.ts';
import { CHAR_BITS } from '../dslink/chars.ts';
import { Crossbar } from '../lib/crossbar.ts';
import { C104_DATA_PATHS, type C104Config, type C104DataPath } from './config.ts';
import { C104ConfigError } from './interval_table.ts';
import { C104_LINKS, type CompiledTable } from './interval_table.ts';
import { InputRouter, XBAR_VALID, type RouterSideBand } from './input_router.ts';
import { PolicySelector } from './policy_selector.ts';
import { maskToCrossbar, SLICES_FAULT, sliceMap, type C104Slices } from './slices.ts';

/**
 * Negative controls for test/c104/per_token_guards.test.ts only: the output
 * stage's guards the wrong way round: `blkBlind`, `blocked` reading ov while
 * txReady is 1 instead of 0 (a full register meeting a busy link end is not
 * seen); `outBlind`, the stage's edge not reading txReady (the link end
 * taking the held character is not seen). False in every other use.
 */
export const C104_FAULT = { blkBlind: false, outBlind: false, directSwap: false };

export interface C104Options {
  /** Which links are wired (ports of the others are tied off); default all. */
  connected?: readonly boolean[];
  /** Expose tag{k} inputs (side-band packet tags); default off (tags 0). */
  tags?: boolean;
  /** Side-band lanes per input link (T9000 `addressing: 'node'`, input_router.ts); default none. */
  sideBand?: readonly (RouterSideBand | null)[];
  /** Elaborate every slice ('all', default) or only the connected ones (docs/c104.md#compact-slices). */
  slices?: C104Slices;
  /**
   * 'direct' (default): with pipeline 'registered', output stage k takes the
   * character from the din of the input its crossbar output is connected to
   * (the crossbar's one-hot connection), with no crossbar data process
   * between (docs/c104.md#direct-data-path). 'crossbar': through the
   * crossbar's dout{j} (the reference). Pipeline 'cut-through' always uses
   * the crossbar's data path.
   */
  dataPath?: C104DataPath;
}

export class C104 extends Module {
  readonly config: C104Config;
  readonly table: CompiledTable;
  readonly rxValid: Signal[] = [];
  readonly rxChar: Signal[] = [];
  readonly rxPop: Signal[] = [];
  readonly txValid: Signal[] = [];
  readonly txChar: Signal[] = [];
  readonly txReady: Signal[] = [];
  readonly tag: Signal[] = [];
  /** Per output: the crossbar sees it blocked (output register full and the link end not taking). */
  readonly blocked: Signal[] = [];
  readonly routers: InputRouter[] = [];
  readonly xbar: Crossbar;
  readonly selector: PolicySelector | null;
  /** Crossbar index -> link (identity with slices 'all'). */
  readonly linkOf: readonly number[];
  /** Link -> crossbar index, -1 for a link not elaborated (identity with slices 'all'). */
  readonly xOf: Int8Array;
  /** Set the output stages' slot indices (onElaborated). */
  private readonly binders: (() => void)[] = [];

  constructor(parent: Module | null, name: string, table: CompiledTable, config: C104Config, opts: C104Options = {}) {
    super(parent, name);
    this.config = config;
    this.table = table;
    const N = C104_LINKS;
    const connected = opts.connected ?? new Array<boolean>(N).fill(true);
    // The real C104 (FIFO, no ack priority) and the unfair control use rtl/lib's arbiters alone.
    const lib = (config.policy === 'fifo' || config.policy === 'fixed-priority') && !config.ackPriority;
    const compact = (opts.slices ?? 'all') === 'connected';
    const { linkOf, xOf } = sliceMap(connected, opts.slices ?? 'all');
    this.linkOf = linkOf;
    this.xOf = xOf;
    const X = linkOf.length;
    const dataPath = opts.dataPath ?? 'direct';
    if (!(C104_DATA_PATHS as readonly string[]).includes(dataPath)) throw new C104ConfigError(`c104.dataPath: '${String(dataPath)}' is not one of ${C104_DATA_PATHS.join(', ')}`);
    const direct = dataPath === 'direct' && config.pipeline !== 'cut-through';
    // The groups' masks as crossbar indices, once for all routers (the links' masks with slices 'all').
    const routerSlices = { linkOf, xGroupMask: X === C104_LINKS ? table.groupMask : table.groupMask.map((m) => maskToCrossbar(m, xOf)) };
    const xbar = (this.xbar = new Crossbar(this, 'xbar', {
      inputs: X,
      outputs: X,
      width: CHAR_BITS + 1,
      policy: config.policy === 'fixed-priority' ? 'fixed-priority' : 'fifo',
      latency: 0,
      wide: true, // one flow-control process, request columns (rtl/lib/crossbar.ts)
      dataGuard: 'connection', // the data path woken by its connected input only (docs/kernel.md "Stop 22: FIFOs and C104")
      dataPath: !direct, // direct: the output stages read the inputs' din themselves (docs/kernel.md "Stop 24: FIFOs and C104")
    }));
    // Direct data path: each input's din and each output's connection, as this module's wires (the stages' reads).
    const xin: Signal[] = [];
    const stages: (() => void)[] = [];
    const sel = (this.selector = lib ? null : new PolicySelector(this, 'sel', linkOf, config.policy, config.seed, compact && SLICES_FAULT.hashByIndex));

    for (let x = 0; x < X; x++) {
      const k = linkOf[x]!;
      const rxValid = this.input(`rxValid${k}`);
      const rxChar = this.input(`rxChar${k}`, CHAR_BITS);
      const rxPop = this.output(`rxPop${k}`);
      const txValid = this.output(`txValid${k}`);
      const txChar = this.output(`txChar${k}`, CHAR_BITS);
      const txReady = this.input(`txReady${k}`);
      this.rxValid[k] = rxValid;
      this.rxChar[k] = rxChar;
      this.rxPop[k] = rxPop;
      this.txValid[k] = txValid;
      this.txChar[k] = txChar;
      this.txReady[k] = txReady;
      if (!connected[k]) {
        this.tie(rxValid, 0);
        this.tie(rxChar, 0);
        this.tie(txReady, 0);
      }
      const r = new InputRouter(this, `in${k}`, k, table, config, opts.sideBand?.[k] ?? null, routerSlices);
      this.routers[k] = r;
      this.connect(rxValid, r.rxValid);
      this.connect(rxChar, r.rxChar);
      this.connect(r.rxPop, rxPop);
      if (opts.tags) {
        const tag = this.input(`tag${k}`, 16);
        this.tag[k] = tag;
        this.connect(tag, r.tag);
      } else {
        this.tie(r.tag, 0);
      }
      if (direct) {
        const w = this.wire(`xi${k}`, CHAR_BITS + 1);
        this.connect(r.din, w);
        this.connect(w, xbar.din[x]!);
        xin.push(w);
      } else {
        this.connect(r.din, xbar.din[x]!);
      }
      this.connect(r.release, xbar.release[x]!);
      this.connect(xbar.gnt[x]!, r.gnt);
      this.connect(xbar.gidx[x]!, r.gidx);
      this.connect(xbar.fc[x]!, r.fc);
      // The output register (pipeline 'registered') is declared first, as it always was (signal order).
      const out = config.pipeline === 'cut-through' ? null : { ov: this.reg(`ov${k}`, 1, 0), oc: this.reg(`oc${k}`, CHAR_BITS, 0) };
      const blocked = this.wire(`blocked${k}`);
      this.blocked[k] = blocked;
      // xo: the crossbar output of this link's stage (x, except under a negative control's fault).
      const xo = compact && SLICES_FAULT.swapOutputs && x < 2 && X >= 2 ? 1 - x : x;
      this.connect(blocked, xbar.blocked[xo]!);
      if (direct) {
        const xh = this.wire(`xh${k}`, X);
        this.connect(xbar.oh[xo]!, xh);
        // After the loop: the stage reads every input's din wire.
        stages.push(() => this.directStage(k, out!.ov, out!.oc, xh, xin, blocked));
      } else {
        const dout = this.wire(`xd${k}`, CHAR_BITS + 1);
        this.connect(xbar.dout[xo]!, dout);
        if (out) this.registeredStage(k, out.ov, out.oc, dout, blocked);
        else this.throughStage(k, dout, blocked);
      }
      if (sel) {
        this.connect(r.req, sel.reqIn[x]!);
        this.connect(r.prio, sel.prio[x]!);
        this.connect(sel.reqOut[x]!, xbar.req[x]!);
        this.connect(xbar.valid[xo]!, sel.busy[xo]!);
        this.connect(blocked, sel.blocked[xo]!);
      } else {
        this.connect(r.req, xbar.req[x]!);
      }
    }
    for (const st of stages) st();
  }

  /**
   * Output stage k, pipeline 'registered': one register between the crossbar
   * and the link end's transmit side (docs/c104.md#the-switch). It takes a
   * character when empty or being drained; the crossbar output is blocked
   * while it is full and the link end cannot take its character.
   */
  private registeredStage(k: number, ov: Signal, oc: Signal, dout: Signal, blocked: Signal): void {
    this.outputStage(k, ov, oc, blocked, { dout });
  }

  /**
   * Output stage k with the direct data path (option dataPath 'direct',
   * docs/c104.md#direct-data-path): the same register, taking the character
   * from the din of the input its crossbar output is connected to (bit i of
   * xh: input i), which the crossbar's data process used to copy to its
   * dout one evaluation earlier.
   */
  private directStage(k: number, ov: Signal, oc: Signal, xh: Signal, xin: readonly Signal[], blocked: Signal): void {
    this.outputStage(k, ov, oc, blocked, { xh, xin });
  }

  /** The output register of pipeline 'registered', fed by a crossbar output (dout) or directly (xh, xin). */
  private outputStage(k: number, ov: Signal, oc: Signal, blocked: Signal, from: { dout: Signal } | { xh: Signal; xin: readonly Signal[] }): void {
    const txReady = this.txReady[k]!;
    this.connect(ov, this.txValid[k]!);
    this.connect(oc, this.txChar[k]!);
    const dout = 'dout' in from ? from.dout : null;
    const xh = 'xh' in from ? from.xh : null;
    const xin = 'xin' in from ? from.xin : [];
    // Slot indices read from this closure, not through the Signal objects (docs/kernel.md "Stop 19").
    let bl = 0, ovI = 0, ovN = 0, ocN = 0, tr = 0, dI = 0, xhI = 0;
    let xinIs: Int32Array = new Int32Array(0);
    this.binders.push(() => {
      [bl, ovI, ovN, ocN, tr, dI, xhI] = [blocked.i, ov.i, ov.n, oc.n, txReady.i, dout?.i ?? 0, xh?.i ?? 0];
      xinIs = Int32Array.from(xin.map((w) => w.i));
    });
    // Each reads the other of ov and txReady only where it matters (docs/kernel.md
    // "Stop 22: FIFOs and C104"): blocked is ov while txReady is 0, else 0; the
    // edge's result depends on txReady only while ov is 1 (blocked is ov and not
    // txReady, so the edge computes it rather than read it); see the edge's reads.
    this.comb(
      () => {
        const s = this.s;
        s[bl] = s[ovI] === 1 && s[tr] === 0 ? 1 : 0;
      },
      { writes: [blocked], reads: [txReady], readsWhen: [{ when: txReady, is: C104_FAULT.blkBlind ? [1] : [0], reads: [ov] }], name: `blk${k}` },
    );
    this.seq(
      () => {
        const s = this.s;
        let d: number;
        if (dout) d = s[dI]!;
        else {
          const h = s[xhI]!;
          d = h !== 0 ? s[xinIs[31 - Math.clz32(h)]!]! : 0;
        }
        const full = s[ovI] === 1;
        if (d & XBAR_VALID && !(full && s[tr] === 0)) {
          s[ovN] = 1;
          s[ocN] = d & (XBAR_VALID - 1);
        } else if (full && s[tr] === 1) {
          s[ovN] = 0;
        }
      },
      // The edge acts only while the crossbar offers a character or the
      // register is full (docs/kernel.md "Stop 23: FIFOs and C104"): it wakes
      // on every change of dout to a valid character and on ov's rise, and,
      // while ov is 1 at the edge (a late guard), on dout's and txReady's
      // changes. ov's fall (a drain, with no character offered) needs no run:
      // the next character's arrival wakes it.
      // Direct ("Stop 24: FIFOs and C104"): what it offers is din of the input
      // named by bit i of xh, read under that bit (xh is the crossbar's
      // one-hot register, settled when din changes, so the guard is looked
      // at then; a late guard would not do: the edge wakes a queued process
      // if any of its late guards holds, so every input's din would wake a
      // connected stage); xh itself is a plain read (a connection made or
      // ended, or poked).
      dout
        ? {
            reads: [],
            readsWhen: [
              { when: dout, bits: XBAR_VALID, rise: true, reads: [] },
              { when: ov, bits: 1, rise: true, late: true, reads: C104_FAULT.outBlind ? [dout] : [dout, txReady] },
            ],
            name: `out${k}`,
          }
        : {
            reads: [xh!],
            readsWhen: [
              ...xin.map((w, i) => ({ when: xh!, bits: (1 << (C104_FAULT.directSwap && (i ^ 1) < xin.length ? i ^ 1 : i)) >>> 0, reads: [w] })),
              { when: ov, bits: 1, rise: true, late: true, reads: C104_FAULT.outBlind ? [] : [txReady] },
            ],
            name: `out${k}`,
          },
    );
  }

  /**
   * Output stage k, pipeline 'cut-through' (docs/c104.md#pipeline): the
   * crossbar drives the link end's transmit side directly, so a character
   * leaves the input buffer and enters the output buffer at one clock edge;
   * the output is blocked while that buffer is full. (The link end's txReady
   * does not depend on its txValid: docs/c104.md#t9000-labels, integration note.)
   */
  private throughStage(k: number, dout: Signal, blocked: Signal): void {
    const txValid = this.txValid[k]!;
    const txChar = this.txChar[k]!;
    const txReady = this.txReady[k]!;
    this.comb(
      () => {
        const s = this.s;
        s[blocked.i] = s[txReady.i] === 1 ? 0 : 1;
      },
      { writes: [blocked], reads: [txReady], name: `blk${k}` },
    );
    this.comb(
      () => {
        const s = this.s;
        const d = s[dout.i]!;
        s[txValid.i] = d & XBAR_VALID ? 1 : 0;
        s[txChar.i] = d & (XBAR_VALID - 1);
      },
      { writes: [txValid, txChar], reads: [dout], name: `out${k}` },
    );
  }

  override onElaborated(): void {
    for (const b of this.binders) b();
  }
}
