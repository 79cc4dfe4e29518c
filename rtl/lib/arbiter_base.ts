/**
 * The common interface of every 1-of-M arbiter, and the request-to-grant
 * latency front end they share. Policies: arbiter_tree.ts (Buzzard, seed 002
 * §5.4.3), arbiter_rr.ts (flat round-robin), arbiter_fifo.ts (C104 FIFO order,
 * seed 004 §4.2.4), arbiter_fixed.ts (fixed priority, a negative control).
 * Build them through `makeArbiter` in arbiter.ts.
 *
 * Ports (M = size, I = bits for 0..M-1):
 *  inputs   req0..req{M-1}  requests; a requester holds req until granted
 *           blocked         the output's flow-control status: no grant while 1
 *                           (§5.4.3: "the grant at the root of the tree is not
 *                           asserted until the output's flow-control status is
 *                           'not blocked'")
 *  outputs  gnt0..gnt{M-1}  grants: a one-cycle pulse, at most one high per cycle
 *           any             some gnt is high
 *           idx[I]          index of the high gnt (0 when none)
 *
 * Latency L (config `latency`, 0..8, default 2: §5.4.3 "two cycles are
 * budgeted" for the 12 gate delays of a 1-of-11 tree; digest §8.3, §16).
 *  - L = 0: the grant is combinational from the current requests.
 *  - L >= 1: the arbitration is modelled as a multicycle path. A request first
 *    visible in cycle t takes part in the decision from cycle t+L on, so a
 *    lone request is granted in exactly cycle t+L. Each requester has an age
 *    register counting the cycles its request has been held (saturating at
 *    L); the decision logic (the policy) sees `ereq_k = req_k & (age_k == L)`.
 *    Because ereq is gated with the current req, a requester that dropped its
 *    request is never granted.
 *  Why not L−1 request stage registers + decision + grant register: such a
 *  pipeline keeps deciding on stale copies of a request for L cycles after it
 *  was granted or dropped; gating the registered grant with the current req
 *  would then throw those decisions away (wasted cycles) after the policy had
 *  already committed state for them, and a requester holding req for a second
 *  access would be granted twice from one decision. The multicycle model has
 *  the same observable latency for a held request without stale decisions.
 *  Consequences (documented contract):
 *   - a request that is dropped before its grant is forgotten: its age (and,
 *     for the FIFO policy, its place in the queue) is lost; raising it again
 *     starts a new request with the full latency L;
 *   - a grant ends the request: if the requester keeps req high in the next
 *     cycle that is a new request, granted at the earliest L cycles later.
 *     With L >= 1 one requester is therefore granted at most once every L+1
 *     cycles; with L = 0, every cycle;
 *   - blocking does not reset ages: a request that waited while blocked can be
 *     granted in the first unblocked cycle (the request has already propagated
 *     up the tree; only the grant has to come down).
 *
 * State commit (BookSim2 separation of choice and update): every policy
 * updates its state (tree priorities, round-robin pointer, FIFO queue) from
 * the grants it actually output, never from a choice that was not delivered.
 * A parent that must discard a grant (e.g. the crossbar resolving two outputs
 * granting one input) does it by masking that requester's req in the same
 * cycle, before the arbiter decides; see crossbar.ts.
 */
import { bitsToHold, checkInt } from './check.ts';
import { Module, type Signal } from '../kernel/module.ts';

export const ARBITER_POLICIES = ['tree', 'round-robin', 'fifo', 'fixed-priority'] as const;
export type ArbiterPolicy = (typeof ARBITER_POLICIES)[number];

/** Largest number of requesters (a 1-of-64 tree has depth 6). */
export const ARBITER_MAX_SIZE = 64;
/** Largest request-to-grant latency in cycles. */
export const ARBITER_MAX_LATENCY = 8;
/** Seed 002 §5.4.3: "two cycles are budgeted" for arbitration. */
export const ARBITER_DEFAULT_LATENCY = 2;

export interface ArbiterOptions {
  /** Number of requesters M, 1..64 (Buzzard: n+1 per crossbar output, §5.4.3). */
  size: number;
  /** Request-to-grant latency in cycles, 0..8; default 2 (§5.4.3). */
  latency?: number;
}

/** Bits needed to hold an index 0..n-1 (at least 1). */
export function bitsFor(n: number): number {
  return bitsToHold(n - 1);
}

export { checkInt };

export abstract class Arbiter extends Module {
  readonly policy: ArbiterPolicy;
  /** Number of requesters M. */
  readonly size: number;
  /** Request-to-grant latency L in cycles. */
  readonly latency: number;
  readonly req: readonly Signal[];
  readonly blocked: Signal;
  readonly gnt: readonly Signal[];
  readonly any: Signal;
  readonly idx: Signal;
  /**
   * The requests the decision logic sees: `req` itself when L = 0, otherwise
   * wires `ereq{k}` = req_k held for L cycles (see the header).
   */
  protected readonly ereq: readonly Signal[];
  /** Age registers `age{k}` (empty when L = 0). */
  protected readonly age: readonly Signal[];

  constructor(parent: Module | null, name: string, opts: ArbiterOptions, policy: ArbiterPolicy) {
    super(parent, name);
    if (typeof opts !== 'object' || opts === null) throw new RangeError('arbiter: expected a config object { size, latency?, policy? }');
    const M = checkInt('arbiter', 'size', opts.size, 1, ARBITER_MAX_SIZE);
    const L = checkInt('arbiter', 'latency', opts.latency ?? ARBITER_DEFAULT_LATENCY, 0, ARBITER_MAX_LATENCY);
    this.policy = policy;
    this.size = M;
    this.latency = L;
    const req = (this.req = this.inputs('req', M));
    this.blocked = this.input('blocked');
    const gnt = (this.gnt = this.outputs('gnt', M));
    this.any = this.output('any');
    this.idx = this.output('idx', bitsFor(M));

    if (L === 0) {
      this.ereq = req;
      this.age = [];
      return;
    }
    const age = (this.age = this.regs('age', M, bitsFor(L + 1), 0));
    const ereq: Signal[] = [];
    for (let k = 0; k < M; k++) ereq.push(this.wire(`ereq${k}`));
    this.ereq = ereq;

    // Slot indices in the closures (Module.whenSlots; docs/kernel.md "Stop 20: cost per evaluation").
    const ereqI = new Int32Array(M);
    const reqI = new Int32Array(M);
    const gntI = new Int32Array(M);
    const ageI = new Int32Array(M);
    const ageN = new Int32Array(M);
    this.whenSlots(() => {
      for (let k = 0; k < M; k++) {
        ereqI[k] = ereq[k]!.i;
        reqI[k] = req[k]!.i;
        gntI[k] = gnt[k]!.i;
        ageI[k] = age[k]!.i;
        ageN[k] = age[k]!.n;
      }
    });

    this.comb(
      () => {
        const s = this.s;
        for (let k = 0; k < M; k++) s[ereqI[k]!] = s[reqI[k]!] === 1 && s[ageI[k]!] === L ? 1 : 0;
      },
      { writes: ereq, reads: [...req, ...age], name: 'eligible' },
    );
    // Age: cycles the current request has been held, saturating at L. A grant
    // ends the request, a dropped request is forgotten.
    this.seq(
      () => {
        const s = this.s;
        for (let k = 0; k < M; k++) s[ageN[k]!] = s[reqI[k]!] === 1 && s[gntI[k]!] === 0 ? Math.min(s[ageI[k]!]! + 1, L) : 0;
      },
      { reads: [...req, ...gnt, ...age], name: 'aging' },
    );
  }

  /**
   * The largest number of grants to other requesters that requester k,
   * holding its request, can see between the cycle its request becomes
   * eligible (held for L cycles) and its own grant. Each policy proves its own.
   * Infinity for a policy with no bound.
   */
  abstract fairnessBound(k: number): number;
}
