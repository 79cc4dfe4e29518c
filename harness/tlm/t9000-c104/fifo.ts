/** A FIFO of integers with O(1) amortised push and shift (array + head index, compacted when half used). */
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
}
