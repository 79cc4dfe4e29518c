/**
 * The 1-of-2 arbiter module: the building block of Buzzard's tree arbiters
 * (seed 002 §5.4.3, Fig. 5.6; module after [PFL75]; digest
 * docs/sources.md, buzzard §8.3 and §15 A10).
 *
 * Ports:
 *  inputs   req0, req1  requests from the two subtrees (or requesters)
 *           en          grant from above (the parent module's grant to this
 *                       subtree; at the root of a tree: "output not blocked")
 *  outputs  req         req0 | req1, the request this subtree sends up
 *           gnt0, gnt1  grants down to the two sides (at most one high)
 *  register pri         which side has priority if both request: 0 or 1
 *
 * Priority alternates: the side just granted loses priority (§15 A10, "tree
 * round-robin"). The [PFL75] module is an asynchronous mutual-exclusion
 * element; the emulator replaces its analogue tie-break by this deterministic
 * toggle so that runs are reproducible.
 *
 * Timing: the request path goes up (2 gate delays per module in the seed) and
 * the grant path comes down (1 gate delay per module); both are combinational
 * here. The two directions are two comb processes with explicit reads: the
 * up process reads only req0/req1, the down process reads en, req0, req1 and
 * pri. Had either read every signal of the module (the kernel's default), a
 * tree of these modules would show a false combinational loop through
 * req -> parent -> en.
 *
 * State update (BookSim-style separation of choice and commit): `pri` changes
 * only in a cycle in which this module actually passes a grant down, i.e. en
 * is high and at least one side requests. Because `en` is the grant that
 * really arrived from above, a module never commits a choice that lost higher
 * up the tree.
 */
import { Module, type Signal } from '../kernel/module.ts';

export class Arbiter2 extends Module {
  readonly req0: Signal;
  readonly req1: Signal;
  readonly en: Signal;
  readonly req: Signal;
  readonly gnt0: Signal;
  readonly gnt1: Signal;
  /** Side with priority when both request (0 or 1); reset 0 (side 0 first). */
  readonly pri: Signal;
  /** Negative control only: the commit not woken by gnt1 (the lock-step tests must catch it). */
  static wrongNoGnt1 = false;
  /** Negative control only: the down process's requests read while en is 0 instead of 1. */
  static wrongDownGuard = false;

  constructor(parent: Module | null, name: string) {
    super(parent, name);
    const req0 = (this.req0 = this.input('req0'));
    const req1 = (this.req1 = this.input('req1'));
    const en = (this.en = this.input('en'));
    const req = (this.req = this.output('req'));
    const gnt0 = (this.gnt0 = this.output('gnt0'));
    const gnt1 = (this.gnt1 = this.output('gnt1'));
    const pri = (this.pri = this.reg('pri', 1, 0));
    // Slot indices in the closures (Module.whenSlots; docs/kernel.md "Stop 20: cost per evaluation").
    let enI = 0, gnt0I = 0, gnt1I = 0, priI = 0, priN = 0, reqI = 0, req0I = 0, req1I = 0;
    this.whenSlots(() => {
      [enI, gnt0I, gnt1I, priI, priN, reqI, req0I, req1I] = [en.i, gnt0.i, gnt1.i, pri.i, pri.n, req.i, req0.i, req1.i];
    });

    // Up: request to the parent.
    this.comb(
      () => {
        const s = this.s;
        s[reqI] = s[req0I]! | s[req1I]!;
      },
      { writes: [req], reads: [req0, req1], name: 'up' },
    );

    // Down: grants. With both sides requesting, the side named by pri wins.
    this.comb(
      () => {
        const s = this.s;
        const e = s[enI]!;
        const r0 = s[req0I]!;
        const r1 = s[req1I]!;
        const p = s[priI]!;
        s[gnt0I] = e === 1 && r0 === 1 && (r1 === 0 || p === 0) ? 1 : 0;
        s[gnt1I] = e === 1 && r1 === 1 && (r0 === 0 || p === 1) ? 1 : 0;
      },
      // With en 0 both grants are 0 whatever the requests and pri: they wake
      // it only while en is 1 (a guard on the input en, as the commit had
      // before stop 22; docs/kernel.md "Stop 22: Buzzard").
      { writes: [gnt0, gnt1], reads: [en], readsWhen: [{ when: en, is: [Arbiter2.wrongDownGuard ? 0 : 1], reads: [req0, req1, pri] }], name: 'down' },
    );

    // Commit: only when a grant is actually given here. The grant given is
    // gnt0 or gnt1 (the down process: at most one high, and one high exactly
    // when en is 1 and a side requests), and the side granted loses
    // priority: pri becomes 1 after gnt0, 0 after gnt1. So the commit reads
    // the two grants, woken on their rises: a grant held over edges wrote
    // the same pri again, and with both grants 0 it does nothing (wake on
    // rise, docs/kernel.md "Exact sensitivity", "Stop 22: Buzzard"). Before
    // stop 22 it read en, and req0, req1 and pri while en was 1: those runs
    // recomputed an unchanged pri at nearly every request change.
    this.seq(
      () => {
        const s = this.s;
        if (s[gnt0I] === 1) s[priN] = 1;
        else if (s[gnt1I] === 1) s[priN] = 0;
      },
      { reads: [], readsWhen: [{ when: gnt0, bits: 1, reads: [], rise: true }, ...(Arbiter2.wrongNoGnt1 ? [] : [{ when: gnt1, bits: 1, reads: [], rise: true }])], name: 'commit' },
    );
  }
}
