/**
 * Receive room of the Buzzard control unit (seed 002 §5.4.7, buzzard §8.7;
 * the unit: control_unit.ts).
 *
 * Receive path (buzzard §8.7 1–5): take the destination word (checked: this
 * node or a broadcast), the source word (source, first-step direction) and
 * look the key up in the ATU; on a miss read the arrival table word for
 * (source, direction) (header_blocks layout). None → a first packet: take
 * the prefix (type, length), search the ANY queue first (receives with an
 * ANY source or an ANY type; on-chip head/tail/count, skipped when the count
 * is 0), then the hash bucket of (source, type) (specific receives). A match
 * is unlinked, its source/type fields get the actual values, a null buffer
 * gets a system buffer (unit of the pool: header block + data), and it is
 * entered in the arrival table. No match → unexpected: a pool unit holds the
 * message (its header block has the receive layout, length = the buffer
 * size) and goes on the arriving-unexpected list (auHead/auTail, linked
 * through word 0). Then an ATU entry is allocated (allocArriving); if that
 * succeeds the completion flag becomes 1 (seed: otherwise the flag is left
 * unchanged and the addresses live only in node memory, extra 1 / extra 2).
 * Data is stored 32 bits at a time when the address is word aligned and two
 * words are available, otherwise by read-modify-write; bytes beyond the
 * message or the buffer are never written. After each packet the ATU's next
 * is updated (or extra 1). After the last packet: ATU purge, arrival table
 * cleared, length = message length and flag = 3 (| error << 8). A system
 * block with no attached receive goes to the unclaimed queue of its (source,
 * type); with one (second queue link) its data is copied to the receive's
 * buffer (the unit returns to the pool) or the buffer is handed over. A
 * message of system type raises cpuIrq (cause 2).
 *
 * This file is the receive task (its dispatch from IDLE, the FIFO take
 * states, the moves every step shares); the steps are in rooms named after
 * the seed's receive path (§5.1.2): cu_rx_consult.ts (step 2 for every
 * packet: destination, source, ATU, arrival table), cu_rx_first_packet.ts
 * (steps 2–3 for a first packet: prefix, expected queues or unexpected,
 * arrival table and ATU entries, flag 1), cu_rx_store.ts (the packet's data
 * into node memory, step 4), cu_rx_last_packet.ts (step 5).
 */
import { type CuKit, E, R, RX_STATES, type RxState } from './cu_kit.ts';
import { cuRxConsult, RX_CONSULT_STATES } from './cu_rx_consult.ts';
import { cuRxFirstPacket, RX_FIRST_PACKET_STATES } from './cu_rx_first_packet.ts';
import { cuRxLastPacket, RX_LAST_PACKET_STATES } from './cu_rx_last_packet.ts';
import { cuRxStore, RX_STORE_STATES } from './cu_rx_store.ts';

/** The receive task's moves that every room of the receive path makes. */
function rxBase(kit: CuKit) {
  const { rxSt, rxTake, rxEnd, g, p, go } = kit;
  const rxGo = (r: number): void => {
    p(rxSt, r);
    go(E.RX);
  };
  const rxYieldIdle = (): void => {
    p(rxSt, R.R_IDLE);
    p(rxTake, 0);
    go(E.IDLE);
  };
  /** Continue with the packet's data words, or end the packet. */
  const rxToData = (): void => {
    if (g(rxEnd)) {
      p(rxTake, 0);
      rxGo(R.R_END);
    } else {
      p(rxTake, 1);
      rxGo(R.R_DATA);
    }
  };
  const rxWaitPool = (): void => {
    p(rxSt, R.R_WAITPOOL);
    p(rxTake, 0);
    go(E.IDLE);
  };
  return { rxGo, rxYieldIdle, rxToData, rxWaitPool };
}
export type RxBase = ReturnType<typeof rxBase>;

/** The room of each receive state: 1 consult, 2 first packet, 3 store, 4 last packet, 0 none (internal error). */
const ROOMS: readonly (readonly RxState[])[] = [[], RX_CONSULT_STATES, RX_FIRST_PACKET_STATES, RX_STORE_STATES, RX_LAST_PACKET_STATES];
const ROOM = Uint8Array.from(RX_STATES, (nm) => Math.max(0, ROOMS.findIndex((states) => states.includes(nm))));

export function cuReceive(kit: CuKit) {
  const { inDout, inLast, inEmpty, rxSt, rxTake, rxRetry, g, gi, p, fail, go } = kit;
  const base = rxBase(kit);
  const last = cuRxLastPacket(kit, base);
  const first = cuRxFirstPacket(kit, base);
  const store = cuRxStore(kit, base, last);
  const consult = cuRxConsult(kit, base, first);
  const rxTakeStates = new Set([R.R_D, R.R_S, R.R_PFX, R.R_DATA]);
  /** rxTakeStates as a lookup by state (the IDLE dispatch asks at every run, issue 8). */
  const takes = Uint8Array.from(RX_STATES, (_, r) => (rxTakeStates.has(r) ? 1 : 0));
  const rxTask = (): boolean => {
    const r = g(rxSt);
    const empty = gi(inEmpty) !== 0;
    if (r === R.R_IDLE) {
      if (empty) return false;
      p(rxSt, R.R_D);
      p(rxTake, 1);
      go(E.RX);
      return true;
    }
    if (takes[r] === 1) {
      if (empty) return false;
      p(rxTake, 1);
      go(E.RX);
      return true;
    }
    if (r === R.R_WAITPOOL) {
      if (!g(rxRetry)) return false;
      p(rxRetry, 0);
      p(rxSt, R.R_MATCH0);
      go(E.RX);
      return true;
    }
    return fail(`internal: receive task parked in ${RX_STATES[r]}`);
  };

  /** One micro-step of the receive task (engine state RX). */
  const rxStep = (popNow: boolean): boolean => {
    const r = g(rxSt);
    const w = gi(inDout);
    const wl = gi(inLast) !== 0;
    // The take states (rxTakeStates) consume the FIFO head word; with the FIFO
    // empty they yield to IDLE and keep their state. Checked here rather than
    // by a closure made at every step (issue 8).
    const took = takes[r] === 1;
    if (took && !popNow) {
      p(rxTake, 0);
      go(E.IDLE);
      return false;
    }
    switch (ROOM[r]) {
      case 1:
        consult.step(r, w, wl);
        break;
      case 2:
        first.step(r, w, wl);
        break;
      case 3:
        store.step(r, w, wl);
        break;
      case 4:
        last.step(r);
        break;
      default:
        fail(`internal: receive task in ${RX_STATES[r]}`);
    }
    return took;
  };

  return {
    rxTakeStates, rxTask, ...base, rxStore: store.rxStore, rxMatchStart: first.rxMatchStart, rxNode: first.rxNode,
    rxUnexpected: first.rxUnexpected, rxComplete: last.rxComplete, rxStep,
  };
}

export type CuReceive = ReturnType<typeof cuReceive>;
