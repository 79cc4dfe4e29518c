/**
 * Crossbar switch with per-output arbiters and a companion flow-control path.
 *
 * Seed 002 §5.4.3 (digest docs/sources.md, buzzard §8.3): an (n+1)×(n+1)
 * passive crossbar; one 1-of-(n+1) arbiter per output; "the grant at the root
 * of the tree is not asserted until the output's flow-control status is 'not
 * blocked'"; "a second similar crossbar carries flow-control signals in the
 * opposite direction". The C104 (seed 004 §3.1.1.3, §4.2.4; digest
 * docs/sources.md, c104-t9000 §3) is a 32×32 crossbar whose contention is resolved in FIFO
 * order: use policy 'fifo'.
 *
 * Ports (N inputs, M outputs, W data bits, I = bits for 0..M-1, S = bits for 0..N-1):
 *  per input i:
 *   inputs   req{i}[M]   request vector, bit j = "connect me to output j" (the
 *                         PBU's crossbar arbitration request register, §5.4.2;
 *                         hence M ≤ 32)
 *            din{i}[W]    data (Buzzard: the bit-serial link stream, W = 1)
 *            release{i}   ends the connection at this cycle's clock edge (e.g.
 *                         during the last bit); only legal while connected
 *   outputs  gnt{i}       one-cycle pulse: a connection is made at this edge
 *            gidx{i}[I]   the output granted (with gnt{i}), else the output
 *                         connected to (while conn{i}), else 0
 *            conn{i}      connected (from the cycle after the grant up to and
 *                         including the release cycle)
 *            fc{i}        reverse flow control: the `blocked` status of the
 *                         output this input is connected to; while not
 *                         connected, 1 if any output it requests is blocked
 *  per output j:
 *   inputs   blocked{j}   the downstream unit's flow-control status
 *   outputs  dout{j}[W]   din of the connected input (0 when idle)
 *            valid{j}     connected (a register)
 *            src{j}[S]    the connected input (a register; 0 when idle)
 *            oh{j}[N]     only with dataPath false (then no dout{j}): the
 *                         connection one-hot (bit i: input i; 0 when idle)
 *  children  arb{j}       output j's 1-of-N arbiter (policy and latency
 *                         configurable; defaults: tree, 2 cycles, §5.4.3)
 *
 * Connection protocol:
 *  - An output is connected to at most one input, an input to at most one
 *    output. Output j's arbiter sees `blocked{j} | valid{j}`: no grant while
 *    the downstream unit is blocked or while the output is in use.
 *  - An input that is connected does not compete: its request bits are masked
 *    from every arbiter (so it may leave its request bits set while sending,
 *    as the PBU does until step 6 of its output controller, §5.4.2).
 *  - A grant in cycle g makes the connection at the edge of g: conn/valid
 *    rise in g+1, and data flows from g+1 (the input drives its first bit in
 *    g+1 after seeing gnt in g). A release in cycle r ends it at the edge of
 *    r: r is the last cycle data flows; output j can be granted again from
 *    r+1 (its arbiter sees valid{j} = 1 in r).
 *  - Simultaneous grants: outputs are resolved in index order within the
 *    cycle. Input i's request reaches output j's arbiter only if no output
 *    j' < j grants i in the same cycle. So if two outputs would take the same
 *    input, the lower output wins and the higher one decides among its other
 *    requesters in the same cycle (or grants nobody). Because the lost
 *    request is masked before the higher arbiter decides, that arbiter never
 *    outputs, and therefore never commits state for, a grant that is not
 *    taken (BookSim's choice/update separation; §15 A9 for Buzzard). In
 *    hardware terms this is a priority chain across the output arbiters;
 *    here it is a comb chain arb0 -> mask1 -> arb1 -> mask2 -> ..., declared
 *    with explicit reads so it is not a loop.
 *    With latency L ≥ 1 the masked request restarts its age at that arbiter;
 *    it does not matter, the input is connected elsewhere from the next cycle.
 *  - Protocol errors (a `fail` naming the crossbar and the cycle): a request
 *    bit for an output the connectivity matrix does not connect; a release
 *    from an input that is not connected.
 *
 * Connectivity (config `connectivity`): 'full' (default), 'no-diagonal' (every
 * I_i→O_j except i = j: Buzzard's crossbar, §15 A3 — the strict
 * upper-triangular I_i→O_j, i < j, of Fig. 5.5 cannot carry contrary packets),
 * an N×M boolean matrix, or a predicate (i, j) => boolean.
 */
import { Module, NO_SLOTS, slotsOf, type Signal } from '../kernel/module.ts';
import { bitsFor, checkInt, checkPolicy, makeArbiter, type Arbiter, type ArbiterPolicy } from './arbiter.ts';

export type CrossbarConnectivity = 'full' | 'no-diagonal' | readonly (readonly boolean[])[] | ((i: number, j: number) => boolean);

export interface CrossbarConfig {
  /** Number of inputs N, 1..64 (Buzzard: n+1 for a degree-n cube, §5.4.3). */
  inputs: number;
  /** Number of outputs M, 1..32 (one request bit per output, §5.4.2). */
  outputs: number;
  /** Data width in bits, 1..32; default 1 (links are bit-serial, §5.4.8). */
  width?: number;
  /** Which input may connect to which output; default 'full'. */
  connectivity?: CrossbarConnectivity;
  /** Arbiter policy per output; default 'tree' (§5.4.3). */
  policy?: ArbiterPolicy;
  /** Arbiter request-to-grant latency in cycles, 0..8; default 2 (§5.4.3). */
  latency?: number;
  /**
   * The wide evaluation (the C104's 32 x 32, rtl/c104/c104.ts): one
   * flow-control process for all inputs (docs/kernel.md "Measured"). Default
   * false: a flow-control process per input that reads an output's status
   * only while the input requests or holds that output (the Buzzard node's
   * crossbar, docs/kernel.md "Stop 19: crossbar"). Either way, up to 32
   * inputs, the requests are transposed into one column wire per output.
   * Same values at every cycle.
   */
  wide?: boolean;
  /**
   * What output j's data path is guarded on (docs/kernel.md "Stop 22: FIFOs
   * and C104"). 'source' (default, the Buzzard node): the source register
   * srcr{j}, which keeps naming an input after its release, so that input's
   * characters still wake output j (to write 0 again). 'connection' (the
   * C104): a one-hot register onehot{j} (bit i: connected to input i; 0 when
   * idle), written by the clock edge with busy{j} and srcr{j}; needs N <= 32.
   * Same values at every cycle, barring a poke of busy or srcr, which moves
   * the data path under 'source' only (onehot is the connection there).
   */
  dataGuard?: 'source' | 'connection';
  /**
   * Elaborate the data path (default true). False (the C104's 'direct' data
   * path, rtl/c104/c104.ts; docs/kernel.md "Stop 24: FIFOs and C104"): no
   * dout{j} outputs and no data processes; instead outputs oh{j}[N], output
   * j's one-hot connection (the onehot{j} registers), from which the parent
   * reads the connected input's din itself. Needs dataGuard 'connection'.
   */
  dataPath?: boolean;
}

/**
 * Negative control for test/lib/crossbar_guard.test.ts only: `guardSwap`
 * guards input k's data under bit k ^ 1 of onehot{j} (the wrong guard: the
 * connected input's characters no longer wake its output). False in every
 * other use.
 */
export const CROSSBAR_FAULT = { guardSwap: false };

export class Crossbar extends Module {
  readonly config: Readonly<{ inputs: number; outputs: number; width: number; policy: ArbiterPolicy; latency: number }>;
  /** allowed[i] = bit mask of the outputs input i may request. */
  readonly allowed: readonly number[];
  readonly req: readonly Signal[];
  readonly din: readonly Signal[];
  readonly release: readonly Signal[];
  readonly gnt: readonly Signal[];
  readonly gidx: readonly Signal[];
  readonly conn: readonly Signal[];
  readonly fc: readonly Signal[];
  readonly blocked: readonly Signal[];
  readonly dout: readonly Signal[];
  readonly valid: readonly Signal[];
  readonly src: readonly Signal[];
  /** Per output, its one-hot connection (bit i: connected to input i), with dataPath false; else empty. */
  readonly oh: readonly Signal[];
  readonly arbiters: readonly Arbiter[];

  constructor(parent: Module | null, name: string, config: CrossbarConfig) {
    super(parent, name);
    if (typeof config !== 'object' || config === null) throw new RangeError('crossbar: expected a config object { inputs, outputs, width?, ... }');
    const N = checkInt('crossbar', 'inputs', config.inputs, 1, 64);
    const M = checkInt('crossbar', 'outputs', config.outputs, 1, 32);
    const W = checkInt('crossbar', 'width', config.width ?? 1, 1, 32);
    const policy = checkPolicy('crossbar', 'policy', config.policy, 'tree');
    const latency = checkInt('crossbar', 'latency', config.latency ?? 2, 0, 8);
    this.config = { inputs: N, outputs: M, width: W, policy, latency };
    const allowed = (this.allowed = connectivityMasks(N, M, config.connectivity ?? 'full'));

    const req = (this.req = this.inputs('req', N, M));
    const din = (this.din = this.inputs('din', N, W));
    const release = (this.release = this.inputs('release', N));
    const gnt = (this.gnt = this.outputs('gnt', N));
    const gidx = (this.gidx = this.outputs('gidx', N, bitsFor(M)));
    const conn = (this.conn = this.outputs('conn', N));
    const fc = (this.fc = this.outputs('fc', N));
    const blocked = (this.blocked = this.inputs('blocked', M));
    if (config.dataPath !== undefined && typeof config.dataPath !== 'boolean') throw new RangeError(`crossbar: dataPath must be true or false, got ${String(config.dataPath)}`);
    const dataPath = config.dataPath ?? true;
    if (!dataPath && config.dataGuard !== 'connection') throw new RangeError(`crossbar: dataPath false needs dataGuard 'connection'`);
    const dout = (this.dout = dataPath ? this.outputs('dout', M, W) : []);
    const valid = (this.valid = this.outputs('valid', M));
    const src = (this.src = this.outputs('src', M, bitsFor(N)));

    // Connection state, kept from both sides (updated together at the edge).
    const busy = this.regs('busy', M, 1, 0);
    const srcr = this.regs('srcr', M, bitsFor(N), 0);
    const iconn = this.regs('iconn', N, 1, 0);
    const iout = this.regs('iout', N, bitsFor(M), 0);
    for (let j = 0; j < M; j++) {
      this.connect(busy[j]!, valid[j]!);
      this.connect(srcr[j]!, src[j]!);
    }
    for (let i = 0; i < N; i++) this.connect(iconn[i]!, conn[i]!);
    if (config.dataGuard !== undefined && config.dataGuard !== 'source' && config.dataGuard !== 'connection') {
      throw new RangeError(`crossbar: dataGuard must be 'source' or 'connection', got ${String(config.dataGuard)}`);
    }
    if (config.dataGuard === 'connection' && N > 32) throw new RangeError(`crossbar: dataGuard 'connection' needs at most 32 inputs, got ${N}`);
    // One-hot connection per output (dataGuard 'connection'), else none.
    const hot = config.dataGuard === 'connection' ? this.regs('onehot', M, N, 0) : null;
    // Without a data path the parent reads the connection (and the inputs' data) itself.
    this.oh = dataPath ? [] : this.outputs('oh', M, N);
    for (let j = 0; j < this.oh.length; j++) this.connect(hot![j]!, this.oh[j]!);

    // Output arbiters and the wires that reach them.
    const arbiters: Arbiter[] = [];
    const areq: Signal[][] = [];
    const ablk: Signal[] = [];
    const aany: Signal[] = [];
    const aidx: Signal[] = [];
    for (let j = 0; j < M; j++) {
      const arb = makeArbiter(this, `arb${j}`, { size: N, latency, policy });
      arbiters.push(arb);
      const row: Signal[] = [];
      for (let i = 0; i < N; i++) {
        const w = this.wire(`ar${j}_${i}`);
        this.connect(w, arb.req[i]!);
        row.push(w);
      }
      areq.push(row);
      const b = this.wire(`ab${j}`);
      this.connect(b, arb.blocked);
      ablk.push(b);
      const a = this.wire(`aany${j}`);
      this.connect(arb.any, a);
      aany.push(a);
      const x = this.wire(`aidx${j}`, arb.idx.width);
      this.connect(arb.idx, x);
      aidx.push(x);
    }
    this.arbiters = arbiters;
    // Slot indices in the closures (Module.whenSlots; docs/kernel.md "Stop 20: cost per evaluation").
    let aanyIs = NO_SLOTS, aidxIs = NO_SLOTS, blockedIs = NO_SLOTS, busyIs = NO_SLOTS, busyNs = NO_SLOTS, dinIs = NO_SLOTS, doutIs = NO_SLOTS, gidxIs = NO_SLOTS, gntIs = NO_SLOTS, iconnIs = NO_SLOTS, iconnNs = NO_SLOTS, ioutIs = NO_SLOTS, ioutNs = NO_SLOTS, releaseIs = NO_SLOTS, reqIs = NO_SLOTS, srcrIs = NO_SLOTS, srcrNs = NO_SLOTS, hotIs = NO_SLOTS, hotNs = NO_SLOTS;
    this.whenSlots(() => {
      aanyIs = slotsOf(aany, 'i');
      aidxIs = slotsOf(aidx, 'i');
      blockedIs = slotsOf(blocked, 'i');
      busyIs = slotsOf(busy, 'i');
      busyNs = slotsOf(busy, 'n');
      dinIs = slotsOf(din, 'i');
      doutIs = slotsOf(dout, 'i');
      gidxIs = slotsOf(gidx, 'i');
      gntIs = slotsOf(gnt, 'i');
      iconnIs = slotsOf(iconn, 'i');
      iconnNs = slotsOf(iconn, 'n');
      ioutIs = slotsOf(iout, 'i');
      ioutNs = slotsOf(iout, 'n');
      releaseIs = slotsOf(release, 'i');
      reqIs = slotsOf(req, 'i');
      srcrIs = slotsOf(srcr, 'i');
      srcrNs = slotsOf(srcr, 'n');
      hotIs = hot ? slotsOf(hot, 'i') : NO_SLOTS;
      hotNs = hot ? slotsOf(hot, 'n') : NO_SLOTS;
    });

    // Scratch: inputs claimed by lower outputs in this cycle (cleared after use).
    const claimed = new Uint8Array(N);

    // Up to 32 inputs the requests are transposed first: wire col{j} holds
    // the inputs (bit i) that request output j and are not connected. With
    // every request read by every output's mask, one request (or connection)
    // change woke all M masks (M x N work); now it wakes this process and the
    // masks of the outputs whose column changed (docs/kernel.md "Exact
    // sensitivity", "Stop 19: crossbar").
    // A crossbar with a flow-control process per input (not `wide`: the
    // Buzzard node) also gets here, per input, wire fsel{i}: the outputs
    // whose status is its flow control (the one it is connected to, else the
    // allowed ones it requests), the `bits` guard of its fc process below.
    if (config.wide !== undefined && typeof config.wide !== 'boolean') throw new RangeError(`crossbar: wide must be true or false, got ${String(config.wide)}`);
    const wide = config.wide === true;
    const cols = N <= 32 ? Array.from({ length: M }, (_, j) => this.wire(`col${j}`, N)) : null;
    const fsel = wide ? null : Array.from({ length: N }, (_, i) => this.wire(`fsel${i}`, M));
    const acc = new Array<number>(M).fill(0);
    if (cols || fsel) {
      this.comb(
        () => {
          const s = this.s;
          acc.fill(0);
          for (let i = 0; i < N; i++) {
            const connected = s[iconnIs[i]!] === 1;
            let r = (s[reqIs[i]!]! & allowed[i]!) >>> 0;
            if (fsel) s[fsel[i]!.i] = connected ? (1 << s[ioutIs[i]!]!) >>> 0 : r;
            if (!cols || connected) continue;
            while (r !== 0) {
              const low = r & -r;
              acc[31 - Math.clz32(low)]! |= 1 << i;
              r = (r ^ low) >>> 0;
            }
          }
          if (cols) for (let j = 0; j < M; j++) s[cols[j]!.i] = acc[j]! >>> 0;
        },
        { writes: [...(cols ?? []), ...(fsel ?? [])], reads: [...req, ...iconn, ...(fsel ? iout : [])], name: wide ? 'cols' : 'sel' },
      );
    }

    for (let j = 0; j < M; j++) {
      const row = areq[j]!;
      // Output j's arbiter is blocked downstream or busy; the downstream
      // status matters only while the output is free (a guard on busy{j}).
      const b = ablk[j]!;
      const bj = blocked[j]!;
      const busyj = busy[j]!;
      this.comb(
        () => {
          const s = this.s;
          s[b.i] = s[bj.i] === 1 || s[busyj.i] === 1 ? 1 : 0;
        },
        { writes: [b], reads: [busyj], readsWhen: [{ when: busyj, is: [0], reads: [bj] }], name: `block${j}` },
      );
      // Requests to output j: allowed, from unconnected inputs, not taken by
      // a lower output in this very cycle (the resolution chain).
      if (cols) {
        // From output j's column of requests (see `cols`); the lower outputs'
        // grants matter only while the column is not empty (a `bits` guard).
        const col = cols[j]!;
        this.comb(
          () => {
            const s = this.s;
            let claim = 0;
            for (let jj = 0; jj < j; jj++) if (s[aanyIs[jj]!] === 1) claim |= 1 << s[aidxIs[jj]!]!;
            const v = s[col.i]! & ~claim;
            for (let i = 0; i < N; i++) s[row[i]!.i] = (v >>> i) & 1;
          },
          { writes: row, reads: [col], readsWhen: j > 0 ? [{ when: col, bits: col.mask, reads: [...aany.slice(0, j), ...aidx.slice(0, j)] }] : [], name: `mask${j}` },
        );
        continue;
      }
      this.comb(
        () => {
          const s = this.s;
          for (let jj = 0; jj < j; jj++) if (s[aanyIs[jj]!] === 1) claimed[s[aidxIs[jj]!]!] = 1;
          for (let i = 0; i < N; i++) {
            const r = s[reqIs[i]!]!;
            s[row[i]!.i] = ((r & allowed[i]!) >>> j) & 1 && s[iconnIs[i]!] === 0 && claimed[i] === 0 ? 1 : 0;
          }
          for (let jj = 0; jj < j; jj++) if (s[aanyIs[jj]!] === 1) claimed[s[aidxIs[jj]!]!] = 0;
        },
        { writes: row, reads: [...req, ...iconn, ...aany.slice(0, j), ...aidx.slice(0, j)], name: `mask${j}` },
      );
    }

    // Data path: the passive crossbar. With a source register of at most 5
    // bits (the kernel's guard limit) one process per output, which reads an
    // input only while it is connected to it (guarded reads, docs/kernel.md
    // "Exact sensitivity"): an input bit that changes wakes just the output
    // it drives. Wider crossbars keep one process for all outputs (a plain
    // per-output process would be woken by every input's changes).
    if (!dataPath) {
      // No data path here: the parent's reader takes din of the input oh{j} names.
    } else if (hot) {
      // Guarded on the connection itself (dataGuard 'connection'): input k's
      // data wakes output j only while connected to it, not after its release.
      for (let j = 0; j < M; j++) {
        const hj = hot[j]!;
        const guards = [];
        for (let k = 0; k < N; k++) {
          const bit = CROSSBAR_FAULT.guardSwap && (k ^ 1) < N ? k ^ 1 : k;
          guards.push({ when: hj, bits: (1 << bit) >>> 0, reads: [din[k]!] });
        }
        this.comb(
          () => {
            const s = this.s;
            const h = s[hotIs[j]!]!;
            s[doutIs[j]!] = h !== 0 ? s[dinIs[31 - Math.clz32(h)]!]! : 0;
          },
          { writes: [dout[j]!], reads: [hj], readsWhen: guards, name: `data${j}` },
        );
      }
    } else if (bitsFor(N) <= 5) {
      for (let j = 0; j < M; j++) {
        const dj = dout[j]!;
        const bj = busy[j]!;
        const sj = srcr[j]!;
        const guards = [];
        // Every input, not only those allowed to reach j: a poked srcr (or
        // the reset value 0 where input 0 may not reach j) names an input the
        // reference mode reads too (docs/kernel.md "Stop 22: review").
        for (let k = 0; k < N; k++) guards.push({ when: sj, is: [k], reads: [din[k]!] });
        this.comb(
          () => {
            const s = this.s;
            s[dj.i] = s[bj.i] === 1 ? s[dinIs[s[sj.i]!]!]! : 0;
          },
          { writes: [dj], reads: [bj, sj], readsWhen: guards, name: `data${j}` },
        );
      }
    } else {
      this.comb(
        () => {
          const s = this.s;
          for (let j = 0; j < M; j++) s[doutIs[j]!] = s[busyIs[j]!] === 1 ? s[din[s[srcrIs[j]!]!]!.i]! : 0;
        },
        { writes: dout, reads: [...busy, ...srcr, ...din], name: 'data' },
      );
    }

    // Grants back to the inputs.
    this.comb(
      () => {
        const s = this.s;
        for (let i = 0; i < N; i++) {
          s[gntIs[i]!] = 0;
          s[gidxIs[i]!] = s[iconnIs[i]!] === 1 ? s[ioutIs[i]!]! : 0;
        }
        for (let j = 0; j < M; j++) {
          if (s[aanyIs[j]!] === 1) {
            const i = s[aidxIs[j]!]!;
            s[gntIs[i]!] = 1;
            s[gidxIs[i]!] = j;
          }
        }
      },
      { writes: [...gnt, ...gidx], reads: [...aany, ...aidx, ...iconn, ...iout], name: 'grants' },
    );

    // The companion crossbar: flow control flows from outputs back to inputs.
    // Input i's status is 1 if an output in fsel{i} (the one it is connected
    // to, else the ones it requests) is blocked; it reads output j's status
    // only while bit j of fsel{i} is set (a `bits` guard), so a status change
    // wakes just the inputs it concerns (docs/kernel.md "Stop 19: crossbar").
    if (fsel) {
      for (let i = 0; i < N; i++) {
        const f = fc[i]!;
        const fs = fsel[i]!;
        const guards = [];
        for (let j = 0; j < M; j++) if ((allowed[i]! >>> j) & 1) guards.push({ when: fs, bits: (1 << j) >>> 0, reads: [blocked[j]!] });
        this.comb(
          () => {
            const s = this.s;
            let r = s[fs.i]!;
            let v = 0;
            while (r !== 0 && v === 0) {
              const low = r & -r;
              v = s[blockedIs[31 - Math.clz32(low)]!]!;
              r = (r ^ low) >>> 0;
            }
            s[f.i] = v;
          },
          { writes: [f], reads: [fs], readsWhen: guards, name: `fc${i}` },
        );
      }
    } else {
      // A wide crossbar (config `wide`: the C104's 32 inputs): one process for all inputs.
      // Each input's process reads every output's status (an unconnected
      // input may request any), so one status change woke all N of them;
      // one process does the same work in one evaluation (measured on a
      // loaded C104 mesh: docs/kernel.md "Measured").
      // The statuses as one bit vector, then each input by mask (slots
      // gathered once: this process is hot on a loaded C104 network).
      let slots: Int32Array | null = null;
      this.comb(
        () => {
          const s = this.s;
          if (slots === null) slots = Int32Array.from([...blocked, ...iconn, ...iout, ...req, ...fc].map((x) => x.i));
          const sl = slots;
          let bm = 0;
          for (let j = 0; j < M; j++) if (s[sl[j]!] === 1) bm |= 1 << j;
          for (let i = 0; i < N; i++) {
            const v = s[sl[M + i]!] === 1 ? (bm >>> s[sl[M + N + i]!]!) & 1 : (s[sl[M + 2 * N + i]!]! & allowed[i]! & bm) !== 0 ? 1 : 0;
            s[sl[M + 3 * N + i]!] = v;
          }
        },
        { writes: [...fc], reads: [...iconn, ...iout, ...req, ...blocked], name: 'fc' },
      );
    }

    // Clock edge: make the granted connections, end the released ones, check
    // the protocol.
    this.seq(
      () => {
        const s = this.s;
        for (let i = 0; i < N; i++) {
          const r = s[reqIs[i]!]!;
          if ((r & ~allowed[i]!) !== 0) this.badRequest(i, r);
          if (s[releaseIs[i]!] === 1) {
            if (s[iconnIs[i]!] !== 1) this.fail(`input ${i} asserts release but is not connected to any output`);
            s[iconnNs[i]!] = 0;
            s[busy[s[ioutIs[i]!]!]!.n] = 0;
            if (hot) s[hotNs[s[ioutIs[i]!]!]!] = 0;
          }
        }
        for (let j = 0; j < M; j++) {
          if (s[aanyIs[j]!] !== 1) continue;
          const i = s[aidxIs[j]!]!;
          s[busyNs[j]!] = 1;
          s[srcrNs[j]!] = i;
          s[iconnNs[i]!] = 1;
          s[ioutNs[i]!] = j;
          if (hot) s[hotNs[j]!] = (1 << i) >>> 0;
        }
      },
      // What it truly reads (docs/kernel.md "Exact sensitivity"): not the data
      // inputs, whose every bit would otherwise wake it.
      { reads: [...req, ...release, ...iconn, ...iout, ...aany, ...aidx], name: 'connect' },
    );
  }

  private badRequest(i: number, r: number): never {
    const bad: string[] = [];
    for (let j = 0; j < this.config.outputs; j++) if (((r >>> j) & 1) === 1 && ((this.allowed[i]! >>> j) & 1) === 0) bad.push(`I${i}→O${j}`);
    this.fail(`input ${i} requests ${bad.join(', ')}, which the connectivity matrix does not connect (req${i} = 0x${(r >>> 0).toString(16)})`);
  }
}

/** Per input, the bit mask of allowed outputs; validates the matrix. */
function connectivityMasks(N: number, M: number, c: CrossbarConnectivity): number[] {
  const masks: number[] = [];
  if (c === 'full' || c === 'no-diagonal') {
    for (let i = 0; i < N; i++) {
      let m = 0;
      for (let j = 0; j < M; j++) if (c === 'full' || i !== j) m |= 1 << j;
      masks.push(m >>> 0);
    }
    return masks;
  }
  if (typeof c === 'function') {
    for (let i = 0; i < N; i++) {
      let m = 0;
      for (let j = 0; j < M; j++) {
        const v = c(i, j);
        if (typeof v !== 'boolean') throw new RangeError(`crossbar.connectivity: predicate returned ${String(v)} for (${i}, ${j}); expected true or false`);
        if (v) m |= 1 << j;
      }
      masks.push(m >>> 0);
    }
    return masks;
  }
  if (!Array.isArray(c)) {
    throw new RangeError(`crossbar.connectivity: expected 'full', 'no-diagonal', an ${N}×${M} boolean matrix or a predicate (i, j) => boolean`);
  }
  if (c.length !== N) throw new RangeError(`crossbar.connectivity: ${c.length} rows given for ${N} inputs`);
  c.forEach((row, i) => {
    if (!Array.isArray(row) || row.length !== M) {
      throw new RangeError(`crossbar.connectivity: row ${i} has ${Array.isArray(row) ? row.length : 'no'} entries for ${M} outputs`);
    }
    let m = 0;
    row.forEach((v, j) => {
      if (typeof v !== 'boolean') throw new RangeError(`crossbar.connectivity: entry [${i}][${j}] is ${String(v)}; expected true or false`);
      if (v) m |= 1 << j;
    });
    masks.push(m >>> 0);
  });
  return masks;
}
