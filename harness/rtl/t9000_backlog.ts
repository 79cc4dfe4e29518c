/**
 * The driver's messages, packed (docs/c104.md#lazy-workload): every message
 * issued by `T9000Driver.post` and not yet released (delivered and followed
 * by every recorder cursor) is a slot of typed arrays (id, issue cycle,
 * length, send-area address or −1, FNV-1a digest of its bytes, first byte
 * block, next slot of its virtual link); its bytes wait in 32-byte blocks
 * of one byte store until the message enters its send queue, and are freed
 * then (the digest keeps their check). Past saturation (the Table 3.1 load)
 * nearly every message issued is waiting (in its virtual link's queue, or
 * held); as objects they took ~0.26 kB each, a slot takes 28 bytes, plus 36
 * for a 32-byte message's bytes until it is queued. The recorder sees a
 * message as a T9000Message made when it looks (SeqList.at).
 */

/** Bytes per block of the byte store. */
const BLOCK = 32;
const FIELDS = 7;
const ID = 0;
const CYCLE = 1;
const SIZE = 2;
const ADDR = 3;
const FIRST = 4;
const NEXT = 5;
const DIGEST = 6;

/** A free list of indices over a growing capacity (the slots and the byte blocks). */
class FreeList {
  private free = new Int32Array(64);
  private n = 0;
  capacity = 0;
  take(grow: (cap: number) => void): number {
    if (this.n > 0) return this.free[--this.n]!;
    // none free: double the capacity (grow copies the owner's arrays)
    const old = this.capacity;
    const cap = Math.max(64, old * 2);
    grow(cap);
    const f = new Int32Array(cap);
    // the new indices old+1 .. cap−1 become free (old is taken now), highest first so lower ones come out first
    let k = 0;
    for (let i = cap - 1; i > old; i--) f[k++] = i;
    this.free = f;
    this.n = k;
    this.capacity = cap;
    return old;
  }
  give(i: number): void {
    this.free[this.n++] = i;
  }
}

export class MessageBacklog {
  private meta = new Int32Array(0);
  private bytes = new Uint8Array(0);
  /** Next block of a message's bytes, or −1. */
  private blockNext = new Int32Array(0);
  private readonly slots = new FreeList();
  private readonly blocks = new FreeList();
  /** Messages held here now. */
  live = 0;

  /** Pack a message; `bytes` must be integers 0..255 (a send area byte). Returns its slot. */
  put(id: number, cycle: number, data: ArrayLike<number>, addr: number): number {
    const s = this.slots.take((cap) => {
      const m = new Int32Array(cap * FIELDS);
      m.set(this.meta);
      this.meta = m;
    });
    const o = s * FIELDS;
    this.meta[o + ID] = id;
    this.meta[o + CYCLE] = cycle;
    this.meta[o + SIZE] = data.length;
    this.meta[o + ADDR] = addr;
    this.meta[o + NEXT] = -1;
    let prev = -1;
    this.meta[o + FIRST] = -1;
    for (let j = 0; j < data.length; j += BLOCK) {
      const b = this.blocks.take((cap) => {
        const bytes = new Uint8Array(cap * BLOCK);
        bytes.set(this.bytes);
        this.bytes = bytes;
        const next = new Int32Array(cap);
        next.set(this.blockNext);
        this.blockNext = next;
      });
      this.blockNext[b] = -1;
      if (prev < 0) this.meta[o + FIRST] = b;
      else this.blockNext[prev] = b;
      prev = b;
      const end = Math.min(data.length, j + BLOCK);
      for (let k = j; k < end; k++) this.bytes[b * BLOCK + k - j] = data[k]!;
    }
    this.live++;
    return s;
  }

  id(s: number): number {
    return this.meta[s * FIELDS + ID]!;
  }
  cycle(s: number): number {
    return this.meta[s * FIELDS + CYCLE]!;
  }
  size(s: number): number {
    return this.meta[s * FIELDS + SIZE]!;
  }
  /** Send-area address given when it was issued, or −1 (allocated when it enters the queue). */
  addr(s: number): number {
    return this.meta[s * FIELDS + ADDR]!;
  }
  next(s: number): number {
    return this.meta[s * FIELDS + NEXT]!;
  }
  setNext(s: number, n: number): void {
    this.meta[s * FIELDS + NEXT] = n;
  }
  setAddr(s: number, a: number): void {
    this.meta[s * FIELDS + ADDR] = a;
  }
  /** bytesDigest of its bytes (set when they are dropped). */
  digest(s: number): number {
    return this.meta[s * FIELDS + DIGEST]! >>> 0;
  }

  /** Free the message's bytes (they are in the send area now), keeping `digest` for the byte check. */
  dropBytes(s: number, digest: number): void {
    this.meta[s * FIELDS + DIGEST] = digest | 0;
    this.freeBlocks(s);
  }

  /** The message's bytes (a fresh array). */
  read(s: number): number[] {
    const out: number[] = new Array<number>(this.size(s));
    for (let b = this.meta[s * FIELDS + FIRST]!, j = 0; b >= 0; b = this.blockNext[b]!) {
      const end = Math.min(out.length, j + BLOCK);
      for (let base = j; j < end; j++) out[j] = this.bytes[b * BLOCK + j - base]!;
    }
    return out;
  }

  private freeBlocks(s: number): void {
    for (let b = this.meta[s * FIELDS + FIRST]!; b >= 0; ) {
      const n = this.blockNext[b]!;
      this.blocks.give(b);
      b = n;
    }
    this.meta[s * FIELDS + FIRST] = -1;
  }

  /** Forget slot s and its bytes. */
  free(s: number): void {
    this.freeBlocks(s);
    this.slots.give(s);
    this.live--;
  }

  /** Bytes of the typed arrays (capacity, not use). */
  get footprint(): number {
    return this.meta.byteLength + this.bytes.byteLength + this.blockNext.byteLength + 4 * (this.slots.capacity + this.blocks.capacity);
  }
}
