/**
 * Arrival tracking unit (ATU) of the Buzzard communication processor
 * (seed 002 §5.4.6, pp. 140–141, L1823–L1834, Fig. 5.9 lost; digest
 * docs/sources.md, buzzard §8.6, background §4.5, receive path §8.7, size A14;
 * ports: rtl/buzzard/DESIGN.md "Interfaces between units" →
 * "ArrivalTrackingUnit").
 *
 * Seed §5.4.6: "This unit serves two purposes. It watches the node address
 * bus to ensure that the node CPU does not attempt to access message data
 * before it has arrived. Additionally, it serves as an on-chip cache for the
 * message arrival table." It has no controller of its own (spec §4.1): the
 * main control unit drives it through `op`.
 *
 * Organisation: m entries (config.atuEntries, 0 = n, A14), each
 *   state{k}  free / expected / arriving (enum names; "There are two types of
 *             non-active entries: free entries, and entries for expected but
 *             not yet arriving messages")
 *   key{k}    the associative field: source node (bits 9..0), direction of
 *             the first routing step (bits 13..10) and the one-bit expected
 *             field (bit 14) — "Entries are uniquely identified by the message
 *             source and the direction of the first routing step ... An
 *             additional one bit associative field is used to identify
 *             expected entries." Bit 14 is 1 exactly when state{k} = expected.
 *   next{k}   node-memory byte address of the next byte to arrive
 *   last{k}   node-memory byte address of the last byte of the message
 * Entries do not move (unlike the PBU's shifting CAM): a free entry is found
 * by a priority encoder, lowest index first.
 *
 * Ports (A = 24 address bits, I = bits for 0..m-1, C = bits for 0..m):
 *  control-unit side
 *   in   op[3]      0 none, 1 allocArriving, 2 allocExpected, 3 update next,
 *                   4 purge, 5 lookup (ATU_OP); 6 and 7 are protocol errors
 *   in   key[15]    source 9..0, direction 13..10, expected 14
 *   in   next[A], last[A]
 *   out  hit, hitIdx[I], hitNext[A], hitLast[A]   (combinational search)
 *   out  freeCount[C]                              (combinational)
 *   out  ok        register: the last allocation (op 1 or 2) succeeded
 *   out  evicted   register: the last allocation took an expected entry's
 *                  place (see "evicted" below)
 *  CPU side
 *   in   cpuAddr[A], cpuRead
 *   out  interrupt (combinational, in the cycle of the read)
 *
 * ---------------------------------------------------------------- readings
 * R1 Search (`hit…`) is combinational: in every cycle, whatever `op`, the
 *    outputs show the entry that `key` selects in the current register state
 *    (a CAM match line per entry). `op = lookup` changes nothing; it exists so
 *    that the control unit's search cycles are visible in traces. During an
 *    update/purge/alloc cycle the outputs show the entry before the edge.
 * R2 Matching. A key with expected bit 0 matches only arriving entries, on
 *    source AND direction. A key with expected bit 1 matches only expected
 *    entries, on source alone: a receive cannot know which first-step
 *    direction the sender's quasi-adaptive first hop (spec §6.3) will choose,
 *    so the direction bits of an expected entry are stored but not compared.
 *    A receive for ANY source has no source to store: the control unit does
 *    not cache it (spec §8.7 receive step 3 caches only user-buffer, ANY-type
 *    requests; the source is a literal).
 * R3 Uniqueness. The control unit keeps keys unique (seed: "uniquely
 *    identified"): allocArriving of a (source, direction) that already has an
 *    arriving entry is a protocol violation (the packets of two unicasts over
 *    the same path cannot interleave: the sender's slot sends one message at a
 *    time and the path is fixed after the first hop). A broadcast can be
 *    overtaken by a unicast from its source, so the control unit keys it with
 *    direction 0 (docs/readings.md broadcast-arrival-key). allocExpected of a
 *    source that already has an expected entry is refused (ok = 0): the older
 *    receive keeps the entry, the newer stays only in node memory, as for a
 *    full cache.
 * R4 allocArriving (op 1), key = (source, direction, e), next, last. If e = 1
 *    and an expected entry for the source exists, that entry becomes arriving
 *    ("When a message for an expected entry begins to arrive, the state of the
 *    entry is changed from expected to arriving"): its key becomes (source,
 *    direction, 0) and next/last are written from the inputs (the first
 *    packet fixes the last byte: buffer + message length, spec §8.7 receive
 *    path step 3). The control unit sets e = 1 only when the arriving message
 *    was matched to that cached ANY-type receive; an automatic promotion would
 *    steal the entry from an earlier receive for the same source with a
 *    specific type. Otherwise (e = 0, or no such entry): "the first choice is
 *    to use a free entry" (lowest index); "if no free entries exist, an entry
 *    for an expected message will be used if one is available" (lowest index;
 *    its content is dropped, "a valid copy of its information will exist in
 *    the arrival table located in node memory"); if every entry is arriving
 *    the request fails (ok = 0, nothing changes): the message is tracked only
 *    in node memory, "with no overrun checking" (spec §4.5, §8.6).
 * R5 allocExpected (op 2): "the request will be granted only if a free entry
 *    exists" (lowest index; never evicts). key is stored with bit 14 forced to
 *    1; next/last = first and last byte of the user's buffer.
 * R6 update (op 3) writes `next` into the entry selected by `key` (R2); purge
 *    (op 4) frees it ("Arriving entries are not removed from the CAM until the
 *    arrival of their message has completed"; purged at completion, spec §8.7
 *    step 5; an expected entry may be purged too). A miss is a protocol
 *    violation. Purge also clears key/next/last (tidy traces; the hardware
 *    need only clear the state).
 * R7 Interrupt: "If a memory request is made for a location that lies between
 *    the next byte and last byte values of any active entry in the CAM, a CPU
 *    interrupt will be generated." Active = arriving (expected entries guard
 *    nothing: no data is being written there). One magnitude comparator pair
 *    per entry, COMBINATIONAL: interrupt = cpuRead AND some arriving entry has
 *    next ≤ cpuAddr ≤ last, in the same cycle as the read, so the read can be
 *    stopped before it returns data (node memory latency is ≥ 1 cycle). It
 *    compares the register values of that cycle: an update presented in cycle
 *    t moves the window from cycle t+1 on. The control unit must therefore
 *    write the data to node memory no later than it advances `next`
 *    (advancing first would expose unwritten bytes).
 *    Option `cpuReadBytes` (default 1 = the DESIGN.md contract, byte
 *    comparison): a read covers bytes cpuAddr … cpuAddr+cpuReadBytes-1, and
 *    interrupts when that span overlaps [next, last]. With 32-bit CPU reads
 *    (NodeMemory) and `next` on a 16-bit boundary (the first packet carries
 *    22 data bytes with the 6-byte prefix, A7), the byte comparison misses a
 *    word read whose upper half has not arrived; cpuReadBytes = 4 catches it.
 * R8 Protocol violations (`fail`, a SimError naming the unit and cycle):
 *    op 6/7; update/purge miss; duplicate arriving key; an allocation with a
 *    source ≥ 2^n, an arriving direction above n (0 = a broadcast), or next > last + 1;
 *    an update with next > last + 1.
 *
 * Timing (cycle t = the cycle op/key/next/last are presented): hit… and
 * freeCount show the state before the edge during t; state{k}, key{k},
 * next{k}, last{k}, ok and evicted change at the end of t and are seen from
 * t+1 (ok/evicted hold until the next allocation).
 *
 * `evicted` is not needed for correctness (the evicted receive's copy in node
 * memory is valid and lookups tell the truth); it lets the control unit or a
 * testbench count evictions (cache-effectiveness statistics).
 */
import { Module, type Signal } from '../kernel/module.ts';
import { checkConfig, geometry, type BuzzardConfig } from './config.ts';

/** Values of the `op` input (DESIGN.md, ArrivalTrackingUnit). */
export const ATU_OP = { none: 0, allocArriving: 1, allocExpected: 2, update: 3, purge: 4, lookup: 5 } as const;
export type AtuOp = (typeof ATU_OP)[keyof typeof ATU_OP];

/** Values of `state{k}`. */
export const ATU_STATE = { free: 0, expected: 1, arriving: 2 } as const;
export const ATU_STATE_NAMES = ['free', 'expected', 'arriving'] as const;

/** Node-memory byte address width (DESIGN.md: A = 24). */
export const ATU_ADDR_BITS = 24;
/** Key layout (DESIGN.md): source 9..0, direction 13..10, expected 14. */
export const ATU_KEY_FIELDS = [
  ['src', 0, 10],
  ['dir', 10, 4],
  ['expected', 14, 1],
] as const;
export const ATU_EXPECTED_BIT = 1 << 14;

/** Pack a key (for the control unit and testbenches). */
export function atuKey(src: number, dir: number, expected: boolean | number): number {
  return (expected ? ATU_EXPECTED_BIT : 0) | ((dir & 15) << 10) | (src & 0x3ff);
}

export interface AtuOptions {
  /** Bytes covered by one CPU read for the comparators: 1 (byte compare, default), 2 or 4 (R7). */
  cpuReadBytes?: 1 | 2 | 4;
}

function bitsFor(n: number): number {
  return n <= 1 ? 1 : 32 - Math.clz32(n);
}

export class ArrivalTrackingUnit extends Module {
  readonly config: BuzzardConfig;
  /** Number of entries m. */
  readonly m: number;
  readonly cpuReadBytes: number;
  // control-unit side
  readonly op: Signal;
  readonly key: Signal;
  readonly next: Signal;
  readonly last: Signal;
  readonly hit: Signal;
  readonly hitIdx: Signal;
  readonly hitNext: Signal;
  readonly hitLast: Signal;
  readonly freeCount: Signal;
  readonly ok: Signal;
  readonly evicted: Signal;
  // CPU side
  readonly cpuAddr: Signal;
  readonly cpuRead: Signal;
  readonly interrupt: Signal;
  // entries
  readonly states: readonly Signal[];
  readonly keys: readonly Signal[];
  readonly nexts: readonly Signal[];
  readonly lasts: readonly Signal[];

  constructor(parent: Module | null, name: string, config: Partial<BuzzardConfig> = {}, opts: AtuOptions = {}) {
    super(parent, name);
    const cfg = checkConfig(config);
    const g = geometry(cfg);
    const m = g.atuEntries;
    if (!(Number.isInteger(m) && m >= 1 && m <= 32)) throw new RangeError(`atu.atuEntries: ${m} entries is outside 1..32`);
    const rb = opts.cpuReadBytes ?? 1;
    if (rb !== 1 && rb !== 2 && rb !== 4) throw new RangeError(`atu.cpuReadBytes: ${String(rb)} is not 1, 2 or 4`);
    this.config = cfg;
    this.m = m;
    this.cpuReadBytes = rb;
    const n = cfg.n;
    const nodes = g.nodes;
    const A = ATU_ADDR_BITS;
    const I = bitsFor(m - 1);
    const C = bitsFor(m);

    this.op = this.input('op', 3, { enum: ['none', 'allocArriving', 'allocExpected', 'update', 'purge', 'lookup'] });
    this.key = this.input('key', 15, { fields: ATU_KEY_FIELDS });
    this.next = this.input('next', A);
    this.last = this.input('last', A);
    this.hit = this.output('hit', 1);
    this.hitIdx = this.output('hitIdx', I);
    this.hitNext = this.output('hitNext', A);
    this.hitLast = this.output('hitLast', A);
    this.freeCount = this.output('freeCount', C);
    this.ok = this.reg('ok', 1, 0);
    this.evicted = this.reg('evicted', 1, 0);
    this.cpuAddr = this.input('cpuAddr', A);
    this.cpuRead = this.input('cpuRead', 1);
    this.interrupt = this.output('interrupt', 1);
    const states = this.regs('state', m, 2, ATU_STATE.free, { enum: ATU_STATE_NAMES });
    const keys = this.regs('key', m, 15, 0, { fields: ATU_KEY_FIELDS });
    const nexts = this.regs('next', m, A, 0);
    const lasts = this.regs('last', m, A, 0);
    this.states = states;
    this.keys = keys;
    this.nexts = nexts;
    this.lasts = lasts;

    // Slot numbers in the closures, known after elaboration (Module.whenSlots; docs/kernel.md "Stop 21: Buzzard units").
    const stI = new Int32Array(m);
    const stN = new Int32Array(m);
    const kI = new Int32Array(m);
    const kN = new Int32Array(m);
    const nI = new Int32Array(m);
    const nN = new Int32Array(m);
    const lI = new Int32Array(m);
    const lN = new Int32Array(m);
    const { op, key, next, last, hit, hitIdx, hitNext, hitLast, freeCount, ok, evicted, cpuAddr, cpuRead, interrupt } = this;
    let opI = 0, keyI = 0, nextI = 0, lastI = 0, hitI = 0, hitIdxI = 0, hitNextI = 0, hitLastI = 0, freeCountI = 0, okN = 0, evictedN = 0, cpuAddrI = 0, cpuReadI = 0, interruptI = 0;
    const prepare = (): void => {
      for (let k = 0; k < m; k++) {
        stI[k] = states[k]!.i;
        stN[k] = states[k]!.n;
        kI[k] = keys[k]!.i;
        kN[k] = keys[k]!.n;
        nI[k] = nexts[k]!.i;
        nN[k] = nexts[k]!.n;
        lI[k] = lasts[k]!.i;
        lN[k] = lasts[k]!.n;
      }
      [opI, keyI, nextI, lastI, hitI, hitIdxI, hitNextI, hitLastI, freeCountI, okN, evictedN, cpuAddrI, cpuReadI, interruptI] = [op.i, key.i, next.i, last.i, hit.i, hitIdx.i, hitNext.i, hitLast.i, freeCount.i, ok.n, evicted.n, cpuAddr.i, cpuRead.i, interrupt.i];
    };

    this.whenSlots(prepare);

    const FREE = ATU_STATE.free;
    const EXPECTED = ATU_STATE.expected;
    const ARRIVING = ATU_STATE.arriving;
    const SRC_DIR = 0x3fff;

    /** The entry `kv` selects (R2), lowest index first; -1 if none. */
    const find = (kv: number): number => {
      const s = this.s;
      if (kv & ATU_EXPECTED_BIT) {
        const src = kv & 0x3ff;
        for (let k = 0; k < m; k++) if (s[stI[k]!] === EXPECTED && (s[kI[k]!]! & 0x3ff) === src) return k;
      } else {
        const sd = kv & SRC_DIR;
        for (let k = 0; k < m; k++) if (s[stI[k]!] === ARRIVING && (s[kI[k]!]! & SRC_DIR) === sd) return k;
      }
      return -1;
    };
    const firstIn = (state: number): number => {
      const s = this.s;
      for (let k = 0; k < m; k++) if (s[stI[k]!] === state) return k;
      return -1;
    };


    // The associative search (R1): one match line per entry, a priority encoder.
    this.comb(
      () => {
        const s = this.s;
        const k = find(s[keyI]!);
        if (k >= 0) {
          s[hitI] = 1;
          s[hitIdxI] = k;
          s[hitNextI] = s[nI[k]!]!;
          s[hitLastI] = s[lI[k]!]!;
        } else {
          s[hitI] = 0;
          s[hitIdxI] = 0;
          s[hitNextI] = 0;
          s[hitLastI] = 0;
        }
      },
      { writes: [hit, hitIdx, hitNext, hitLast], reads: [key, ...states, ...keys, ...nexts, ...lasts], name: 'search' },
    );

    // Free-entry count.
    this.comb(
      () => {
        const s = this.s;
        let c = 0;
        for (let k = 0; k < m; k++) if (s[stI[k]!] === FREE) c++;
        s[freeCountI] = c;
      },
      { writes: [freeCount], reads: states, name: 'free' },
    );

    // One magnitude comparator pair per entry (R7), combinational.
    const span = rb - 1;
    this.comb(
      () => {
        const s = this.s;
        let irq = 0;
        if (s[cpuReadI] === 1) {
          const lo = s[cpuAddrI]!;
          const hi = lo + span;
          for (let k = 0; k < m; k++) {
            if (s[stI[k]!] === ARRIVING && lo <= s[lI[k]!]! && hi >= s[nI[k]!]!) {
              irq = 1;
              break;
            }
          }
        }
        s[interruptI] = irq;
      },
      { writes: [interrupt], reads: [cpuAddr, cpuRead, ...states, ...nexts, ...lasts], name: 'compare' },
    );

    /** A key for an error message (a function made once, not a closure per run: issue 8). */
    const keyText = (kv: number): string => `key (source ${kv & 0x3ff}, direction ${(kv >>> 10) & 15}, expected ${(kv & ATU_EXPECTED_BIT) !== 0 ? 1 : 0})`;

    // Operations at the clock edge (R3–R6, R8).
    this.seq(
      () => {
        const s = this.s;
        const o = s[opI]!;
        if (o === ATU_OP.none || o === ATU_OP.lookup) return;
        const kv = s[keyI]!;
        const nx = s[nextI]!;
        const src = kv & 0x3ff;
        const dir = (kv >>> 10) & 15;
        const expBit = (kv & ATU_EXPECTED_BIT) !== 0;
        switch (o) {
          case ATU_OP.allocArriving:
          case ATU_OP.allocExpected: {
            const ls = s[lastI]!;
            if (src >= nodes) this.fail(`${o === ATU_OP.allocArriving ? 'allocArriving' : 'allocExpected'} with source ${src}, outside 0..${nodes - 1}`);
            if (nx > ls + 1) this.fail(`${o === ATU_OP.allocArriving ? 'allocArriving' : 'allocExpected'} with next 0x${nx.toString(16)} beyond last 0x${ls.toString(16)} + 1`);
            let target = -1;
            let evict = 0;
            let newKey: number;
            let newState: number;
            if (o === ATU_OP.allocArriving) {
              if (dir > n) this.fail(`allocArriving with direction ${dir}, outside 0..${n}`);
              const dup = find(kv & SRC_DIR);
              if (dup >= 0) this.fail(`allocArriving of ${keyText(kv)}: entry ${dup} is already arriving with that source and direction`);
              if (expBit) target = find(kv); // promote the cached ANY-type receive (R4)
              if (target < 0) target = firstIn(FREE);
              if (target < 0) {
                target = firstIn(EXPECTED);
                if (target >= 0) evict = 1;
              }
              newKey = kv & SRC_DIR;
              newState = ARRIVING;
            } else {
              // R5: only a free entry; R3: an already cached source is refused.
              target = find(kv | ATU_EXPECTED_BIT) >= 0 ? -1 : firstIn(FREE);
              newKey = kv | ATU_EXPECTED_BIT;
              newState = EXPECTED;
            }
            s[evictedN] = evict;
            if (target < 0) {
              s[okN] = 0;
              return;
            }
            s[okN] = 1;
            s[stN[target]!] = newState;
            s[kN[target]!] = newKey;
            s[nN[target]!] = nx;
            s[lN[target]!] = ls;
            return;
          }
          case ATU_OP.update: {
            const k = find(kv);
            if (k < 0) this.fail(`update of ${keyText(kv)}, which is not in the ATU`);
            const ls = s[lI[k]!]!;
            if (nx > ls + 1) this.fail(`update of entry ${k}: next 0x${nx.toString(16)} beyond last 0x${ls.toString(16)} + 1`);
            s[nN[k]!] = nx;
            return;
          }
          case ATU_OP.purge: {
            const k = find(kv);
            if (k < 0) this.fail(`purge of ${keyText(kv)}, which is not in the ATU`);
            s[stN[k]!] = FREE;
            s[kN[k]!] = 0;
            s[nN[k]!] = 0;
            s[lN[k]!] = 0;
            return;
          }
          default:
            this.fail(`undefined op ${o} (0 none, 1 allocArriving, 2 allocExpected, 3 update, 4 purge, 5 lookup)`);
        }
      },
      { reads: [op, key, next, last, ...states, ...keys, ...lasts], name: 'ops' },
    );
  }
}
