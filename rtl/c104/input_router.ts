/**
 * The routing logic of one C104 input link ("routing logic duplicated on
 * each input link", seed 004 §3.1.1.3). It reads characters from the link
 * end's receive side (whose buffer is the slice's input buffer), takes the
 * header into its own registers, applies header deletion / random header
 * generation (place 'input'), looks the header up in the interval table,
 * requests the packet's hunt group at the crossbar, and once connected sends
 * the header bytes it holds and then streams the packet from the receive
 * buffer until EOP or EOM (wormhole). Readings: docs/c104.md#the-switch.
 *
 * Ports (X = crossbar ports, 32 unless the switch elaborates only its
 * connected slices; I = bits of a crossbar index):
 *  link side  rxValid, rxChar[9] (in), rxPop (out)   the DsLinkEnd receive contract (rtl/dslink/chars.ts)
 *  crossbar   din[10] (out) {valid, char}; req[X] (out) the hunt group's links (as crossbar indices);
 *             release (out); gnt, gidx[I], fc (in)
 *  arbitration prio[18] (out): ack << 17 | fromNetwork << 16 | tag, read by the policy selector
 *             tag[16] (in): side-band packet tag (hops or age), sampled with the header
 *
 * Side band (optional; T9000 `addressing: 'node'`, docs/t9000.md#addressing):
 * in the cycle a packet is connected to output o, its tag moves from this
 * input's side-band lane to output o's (rtl/lib/side_band.ts), so it leaves
 * in the order the output's characters do.
 *
 * With slices 'connected' (docs/c104.md#compact-slices) `linkOf` maps a
 * crossbar index to its link: the request goes out as crossbar indices
 * (register `xgm`; `gm` keeps the links), and what computes with the output
 * granted (side band, header deletion and random headers at place 'output')
 * uses its link.
 *
 * States: 0 HEAD (taking header bytes), 1 ROUTE (lookup + routing delay,
 * and the ack look-ahead), 2 REQ (requesting), 3 CONN (connected).
 *
 * Timing, pipeline 'registered': the header's last byte is taken at the edge
 * of cycle t; the request is visible from cycle t + 2 + routingDelay (one
 * cycle ROUTE minimum: the lookup); granted in the cycle it is visible if an
 * output of the group is free; the first character crosses the crossbar the
 * cycle after the grant. The input takes one character per cycle from its
 * buffer while connected and the output has room.
 *
 * Pipeline 'cut-through' (docs/c104.md#pipeline; inputs of a table with
 * place 'input' and no ack look-ahead): with routingDelay 0 the header is
 * looked up and requested combinationally in the cycle t its last byte is at
 * the head of the input buffer (a random header is drawn from the generator's
 * next value); granted in t, the packet is connected at t's edge and its last
 * header byte stays in the buffer, to cross the crossbar at t + 1 with the
 * rest. Not granted in t, the byte is taken and the request stays up from the
 * REQ state, so the arbiter sees one unbroken wait. With routingDelay d ≥ 1
 * the byte is taken at t and the request is visible from t + d.
 */
import { Module, type Signal } from '../kernel/module.ts';
import { CHAR_BITS, isData, isEnd } from '../dslink/chars.ts';
import { rngState, xorshift32, type C104Config } from './config.ts';
import { lookupGroup, type CompiledTable } from './interval_table.ts';
import type { SideBandLane } from '../lib/side_band.ts';
import { bitsFor } from '../lib/arbiter.ts';
import { C104_LINKS } from './interval_table.ts';

const ALL_LINKS: readonly number[] = Array.from({ length: C104_LINKS }, (_, k) => k);

/** The switch's slices as a router sees them: crossbar index -> link, and the table's group masks as crossbar indices (computed once per switch). */
export interface RouterSlices {
  linkOf: readonly number[];
  xGroupMask: Uint32Array;
}

/** One input's side-band lanes: where its packets' tags arrive, and each output's lane (null: not wired). */
export interface RouterSideBand {
  in: SideBandLane;
  out: readonly (SideBandLane | null)[];
}

/**
 * Negative controls for test/c104/per_token_guards.test.ts only: `endBlind`
 * drops the CONN state's read of `release` (the packet's end crossing) from
 * the clock edge's guarded reads, `streamBlind` the stream's read of `fc`
 * while connected (wrong guards the lock-step property must see). False in
 * every other use.
 */
export const ROUTER_FAULT = { endBlind: false, streamBlind: false };

export const ROUTER_STATES = ['head', 'route', 'req', 'conn'] as const;
const HEAD = 0;
const ROUTE = 1;
const REQ = 2;
const CONN = 3;
/** Valid bit of the 10-bit crossbar data word. */
export const XBAR_VALID = 1 << CHAR_BITS;

export class InputRouter extends Module {
  readonly rxValid: Signal;
  readonly rxChar: Signal;
  readonly rxPop: Signal;
  readonly din: Signal;
  readonly req: Signal;
  readonly release: Signal;
  readonly gnt: Signal;
  readonly gidx: Signal;
  readonly fc: Signal;
  readonly tag: Signal;
  readonly prio: Signal;
  readonly st: Signal;
  /** The header the packet is routed on (registered). */
  readonly hdr: Signal;
  /** Header bytes still to send once connected, first in the low byte; `repN` of them. */
  readonly rep: Signal;
  readonly repN: Signal;
  /** Requested links (the group's mask). */
  readonly gm: Signal;
  /** Packets routed (for observers and tests). */
  readonly packets: Signal;

  constructor(parent: Module, name: string, link: number, table: CompiledTable, cfg: C104Config, sideBand: RouterSideBand | null = null, slices: RouterSlices = { linkOf: ALL_LINKS, xGroupMask: table.groupMask }) {
    super(parent, name);
    const { linkOf, xGroupMask } = slices;
    const X = linkOf.length;
    const h = table.headerBytes;
    const inDelete = table.place === 'input' && table.deleteHeader[link]!;
    const inRandom = table.place === 'input' ? table.randomHeader[link]! : null;
    const need = inDelete ? 2 * h : h;
    const delay = cfg.routingDelay;
    const lookAhead = cfg.ackPriority;
    const fromNet = cfg.fromProcessor[link] ? 0 : 1;
    const cut = cfg.pipeline === 'cut-through' && table.place === 'input' && !lookAhead;
    // Cut-through with no routing delay: the request comes from the buffer head itself.
    const cut0 = cut && delay === 0;

    const rxValid = (this.rxValid = this.input('rxValid'));
    const rxChar = (this.rxChar = this.input('rxChar', CHAR_BITS));
    const rxPop = (this.rxPop = this.output('rxPop'));
    const din = (this.din = this.output('din', CHAR_BITS + 1));
    const req = (this.req = this.output('req', X));
    const release = (this.release = this.output('release'));
    const gnt = (this.gnt = this.input('gnt'));
    const gidx = (this.gidx = this.input('gidx', bitsFor(X)));
    const fc = (this.fc = this.input('fc'));
    const tag = (this.tag = this.input('tag', 16));
    const prio = (this.prio = this.output('prio', 18));

    const st = (this.st = this.reg('st', 2, HEAD, { enum: ROUTER_STATES }));
    const nb = this.reg('nb', 3, 0);
    const hdr = (this.hdr = this.reg('hdr', 16, 0));
    const rep = (this.rep = this.reg('rep', 32, 0));
    const repN = (this.repN = this.reg('repN', 3, 0));
    const cnt = this.reg('cnt', 8, 0);
    const gm = (this.gm = this.reg('gm', 32, 0));
    // The request as crossbar indices: gm itself with every slice elaborated.
    const xgm = X === C104_LINKS ? gm : this.reg('xgm', X, 0);
    const pr = this.reg('pr', 18, 0);
    const rng = this.reg('rng', 32, rngState(cfg.seed, link));
    const packets = (this.packets = this.reg('packets', 32, 0));
    // Connected and sending the header bytes it holds: the guard of the clock edge's fc read.
    const hdrOut = this.wire('hdrOut');

    /**
     * The routing header if the character at the buffer head completes it
     * (a random header: the generator's next value), else -1. The same
     * arithmetic as the HEAD state's clock edge below.
     */
    const completing = (s: Float64Array): number => {
      if (s[rxValid.i] !== 1 || s[nb.i]! + 1 < need) return -1;
      const ch = s[rxChar.i]!;
      if (!isData(ch)) return -1;
      if (inRandom) return inRandom.lo + (xorshift32(s[rng.i]!) % (inRandom.hi - inRandom.lo + 1));
      return need - h === s[nb.i]! ? ch : ((s[hdr.i]! << 8) | ch) & 0xffff;
    };
    if (cut0) {
      // Requests: from the REQ state's registers, or (cut-through) from the
      // header completing at the buffer head (docs/c104.md#pipeline).
      this.comb(
        () => {
          const s = this.s;
          const state = s[st.i]!;
          let r = state === REQ ? s[xgm.i]! : 0;
          let p = s[pr.i]!;
          if (state === HEAD) {
            const g = lookupGroup(table, completing(s));
            if (g >= 0) {
              r = xGroupMask[g]!;
              p = (fromNet << 16) | s[tag.i]!;
            }
          }
          s[req.i] = r;
          s[prio.i] = p;
        },
        { writes: [req, prio], reads: [st, xgm, pr, rxValid, rxChar, nb, hdr, rng, tag], name: 'request' },
      );
    } else {
      // Requests (from registers only: the crossbar's grant and flow control depend on them).
      this.comb(
        () => {
          const s = this.s;
          s[req.i] = s[st.i] === REQ ? s[xgm.i]! : 0;
          s[prio.i] = s[pr.i]!;
        },
        { writes: [req, prio], reads: [st, xgm, pr], name: 'request' },
      );
    }
    // Data towards the crossbar and the pops from the receive buffer.
    this.comb(
      () => {
        const s = this.s;
        const state = s[st.i]!;
        const v = s[rxValid.i]!;
        const ch = s[rxChar.i]!;
        let pop = 0;
        let rel = 0;
        let d = 0;
        if (state === HEAD) {
          // Cut-through: a header granted at the buffer head stays there to cross next cycle.
          pop = cut0 && s[gnt.i] === 1 ? 0 : v;
        } else if (state === CONN) {
          if (s[repN.i]! > 0) {
            d = XBAR_VALID | (s[rep.i]! & 0xff);
          } else {
            d = v === 1 ? XBAR_VALID | ch : 0;
            if (v === 1 && s[fc.i] === 0) {
              pop = 1;
              rel = isEnd(ch) ? 1 : 0;
            }
          }
        }
        s[rxPop.i] = pop;
        s[release.i] = rel;
        s[din.i] = d;
        s[hdrOut.i] = state === CONN && s[repN.i]! > 0 ? 1 : 0;
      },
      {
        writes: [rxPop, release, din, hdrOut],
        // By state (docs/kernel.md "Stop 21: FIFOs and C104 per token"):
        // routing or requesting, every output is 0; taking the header, only
        // the buffer's valid (and, cut-through, the grant) matters.
        reads: [st],
        readsWhen: [
          { when: st, is: [HEAD, CONN], reads: [rxValid] },
          { when: st, is: [CONN], reads: ROUTER_FAULT.streamBlind ? [rxChar, repN, rep] : [rxChar, repN, rep, fc] },
          ...(cut0 ? [{ when: st, is: [HEAD], reads: [gnt] }] : []),
        ],
        name: 'stream',
      },
    );

    const bytesOf = (value: number): number => (h === 1 ? value : ((value >>> 8) & 0xff) | ((value & 0xff) << 8));
    const randomIn = (lo: number, hi: number): number => {
      const x = xorshift32(this.s[rng.i]!);
      this.s[rng.n] = x;
      return lo + (x % (hi - lo + 1));
    };

    /** The clock edge of a grant: connected from the next cycle; the side-band tag follows the packet. */
    const connect = (): void => {
      const s = this.s;
      s[st.n] = CONN;
      s[packets.n] = s[packets.i]! + 1;
      if (sideBand) {
        const t = sideBand.in.shift();
        if (t < 0) this.fail(`link ${link}: a packet connected with no side-band tag in flight on this input`);
        sideBand.out[linkOf[s[gidx.i]!]!]?.push(t);
      }
    };

    /**
     * The clock edge's reads by state (docs/kernel.md "Stop 21: FIFOs and C104
     * per token"): before stop 21 the edge read every signal of the router, so
     * each character the stream process put on `din` (or popped) woke it for
     * nothing (0.64 of its 0.71 runs per node and cycle at 8x8 changed no
     * register). Every state's step reads only these; a step that acts changes
     * a register it reads in that state (nb, cnt, rep/repN, st), so a step that
     * must act again is woken by its own write. While connected, the edge
     * reads the stream's `release` rather than the buffer head: a packet's
     * data characters no longer wake it.
     */
    const fsmReads = (): { when: Signal; is: number[]; reads: Signal[] }[] => {
      const headIn: Signal[] = [nb, hdr, tag];
      if (inRandom) headIn.push(rng);
      const line = lookAhead ? [HEAD, ROUTE] : [HEAD];
      const g: { when: Signal; is: number[]; reads: Signal[] }[] = [
        { when: st, is: line, reads: [rxValid, rxChar] },
        { when: st, is: [HEAD], reads: headIn },
        { when: st, is: [HEAD, REQ, CONN], reads: [rep, repN] },
        { when: st, is: [ROUTE], reads: lookAhead ? [cnt, pr] : [cnt] },
        { when: st, is: cut0 ? [HEAD, REQ] : [REQ], reads: [gnt] },
        { when: st, is: [REQ], reads: table.place === 'output' ? [gidx, rng] : [gidx] },
        // fc matters only while connected with header bytes left to send (a
        // waiting input's fc toggles in REQ, a streaming one's in CONN).
        { when: st, is: [CONN], reads: ROUTER_FAULT.endBlind ? [] : [release] },
        { when: hdrOut, is: [1], reads: [fc] },
      ];
      return g.filter((e) => e.reads.length > 0);
    };
    this.seq(
      () => {
        const s = this.s;
        const state = s[st.i]!;
        if (state === HEAD) {
          if (s[rxValid.i] !== 1) return;
          const ch = s[rxChar.i]!;
          if (!isData(ch)) this.fail(`link ${link}: the packet ended inside its header (${need} header byte(s) expected)`);
          const k = s[nb.i]!;
          let value = s[hdr.i]!;
          let r = s[rep.i]!;
          let n = s[repN.i]!;
          // Cut-through, granted at the buffer head: the last byte stays in the buffer.
          const through = cut0 && k + 1 === need && s[gnt.i] === 1;
          if (k >= need - h) {
            // A byte of the header the packet is routed on: keep it to send on.
            value = k === need - h ? ch : ((value << 8) | ch) & 0xffff;
            if (!through) {
              r = r + ch * 2 ** (8 * n);
              n++;
            }
          }
          if (k + 1 < need) {
            s[nb.n] = k + 1;
            s[hdr.n] = value;
            s[rep.n] = r;
            s[repN.n] = n;
            return;
          }
          if (inRandom) {
            value = randomIn(inRandom.lo, inRandom.hi);
            r = bytesOf(value) + r * 2 ** (8 * h);
            n += h;
          }
          const g = lookupGroup(table, value);
          if (g < 0) this.fail(`link ${link}: header ${value} is past the last label ${table.labels - 1}`);
          s[nb.n] = 0;
          s[hdr.n] = value;
          s[rep.n] = r;
          s[repN.n] = n;
          s[gm.n] = table.groupMask[g]!;
          s[xgm.n] = xGroupMask[g]!;
          s[pr.n] = fromNet << 16 | s[tag.i]!;
          if (!cut) {
            s[cnt.n] = 0;
            s[st.n] = ROUTE;
          } else if (through) {
            connect();
          } else if (delay <= 1) {
            s[st.n] = REQ;
          } else {
            // ROUTE lasts delay - 1 cycles: the request is visible `delay` cycles after the header was at the head.
            s[cnt.n] = 2;
            s[st.n] = ROUTE;
          }
          return;
        }
        if (state === ROUTE) {
          const c = s[cnt.i]!;
          if (c < delay) {
            s[cnt.n] = c + 1;
            return;
          }
          if (lookAhead) {
            if (s[rxValid.i] !== 1) return;
            if (isEnd(s[rxChar.i]!)) s[pr.n] = s[pr.i]! | (1 << 17);
          }
          s[st.n] = REQ;
          return;
        }
        if (state === REQ) {
          if (s[gnt.i] !== 1) return;
          connect();
          if (table.place === 'output') {
            const out = linkOf[s[gidx.i]!]!;
            let r = s[rep.i]!;
            let n = s[repN.i]!;
            if (table.deleteHeader[out]) {
              r = Math.floor(r / 2 ** (8 * h));
              n -= h;
            }
            const rh = table.randomHeader[out];
            if (rh) {
              r = bytesOf(randomIn(rh.lo, rh.hi)) + r * 2 ** (8 * h);
              n += h;
            }
            s[rep.n] = r;
            s[repN.n] = n;
          }
          return;
        }
        // CONN: one character crosses when valid and the output has room;
        // the packet's end crosses when the stream process raises `release`
        // (the same condition: valid, room, no header bytes left, EOP/EOM).
        const n = s[repN.i]!;
        if (n > 0) {
          if (s[fc.i] === 1) return;
          s[rep.n] = Math.floor(s[rep.i]! / 256);
          s[repN.n] = n - 1;
          return;
        }
        if (s[release.i] === 1) {
          s[st.n] = HEAD;
          s[pr.n] = 0;
          s[gm.n] = 0;
          s[xgm.n] = 0;
        }
      },
      { reads: [st], readsWhen: fsmReads(), name: 'fsm' },
    );
  }
}
