/**
 * Binary min-heap of simulation events ordered by (time, insertion sequence):
 * events at equal times come out in the order they were scheduled, which
 * makes every run deterministic. Each event is a type code (0..255) and one
 * integer argument, stored in parallel typed arrays (no per-event objects);
 * the arrays double when full.
 */
export class EventQueue {
  private t: Float64Array;
  private seq: Float64Array;
  private ty: Uint8Array;
  private a: Int32Array;
  private n = 0;
  private nextSeq = 0;
  /** Fields of the event last returned by pop(). */
  time = 0;
  type = 0;
  arg = 0;

  constructor(capacity = 1024) {
    this.t = new Float64Array(capacity);
    this.seq = new Float64Array(capacity);
    this.ty = new Uint8Array(capacity);
    this.a = new Int32Array(capacity);
  }

  get size(): number {
    return this.n;
  }

  /** Time of the earliest event (Infinity when empty). */
  peekTime(): number {
    return this.n > 0 ? this.t[0]! : Infinity;
  }

  push(time: number, type: number, arg: number): void {
    if (this.n === this.t.length) this.grow();
    const t = this.t;
    const seq = this.seq;
    const ty = this.ty;
    const a = this.a;
    const s = this.nextSeq++;
    let i = this.n++;
    // Sift up with a hole.
    while (i > 0) {
      const p = (i - 1) >> 1;
      const tp = t[p]!;
      if (tp < time || (tp === time && seq[p]! < s)) break;
      t[i] = tp;
      seq[i] = seq[p]!;
      ty[i] = ty[p]!;
      a[i] = a[p]!;
      i = p;
    }
    t[i] = time;
    seq[i] = s;
    ty[i] = type;
    a[i] = arg;
  }

  /** Remove the earliest event into (time, type, arg). Returns false when empty. */
  pop(): boolean {
    if (this.n === 0) return false;
    const t = this.t;
    const seq = this.seq;
    const ty = this.ty;
    const a = this.a;
    this.time = t[0]!;
    this.type = ty[0]!;
    this.arg = a[0]!;
    const last = --this.n;
    if (last === 0) return true;
    const lt = t[last]!;
    const ls = seq[last]!;
    const lty = ty[last]!;
    const la = a[last]!;
    let i = 0;
    const half = last >> 1;
    while (i < half) {
      let c = 2 * i + 1;
      const r = c + 1;
      if (r < last && (t[r]! < t[c]! || (t[r] === t[c] && seq[r]! < seq[c]!))) c = r;
      const tc = t[c]!;
      if (lt < tc || (lt === tc && ls < seq[c]!)) break;
      t[i] = tc;
      seq[i] = seq[c]!;
      ty[i] = ty[c]!;
      a[i] = a[c]!;
      i = c;
    }
    t[i] = lt;
    seq[i] = ls;
    ty[i] = lty;
    a[i] = la;
    return true;
  }

  private grow(): void {
    const cap = this.t.length * 2;
    const t = new Float64Array(cap);
    t.set(this.t);
    const seq = new Float64Array(cap);
    seq.set(this.seq);
    const ty = new Uint8Array(cap);
    ty.set(this.ty);
    const a = new Int32Array(cap);
    a.set(this.a);
    this.t = t;
    this.seq = seq;
    this.ty = ty;
    this.a = a;
  }
}
