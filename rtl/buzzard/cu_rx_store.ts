/**
 * Receive path: store the packet in node memory, and step 4 for a packet
 * that does not end the message (seed 002 §5.1.2 receive path 2, 4; buzzard
 * §8.7; the receive task: cu_receive.ts): data is stored 32 bits at a time
 * when the address is word aligned and two words are available, otherwise by
 * read-modify-write; bytes beyond the message or the buffer are never
 * written. After the packet the ATU's next is updated (or extra 1 in the
 * arrival table's block); after the message's last byte, step 5
 * (cu_rx_last_packet.ts).
 */
import { RECV } from './header_blocks.ts';
import { type CuKit, E, R, ATU, FL_ATU, RX_STATES } from './cu_kit.ts';
import type { RxBase } from './cu_receive.ts';

/** The states of this room (cu_receive.ts dispatches them here). */
export const RX_STORE_STATES = ['R_DATA', 'R_RMW', 'R_END'] as const;

export function cuRxStore(kit: CuKit, rx: RxBase, lastPacket: { rxComplete: () => void }) {
  const {
    atuOp, atuKey, atuNext, rxSt, rxTake, rxSrc, rxDir, rxBlk, rxFl, rxNext, rxLast, rxWlim,
    rxHalf, rxHave, rxEnd, rxRmwV, rxRmwM, rxRmwA, g, p, fail, bus, rd, wr, atuKeyOf, laneMask,
  } = kit;
  const { rxGo, rxYieldIdle } = rx;
  const { rxComplete } = lastPacket;
  /** Store the halfword / word at rxNext (write limit rxWlim), then continue. */
  const rxStore = (addr: number, val: number, bytes: number): void => {
    const last = g(rxLast);
    if (addr + bytes - 2 > last) fail(`packet from node ${g(rxSrc)} (direction ${g(rxDir)}) carries data beyond its message (byte 0x${addr.toString(16)}, last 0x${last.toString(16)})`);
    const lim = Math.min(g(rxWlim), last);
    const wa = addr & ~3;
    const mask = laneMask(addr, bytes, lim);
    const shifted = bytes === 4 ? val : (val << ((2 - (addr & 2)) * 8)) >>> 0;
    p(rxNext, addr + bytes);
    const end = g(rxEnd);
    if (mask === 0) {
      // beyond the buffer (truncated) or padding: consume only
      if (end) {
        p(rxTake, 0);
        rxGo(R.R_END);
      } else {
        p(rxTake, 1);
        rxGo(R.R_DATA);
      }
      return;
    }
    if (mask === 0xffffffff) {
      p(rxTake, end ? 0 : 1);
      p(rxSt, end ? R.R_END : R.R_DATA);
      wr(wa, val, E.RX);
      return;
    }
    p(rxRmwV, shifted);
    p(rxRmwM, mask);
    p(rxRmwA, wa);
    p(rxTake, 0);
    p(rxSt, R.R_RMW);
    rd(wa, E.RX);
  };
  /** One micro-step in receive state r; w is the FIFO head word, wl whether it is the packet's last. */
  const step = (r: number, w: number, wl: boolean): void => {
    switch (r) {
      case R.R_DATA: {
        p(rxEnd, wl ? 1 : 0);
        const a = g(rxNext);
        if (g(rxHave)) {
          p(rxHave, 0);
          rxStore(a, (g(rxHalf) * 65536 + w) >>> 0, 4);
        } else if ((a & 3) === 0 && !wl) {
          p(rxHalf, w);
          p(rxHave, 1);
        } else rxStore(a, w, 2);
        break;
      }
      case R.R_RMW: {
        const mask = g(rxRmwM);
        const v = ((bus.md & ~mask) | (g(rxRmwV) & mask)) >>> 0;
        const end = g(rxEnd);
        p(rxTake, end ? 0 : 1);
        p(rxSt, end ? R.R_END : R.R_DATA);
        wr(g(rxRmwA), v, E.RX);
        break;
      }
      case R.R_END: {
        if (g(rxNext) > g(rxLast)) {
          rxComplete();
          break;
        }
        if (g(rxFl) & FL_ATU) {
          p(atuOp, ATU.update);
          p(atuKey, atuKeyOf(g(rxSrc), g(rxDir)));
          p(atuNext, g(rxNext));
          rxYieldIdle();
        } else {
          p(rxSt, R.R_IDLE);
          wr(g(rxBlk) + 4 * RECV.extra1, g(rxNext), E.IDLE);
        }
        break;
      }
      default:
        fail(`internal: receive task in ${RX_STATES[r]}`);
    }
  };

  return { step, rxStore };
}
