/**
 * Receive path, step 2 for every packet (seed 002 §5.1.2 receive path 2;
 * buzzard §8.7; the receive task: cu_receive.ts): take the destination word
 * (this node or a broadcast) and the source word (source, first-step
 * direction), consult the ATU; on a miss read the arrival table word for
 * (source, direction): an entry gives the message's block, its next and last
 * addresses (extra 1, extra 2; buffer and length for a truncated message);
 * none means a first packet (cu_rx_first_packet.ts).
 */
import { BROADCAST_TAG } from './framing.ts';
import { RECV } from './header_blocks.ts';
import { type CuKit, E, R, ATU, FL_TRUNC, FL_ATU, RX_STATES } from './cu_kit.ts';
import type { RxBase } from './cu_receive.ts';

/** The states of this room (cu_receive.ts dispatches them here). */
export const RX_CONSULT_STATES = ['R_D', 'R_S', 'R_LOOK', 'R_LOOK2', 'R_ARR', 'R_X1', 'R_X2', 'R_TB', 'R_TL'] as const;

export function cuRxConsult(kit: CuKit, rx: RxBase, first: { rxMatchStart: () => void }) {
  const {
    cfg, n, nodes, self, P0, atuOp, atuKey, atuHit, atuHitNext, atuHitLast, rxSt, rxTake, rxD,
    rxSrc, rxDir, rxType, rxLen, rxBlk, rxFl, rxNext, rxLast, rxWlim, rxHave, rxEnd, rxPfx, g, gi,
    p, fail, bus, rd, arrAddr, atuKeyOf,
  } = kit;
  const { rxToData } = rx;
  const { rxMatchStart } = first;
  /** One micro-step in receive state r; w is the FIFO head word, wl whether it is the packet's last. */
  const step = (r: number, w: number, wl: boolean): void => {
    switch (r) {
      case R.R_D: {
        if (!(w & BROADCAST_TAG) && w !== self) fail(`misrouted packet: destination word 0x${w.toString(16)} at node ${self}`);
        if (wl) fail('packet ends after its destination word (L = 0)');
        p(rxD, w);
        p(rxSt, R.R_S);
        break;
      }
      case R.R_S: {
        const src = w & 0xfff;
        const dir = w >>> 12;
        if (src >= nodes || dir < 1 || dir > n || src === self) fail(`bad source word 0x${w.toString(16)} (source ${src}, direction ${dir})`);
        const d = g(rxD);
        if (d & BROADCAST_TAG && (d & 0x7fff) !== src) fail(`broadcast packet with destination word 0x${d.toString(16)} but source ${src}`);
        p(rxSrc, src);
        // Arrival key direction (docs/readings.bus.md broadcast-arrival-key): a broadcast is keyed
        // (source, 0), apart from unicasts from the same source over the same first link.
        const kdir = d & BROADCAST_TAG ? 0 : dir;
        p(rxDir, kdir);
        p(rxEnd, wl ? 1 : 0);
        p(rxHave, 0);
        p(rxTake, 0);
        p(atuOp, ATU.lookup);
        p(atuKey, atuKeyOf(src, kdir));
        p(rxSt, R.R_LOOK);
        break;
      }
      case R.R_LOOK:
        p(rxSt, R.R_LOOK2); // op held a second cycle
        break;
      case R.R_LOOK2: {
        p(atuOp, ATU.none);
        if (gi(atuHit)) {
          p(rxNext, gi(atuHitNext));
          p(rxLast, gi(atuHitLast));
          p(rxWlim, gi(atuHitLast));
          p(rxFl, FL_ATU);
          rxToData();
        } else {
          p(rxSt, R.R_ARR);
          rd(arrAddr(g(rxSrc), g(rxDir)), E.RX);
        }
        break;
      }
      case R.R_ARR: {
        const ent = bus.md;
        if (ent !== 0) {
          const blk = ent & ~3;
          p(rxBlk, blk);
          p(rxFl, ent & 3);
          p(rxSt, R.R_X1);
          rd(blk + 4 * RECV.extra1, E.RX);
        } else {
          // first packet of a message
          p(rxType, 0);
          p(rxLen, 0);
          p(rxPfx, 0);
          if (P0 > 0) {
            if (g(rxEnd)) fail(`first packet from node ${g(rxSrc)} ends before its ${cfg.firstPacketPrefixBytes}-byte prefix (A7)`);
            p(rxTake, 1);
            p(rxSt, R.R_PFX);
          } else rxMatchStart();
        }
        break;
      }
      case R.R_X1:
        p(rxNext, bus.md);
        p(rxSt, R.R_X2);
        rd(g(rxBlk) + 4 * RECV.extra2, E.RX);
        break;
      case R.R_X2:
        p(rxLast, bus.md);
        p(rxWlim, bus.md);
        if (g(rxFl) & FL_TRUNC) {
          p(rxSt, R.R_TB);
          rd(g(rxBlk) + 4 * RECV.buffer, E.RX);
        } else rxToData();
        break;
      case R.R_TB:
        p(rxWlim, bus.md);
        p(rxSt, R.R_TL);
        rd(g(rxBlk) + 4 * RECV.length, E.RX);
        break;
      case R.R_TL:
        p(rxWlim, g(rxWlim) + bus.md - 1);
        rxToData();
        break;
      default:
        fail(`internal: receive task in ${RX_STATES[r]}`);
    }
  };

  return { step };
}
