/**
 * Shiftable content-addressable memory (CAM): the core of the Buzzard
 * communication processor's packet buffer unit (seed 002 §5.4.2, L1719–L1763;
 * digest docs/sources.md, buzzard §8.2).
 *
 * The seed's CAM holds one row per buffered packet: "1 bit to indicate if the
 * packet is a contrary packet, 4 bits to select the next port, 4 bits to
 * indicate the packet length (in 16 bit words), the first 16 bits of the
 * packet header (the destination field), and 4 bits to specify the buffer RAM
 * address" — 29 bits, 13 rows. This unit is generic: row width, height,
 * field layout, key field, flag column and free-row encoding are configuration.
 *
 * Organisation (seed: "It is useful to think of the CAM as having head and
 * tail rows. Data in all rows of the memory may be shifted down so that all
 * free memory rows accumulate at the tail end"):
 *  - row 0 is the head; rows 0..used-1 are occupied, rows used..H-1 are free;
 *  - a free row still carries the number of a buffer RAM slot: the CAM doubles
 *    as the free list of RAM slots. The bits of a row that belong to the
 *    physical slot (`keepMask`, e.g. Buzzard's 4-bit RAM slot field) never
 *    come from outside: insert and update preserve them, and free carries them
 *    from the freed row to the tail (seed, output controller step 6: "the
 *    mid-order bits of the current RAM address register and a special next
 *    port value that indicates that this is a free entry are written to the
 *    tail of the CAM"). So the slot numbers in the rows are always a
 *    permutation of the initial ones.
 *
 * Ports (H = height, W = width, A = bits for 0..H-1, C = bits for 0..H,
 * K = key field width):
 *  inputs
 *   key[K]      associative search key (compared with the key field)
 *   raddr[A]    read address
 *   op[2]       operation at the coming clock edge: 0 none, 1 insert,
 *               2 update, 3 free (CAM_OP); one operation per cycle (the PBU's
 *               two controllers share the CAM, input controller first, §5.4.2)
 *   addr[A]     row for update / free
 *   wdata[W]    row value for insert / update (bits in keepMask are ignored)
 *  outputs (all combinational from the registers and inputs)
 *   hit         some occupied row's key field equals `key`
 *   hitRow[A]   the head-most such row, 0 if none (seed: "if multiple rows
 *               match the next port field, the row closest to the head is used")
 *   hitData[W]  that row's content, 0 if none
 *   match[H]    bit k = occupied row k matches; lets a user see whether
 *               another row has the same key (output controller step 6: "If
 *               another packet with the same next port field is not in the CAM,
 *               reset the crossbar arbitration register")
 *   rdata[W]    row `raddr` (0 when raddr >= H)
 *   freeRow[W]  the first free row (row `used`), 0 when full: the input
 *               controller latches the RAM slot from it (input step 2)
 *   freeCount[C] number of free rows (H - used)
 *   flagAnd     AND of the flag column over all H rows (the "contrary full"
 *               line: "the logical-and of all of the contrary flag bits").
 *               Free rows have flag 0, so it is 1 only when every row is
 *               occupied with the flag set. 0 when no flag is configured.
 *   flagAndButTail  AND of the flag column over rows 0..H-2: the reading of
 *               the contrary-full condition recommended in docs/readings.md A8
 *               ("refuse an incoming contrary packet iff free rows <= 1 and
 *               every occupied row is contrary").
 *  registers
 *   row0..row{H-1}[W]  the rows, with the field layout for decoded display
 *   used[C]     number of occupied rows (also an output: it drives a net)
 *
 * Operations (at the clock edge; violations call `fail`, a SimError naming
 * the unit and the cycle):
 *  - insert: row[used] := (row[used] & keepMask) | (wdata & ~keepMask);
 *    used++. Full CAM: error (the input controller must check the free row
 *    register first, input step 1).
 *  - update: row[addr] := (row[addr] & keepMask) | (wdata & ~keepMask), for an
 *    occupied row (output step 2: broadcast write-back of the next port).
 *    addr >= used: error.
 *  - free: rows addr+1..H-1 move one step toward the head; the tail row
 *    becomes (row[addr] & keepMask) | freeBits; used--. addr >= used: error.
 *
 * The CAM's `freeCount` is its physical occupancy. Buzzard's "free row
 * register" is decremented at input step 4, before the row is written at step
 * 7, i.e. it is a reservation count; a PBU keeps it separately if it needs it.
 */
import { bitsToHold, checkInt } from './check.ts';
import { Module, type Signal } from '../kernel/module.ts';

/** Values of the `op` input. */
export const CAM_OP = { none: 0, insert: 1, update: 2, free: 3 } as const;
export type CamOp = (typeof CAM_OP)[keyof typeof CAM_OP];

/** A named field of a row: [name, lsb, width]. */
export type CamField = readonly [string, number, number];

export interface CamConfig {
  /** Row width in bits, 1..32 (Buzzard: 29, §5.4.2). */
  width: number;
  /** Number of rows, 2..32 (Buzzard: 13, §5.4.2; simulations used (2/3)n..2n). */
  height: number;
  /** Field layout for decoded display; must contain the key (and flag) field. Fields may not overlap. */
  fields: readonly CamField[];
  /** Name of the associative key field (Buzzard: the 4-bit next port). */
  key: string;
  /** Name of the 1-bit flag field whose column is AND-ed (Buzzard: contrary). Optional. */
  flag?: string;
  /**
   * Bits owned by the physical row slot (Buzzard: the RAM slot field): never
   * written by insert/update, carried to the tail by free. Default 0. May not
   * overlap the key or flag field.
   */
  keepMask?: number;
  /**
   * Bits OR-ed into a freed row written at the tail (Buzzard: the "free" next
   * port code, 15: docs/readings.md#free-port-code). Default 0. Disjoint from keepMask and
   * the flag bit.
   */
  freeBits?: number;
  /**
   * Content of row k at reset. Default: k placed at the lowest set bit of
   * keepMask (so row k holds RAM slot k), masked by keepMask, OR freeBits.
   * Each value must fit the width and have the flag bit clear (rows start free).
   */
  init?: (k: number) => number;
}

export class Cam extends Module {
  readonly config: Readonly<Required<Omit<CamConfig, 'flag'>>> & { readonly flag: string | undefined };
  // inputs
  readonly key: Signal;
  readonly raddr: Signal;
  readonly op: Signal;
  readonly addr: Signal;
  readonly wdata: Signal;
  // outputs
  readonly hit: Signal;
  readonly hitRow: Signal;
  readonly hitData: Signal;
  readonly match: Signal;
  readonly rdata: Signal;
  readonly freeRow: Signal;
  readonly freeCount: Signal;
  readonly flagAnd: Signal;
  readonly flagAndButTail: Signal;
  // registers
  readonly rows: readonly Signal[];
  readonly used: Signal;
  /** Key field position. */
  readonly keyLsb: number;
  readonly keyWidth: number;
  /** Flag bit position, or -1 when there is no flag column. */
  readonly flagBit: number;

  constructor(parent: Module | null, name: string, config: CamConfig) {
    super(parent, name);
    const W = checkInt('cam', 'width', config.width, 1, 32);
    const H = checkInt('cam', 'height', config.height, 2, 32);
    const wmask = W === 32 ? 0xffffffff : 2 ** W - 1;

    // Field layout: inside the row, no overlaps, unique names.
    if (!Array.isArray(config.fields)) throw new RangeError('cam.fields: expected an array of [name, lsb, width]');
    let covered = 0;
    const seen = new Set<string>();
    for (const f of config.fields) {
      const [fname, lsb, fw] = f;
      if (typeof fname !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(fname)) {
        throw new RangeError(`cam.fields: bad field name '${String(fname)}'`);
      }
      if (seen.has(fname)) throw new RangeError(`cam.fields: duplicate field '${fname}'`);
      seen.add(fname);
      checkInt('cam', `fields.${fname}.lsb`, lsb, 0, W - 1);
      checkInt('cam', `fields.${fname}.width`, fw, 1, W - lsb);
      const m = ((fw === 32 ? 0xffffffff : 2 ** fw - 1) * 2 ** lsb) >>> 0;
      if ((covered & m) !== 0) throw new RangeError(`cam.fields: field '${fname}' overlaps another field`);
      covered = (covered | m) >>> 0;
    }
    const fieldOf = (what: string, fname: string | undefined): CamField => {
      const f = config.fields.find((x) => x[0] === fname);
      if (!f) {
        throw new RangeError(`cam.${what}: '${String(fname)}' is not a field (fields: ${config.fields.map((x) => x[0]).join(', ') || 'none'})`);
      }
      return f;
    };
    const keyField = fieldOf('key', config.key);
    this.keyLsb = keyField[1];
    this.keyWidth = keyField[2];
    const keyBits = ((this.keyWidth === 32 ? 0xffffffff : 2 ** this.keyWidth - 1) * 2 ** this.keyLsb) >>> 0;
    if (config.flag !== undefined) {
      const ff = fieldOf('flag', config.flag);
      if (ff[2] !== 1) throw new RangeError(`cam.flag: field '${ff[0]}' is ${ff[2]} bits wide; the flag column must be 1 bit`);
      this.flagBit = ff[1];
    } else {
      this.flagBit = -1;
    }
    const flagMask = this.flagBit >= 0 ? 2 ** this.flagBit : 0;

    const keepMask = checkInt('cam', 'keepMask', config.keepMask ?? 0, 0, wmask);
    const freeBits = checkInt('cam', 'freeBits', config.freeBits ?? 0, 0, wmask);
    if ((keepMask & keyBits) !== 0) throw new RangeError(`cam.keepMask: 0x${keepMask.toString(16)} overlaps the key field '${keyField[0]}'`);
    if ((keepMask & flagMask) !== 0) throw new RangeError(`cam.keepMask: 0x${keepMask.toString(16)} includes the flag bit ${this.flagBit}`);
    if ((freeBits & keepMask) !== 0) throw new RangeError(`cam.freeBits: 0x${freeBits.toString(16)} overlaps keepMask 0x${keepMask.toString(16)}`);
    if ((freeBits & flagMask) !== 0) throw new RangeError(`cam.freeBits: 0x${freeBits.toString(16)} sets the flag bit ${this.flagBit}; free rows must have flag 0`);

    const keepLow = keepMask === 0 ? 0 : 31 - Math.clz32(keepMask & -keepMask);
    const init = config.init ?? ((k: number) => (((k * 2 ** keepLow) & keepMask) | freeBits) >>> 0);
    const initValues: number[] = [];
    for (let k = 0; k < H; k++) {
      const v = init(k);
      if (!(Number.isInteger(v) && v >= 0 && v <= wmask)) throw new RangeError(`cam.init: row ${k} value ${v} is outside 0..${wmask}`);
      if ((v & flagMask) !== 0) throw new RangeError(`cam.init: row ${k} value 0x${v.toString(16)} sets the flag bit; rows start free, with flag 0`);
      initValues.push(v);
    }
    this.config = { width: W, height: H, fields: config.fields, key: config.key, flag: config.flag, keepMask, freeBits, init };

    const A = bitsToHold(H - 1);
    const C = bitsToHold(H);
    this.key = this.input('key', this.keyWidth);
    this.raddr = this.input('raddr', A);
    this.op = this.input('op', 2, { enum: ['none', 'insert', 'update', 'free'] });
    this.addr = this.input('addr', A);
    this.wdata = this.input('wdata', W, { fields: config.fields });
    this.hit = this.output('hit', 1);
    this.hitRow = this.output('hitRow', A);
    this.hitData = this.output('hitData', W, { fields: config.fields });
    this.match = this.output('match', H);
    this.rdata = this.output('rdata', W, { fields: config.fields });
    this.freeRow = this.output('freeRow', W, { fields: config.fields });
    this.freeCount = this.output('freeCount', C);
    this.flagAnd = this.output('flagAnd', 1);
    this.flagAndButTail = this.output('flagAndButTail', 1);
    const rows = initValues.map((v, k) => this.reg(`row${k}`, W, v, { fields: config.fields }));
    this.rows = rows;
    this.used = this.reg('used', C, 0);

    // Slot indices are assigned at elaboration; cache them in a typed array on
    // first use so the processes do no allocation and no property chasing.
    const rowI = new Int32Array(H);
    const rowN = new Int32Array(H);
    let ready = false;
    const prepare = (): void => {
      for (let k = 0; k < H; k++) {
        rowI[k] = rows[k]!.i;
        rowN[k] = rows[k]!.n;
      }
      ready = true;
    };

    const keyLsb = this.keyLsb;
    const keyM = this.keyWidth === 32 ? 0xffffffff : 2 ** this.keyWidth - 1;
    const flagBit = this.flagBit;
    const keep = keepMask;
    const notKeep = ~keepMask & wmask;
    const { key, raddr, op, addr, wdata, hit, hitRow, hitData, match, rdata, freeRow, freeCount, flagAnd, flagAndButTail, used } = this;
    // Slot indices in the closures (Module.whenSlots; docs/kernel.md "Stop 20: cost per evaluation").
    let addrI = 0, flagAndI = 0, flagAndButTailI = 0, freeCountI = 0, freeRowI = 0, hitI = 0, hitDataI = 0, hitRowI = 0, keyI = 0, matchI = 0, opI = 0, raddrI = 0, rdataI = 0, usedI = 0, usedN = 0, wdataI = 0;
    this.whenSlots(() => {
      [addrI, flagAndI, flagAndButTailI, freeCountI, freeRowI, hitI, hitDataI, hitRowI, keyI, matchI, opI, raddrI, rdataI, usedI, usedN, wdataI] = [addr.i, flagAnd.i, flagAndButTail.i, freeCount.i, freeRow.i, hit.i, hitData.i, hitRow.i, key.i, match.i, op.i, raddr.i, rdata.i, used.i, used.n, wdata.i];
    });

    // Associative match: compare the key field of every occupied row with `key`.
    this.comb(
      () => {
        if (!ready) prepare();
        const s = this.s;
        const kv = s[keyI]!;
        const u = s[usedI]!;
        const n = u > H ? H : u; // only a poke can make used > H
        let vec = 0;
        let first = -1;
        for (let k = 0; k < n; k++) {
          const v = s[rowI[k]!]!;
          if ((((v >>> keyLsb) & keyM) >>> 0) === kv) {
            vec |= 1 << k;
            if (first < 0) first = k;
          }
        }
        s[matchI] = vec >>> 0;
        if (first >= 0) {
          s[hitI] = 1;
          s[hitRowI] = first;
          s[hitDataI] = s[rowI[first]!]!;
        } else {
          s[hitI] = 0;
          s[hitRowI] = 0;
          s[hitDataI] = 0;
        }
      },
      { writes: [hit, hitRow, hitData, match], reads: [key, used, ...rows], name: 'match' },
    );

    // Read port.
    this.comb(
      () => {
        if (!ready) prepare();
        const s = this.s;
        const a = s[raddrI]!;
        s[rdataI] = a < H ? s[rowI[a]!]! : 0;
      },
      { writes: [rdata], reads: [raddr, ...rows], name: 'read' },
    );

    // Free row entry, free-row count and the flag-column AND ("contrary full").
    this.comb(
      () => {
        if (!ready) prepare();
        const s = this.s;
        const u = s[usedI]!;
        const n = u > H ? H : u;
        s[freeRowI] = n < H ? s[rowI[n]!]! : 0;
        s[freeCountI] = H - n;
        if (flagBit < 0) {
          s[flagAndI] = 0;
          s[flagAndButTailI] = 0;
        } else {
          let all = 1;
          for (let k = 0; k < H - 1; k++) all &= s[rowI[k]!]! >>> flagBit;
          all &= 1;
          s[flagAndButTailI] = all;
          s[flagAndI] = all & (s[rowI[H - 1]!]! >>> flagBit) & 1;
        }
      },
      { writes: [freeRow, freeCount, flagAnd, flagAndButTail], reads: [used, ...rows], name: 'status' },
    );

    // Operations at the clock edge. Unwritten next values keep the current value.
    this.seq(
      () => {
        if (!ready) prepare();
        const s = this.s;
        const o = s[opI]!;
        if (o === 0) return;
        const n = s[usedI]!;
        if (o === 1) {
          if (n >= H) this.fail(`insert into a full CAM (${H} of ${H} rows used)`);
          const old = s[rowI[n]!]!;
          s[rowN[n]!] = ((old & keep) | (s[wdataI]! & notKeep)) >>> 0;
          s[usedN] = n + 1;
          return;
        }
        const a = s[addrI]!;
        if (o === 2) {
          if (a >= n) this.fail(`update of row ${a}, which is not occupied (${n} row(s) used)`);
          const old = s[rowI[a]!]!;
          s[rowN[a]!] = ((old & keep) | (s[wdataI]! & notKeep)) >>> 0;
          return;
        }
        // free: shift rows above `a` one step toward the head; the freed
        // entry's slot bits and the free code go to the tail (§5.4.2, output step 6).
        if (a >= n) this.fail(`free of row ${a}, which is not occupied (${n} row(s) used)`);
        const tail = ((s[rowI[a]!]! & keep) | freeBits) >>> 0;
        for (let k = a; k < H - 1; k++) s[rowN[k]!] = s[rowI[k + 1]!]!;
        s[rowN[H - 1]!] = tail;
        s[usedN] = n - 1;
      },
      { reads: [op, addr, wdata, used, ...rows], name: 'ops' },
    );
  }

  /** The value of field `name` in a row value (for testbenches and displays). */
  field(row: number, name: string): number {
    const f = this.config.fields.find((x) => x[0] === name);
    if (!f) throw new RangeError(`cam.field: '${name}' is not a field`);
    const m = f[2] === 32 ? 0xffffffff : 2 ** f[2] - 1;
    return ((row >>> f[1]) & m) >>> 0;
  }
}
