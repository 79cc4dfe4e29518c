/**
 * A FIFO of integers with O(1) amortised push and shift (array + head index,
 * compacted when half used): a plain data structure, not a unit (rtl/lib/fifo.ts
 * is the hardware FIFO). Used by the C104 TLMs' queues and by the side-band
 * lanes (side_band.ts).
 */
export class IntFifo {
  private a: number[] = [];
  private h = 0;

  get length(): number {
    return this.a.length - this.h;
  }

  push(x: number): void {
    this.a.push(x);
  }

  peek(): number {
    return this.h < this.a.length ? this.a[this.h]! : -1;
  }

  /** Remove and return the oldest element, −1 when empty. */
  shift(): number {
    if (this.h >= this.a.length) return -1;
    const x = this.a[this.h++]!;
    if (this.h > 64 && this.h * 2 > this.a.length) {
      this.a = this.a.slice(this.h);
      this.h = 0;
    }
    return x;
  }

  /** The elements, oldest first (snapshots). */
  contents(): number[] {
    return this.a.slice(this.h);
  }

  /** Replace the contents (restoring a snapshot). */
  load(v: readonly number[]): void {
    this.a = v.slice();
    this.h = 0;
  }
}
