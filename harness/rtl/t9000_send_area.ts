/**
 * One endpoint's send area as the process driver hands it out
 * (docs/c104.md#send-area): message buffers in `sendAreaBytes` bytes of the
 * node's memory. A buffer stays taken from the cycle its send enters the
 * virtual link's send queue until that send is done (the endpoint's `sDone`
 * count for the virtual link passed it): the endpoint reads the bytes as it
 * sends the packets, so writing over them earlier would change a message in
 * flight. Buffers of a process that sends one buffer again and again
 * (`pin`) stay taken for good.
 *
 * Where: the next address after the previous buffer, back to 0 when the
 * message does not fit before the end (the old wrapping bump allocator, so a
 * run that never needs a taken buffer keeps its addresses); when that place
 * overlaps a taken buffer, the first free gap that fits, searching on from
 * there and wrapping; none: `alloc` answers −1 and the driver holds the send
 * until a send of the node completes (t9000_driver.ts).
 *
 * `wrapping` turns the check off: the old allocator, which overwrites queued
 * messages past saturation (kept as the negative control of the byte-exact
 * property, test/c104/send_area.test.ts).
 */

/** A taken buffer: [addr, end) for the send numbered n on virtual link vl (n −1: pinned). */
export interface TakenBuffer {
  addr: number;
  end: number;
  vl: number;
  n: number;
}

/** What a snapshot keeps of a send area. */
export interface SendAreaSaved {
  next: number;
  taken: TakenBuffer[];
}

export class SendArea {
  /** Where the wrapping bump allocator would put the next buffer. */
  next = 0;
  private taken: TakenBuffer[] = [];
  /** The old allocator (no check): for the negative control only. */
  wrapping = false;

  constructor(
    readonly size: number,
    /** Whether the send numbered n on virtual link vl is done (the endpoint's sDone passed it). */
    private readonly isDone: (vl: number, n: number) => boolean,
  ) {}

  /** Bytes in buffers still taken (after dropping the done ones). */
  get takenBytes(): number {
    this.prune();
    return this.taken.reduce((s, t) => s + t.end - t.addr, 0);
  }

  /** An address for `bytes` bytes, or −1 when no free gap fits now. Does not take it (see `take`). */
  alloc(bytes: number): number {
    let at = this.next;
    if (at + bytes > this.size) at = 0;
    if (this.wrapping || !this.overlaps(at, at + bytes)) return at;
    this.prune();
    const sorted = this.taken.slice().sort((a, b) => a.addr - b.addr);
    // Free gaps in address order, starting from the bump place and wrapping.
    const gaps: [number, number][] = [];
    let from = 0;
    for (const t of sorted) {
      if (t.addr > from) gaps.push([from, t.addr]);
      from = Math.max(from, t.end);
    }
    if (from < this.size) gaps.push([from, this.size]);
    const fits = gaps.filter(([a, b]) => b - Math.max(a, 0) >= bytes);
    const after = fits.find(([a, b]) => b > at && b - Math.max(a, at) >= bytes);
    if (after) return Math.max(after[0], at);
    return fits.length ? fits[0]![0] : -1;
  }

  /** Take [addr, addr + bytes) for the send numbered n on vl (n −1: for good), and move the bump place past it. */
  take(addr: number, bytes: number, vl: number, n: number): void {
    this.next = addr + bytes;
    if (!this.wrapping && bytes > 0) this.taken.push({ addr, end: addr + bytes, vl, n });
  }

  /** Take a reused buffer (a send from bytes already in place) without moving the bump place. */
  hold(addr: number, bytes: number, vl: number, n: number): void {
    if (!this.wrapping && bytes > 0) this.taken.push({ addr, end: addr + bytes, vl, n });
  }

  /** Whether nothing is taken but pinned buffers (then a send that finds no room would wait for ever). */
  get idle(): boolean {
    this.prune();
    return this.taken.every((t) => t.n < 0);
  }

  private overlaps(a: number, b: number): boolean {
    let hit = false;
    for (const t of this.taken) {
      if (t.addr < b && a < t.end) {
        if (t.n >= 0 && this.isDone(t.vl, t.n)) t.n = -2; // done: dropped below
        else hit = true;
      }
    }
    if (this.taken.some((t) => t.n === -2)) this.taken = this.taken.filter((t) => t.n !== -2);
    return hit;
  }

  private prune(): void {
    this.taken = this.taken.filter((t) => t.n < 0 || !this.isDone(t.vl, t.n));
  }

  save(): SendAreaSaved {
    return { next: this.next, taken: this.taken.map((t) => ({ ...t })) };
  }

  restore(s: SendAreaSaved): void {
    this.next = s.next;
    this.taken = s.taken.map((t) => ({ ...t }));
  }
}
