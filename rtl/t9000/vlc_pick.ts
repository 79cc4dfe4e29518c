/**
 * The virtual link control's round robin (rtl/t9000/vlc.ts; seed 004
 * §3.1.1.1's per-link FIFO, docs/t9000.md#virtual-links): per link, the VL
 * picked for an ack and for a data packet is the first at or after the
 * link's pointer (rrAck, rrData), cyclically, among the VLs on the work list
 * that want one (only those can).
 *
 * Two rules give the same picks (test/t9000/vlc_pick.test.ts, lock-step):
 * 'pass' (default) finds them for every link and both kinds in one pass over
 * the work list, without a closure per VL and link (docs/kernel.md "Stop 23:
 * endpoints per cycle"); 'scan' is the reference, a scan of the work list per
 * link and kind (the rule before stop 23). The VLs are distinct, so the
 * nearest is unique and the order of the pass does not matter.
 */

/** What a VL wants this cycle, as the VLC's view computed it: candKind 0 = no data packet. */
export const NO_CANDIDATE = 0;

/** A register as the pick reads it: its slot in the state vector, known only once the design is elaborated (read at each pick, never cached at construction). */
interface Slotted {
  readonly i: number;
}

export class VlcPick {
  /** Per link, the VL picked for an ack (data packet), or −1: valid after `pick` until its next call. */
  readonly bestAck: Int32Array;
  readonly bestData: Int32Array;
  private readonly bestAckD: Int32Array;
  private readonly bestDataD: Int32Array;
  private readonly fromAck: Int32Array;
  private readonly fromData: Int32Array;
  private readonly linkOf: Int32Array;

  constructor(
    private readonly V: number,
    private readonly L: number,
    vlLink: readonly number[],
    /** The fault 'pick-one-link': every VL counted as on link 0 (a wrong bucket, for the controls). */
    private readonly oneLink: boolean,
  ) {
    this.linkOf = Int32Array.from(vlLink);
    this.bestAck = new Int32Array(L);
    this.bestData = new Int32Array(L);
    this.bestAckD = new Int32Array(L);
    this.bestDataD = new Int32Array(L);
    this.fromAck = new Int32Array(L);
    this.fromData = new Int32Array(L);
  }

  /**
   * This cycle's picks into bestAck/bestData. `s` is the state vector,
   * rrAck/rrData the links' pointer registers, work[0..nWork) the
   * work list, ackWant[v] ≠ 0 and candKind[v] ≠ NO_CANDIDATE what v wants.
   */
  pick(
    rule: 'pass' | 'scan',
    s: ArrayLike<number>,
    rrAck: readonly Slotted[],
    rrData: readonly Slotted[],
    work: Int32Array,
    nWork: number,
    ackWant: Uint8Array,
    candKind: Uint8Array,
  ): void {
    const { V, L, fromAck, fromData, bestAck, bestData, bestAckD, bestDataD, linkOf, oneLink } = this;
    if (rule === 'scan') {
      // The reference reads the pointers on its own, so that the lock-step compares two derivations.
      for (let k = 0; k < L; k++) {
        bestAck[k] = this.scan(k, s[rrAck[k]!.i]!, work, nWork, ackWant, 0);
        bestData[k] = this.scan(k, s[rrData[k]!.i]!, work, nWork, candKind, NO_CANDIDATE);
      }
      return;
    }
    for (let k = 0; k < L; k++) {
      fromAck[k] = s[rrAck[k]!.i]!;
      fromData[k] = s[rrData[k]!.i]!;
      bestAck[k] = bestData[k] = -1;
      bestAckD[k] = bestDataD[k] = V;
    }
    for (let i = 0; i < nWork; i++) {
      const v = work[i]!;
      const k = oneLink ? 0 : linkOf[v]!;
      if (ackWant[v] !== 0) {
        const d = (v - fromAck[k]! + V) % V;
        if (d < bestAckD[k]!) {
          bestAck[k] = v;
          bestAckD[k] = d;
        }
      }
      if (candKind[v] !== NO_CANDIDATE) {
        const d = (v - fromData[k]! + V) % V;
        if (d < bestDataD[k]!) {
          bestData[k] = v;
          bestDataD[k] = d;
        }
      }
    }
  }

  /** The reference: link k's pick among the VLs v on the work list on link k with want[v] ≠ none, nearest at or after `from`. */
  private scan(k: number, from: number, work: Int32Array, nWork: number, want: Uint8Array, none: number): number {
    const { V, linkOf } = this;
    let best = -1;
    let bestD = V;
    for (let i = 0; i < nWork; i++) {
      const v = work[i]!;
      if (linkOf[v] !== k || want[v] === none) continue;
      const d = (v - from + V) % V;
      if (d < bestD) [best, bestD] = [v, d];
    }
    return best;
  }
}
