/**
 * Seed 004's T9000 endpoint rules as a zero-latency packet model, in link
 * bit times, independent of the RTL (docs/t9000.md#bandwidth-experiment):
 * two endpoints on one link, one virtual link per direction, each sender
 * repeating m-byte messages, each receiver always waiting. The rules, and
 * nothing else:
 *  - an ack (header + EOP, 14 bits) is queued when a data packet's header
 *    (10 bits) has arrived (§4.1.2, §4.1.4.1);
 *  - a free transmitter sends a queued ack before data (§3.1.1, §4.2.4);
 *  - one outstanding packet per virtual link: the next packet waits for the
 *    previous one's ack (§3.1.1);
 *  - a packet is never interrupted (§4.1.4.1's lock-step account).
 * No FCTs, so the fair closed form is Eq 4.3. Arrivals at bit time t are
 * seen by the decisions at t (no latency at all).
 */
export const HEADER_BITS = 10;
export const ACK_BITS = HEADER_BITS + 4;
const PACKET_BYTES = 32;

export interface RulesRun {
  /** Data bandwidth per direction, Mbit/s at 100 Mbit/s (mean of the directions that send). */
  readonly mbps: number;
  readonly perDirection: readonly number[];
}

/** Run the rules for `bitTimes`; side 1's sender (bi) starts `stagger` bit times after side 0's. */
export function runEndpointRules(m: number, direction: 'uni' | 'bi', stagger: number, bitTimes = 200_000, warmup = 5): RulesRun {
  const sizes: number[] = [];
  for (let left = m; left > 0; left -= PACKET_BYTES) sizes.push(Math.min(PACKET_BYTES, left));
  const senders = direction === 'bi' ? [0, 1] : [0];
  const start = [0, stagger];
  const busyUntil = [0, 0];
  const sending: ({ kind: 'ack' } | { kind: 'data'; at: number; last: boolean } | null)[] = [null, null];
  const acksQueued = [0, 0];
  const outstanding = [false, false];
  const nextPacket = [0, 0];
  const deliveries: number[][] = [[], []];
  for (let t = 0; t <= bitTimes; t++) {
    for (const s of [0, 1]) {
      const cur = sending[s];
      if (cur?.kind === 'data' && t === cur.at + HEADER_BITS) acksQueued[1 - s]!++;
      if (cur && t === busyUntil[s]) {
        if (cur.kind === 'ack') outstanding[1 - s] = false;
        else if (cur.last) deliveries[1 - s]!.push(t);
        sending[s] = null;
      }
    }
    for (const s of [0, 1]) {
      if (sending[s]) continue;
      if (acksQueued[s]! > 0) {
        acksQueued[s]!--;
        sending[s] = { kind: 'ack' };
        busyUntil[s] = t + ACK_BITS;
      } else if (senders.includes(s) && t >= start[s]! && !outstanding[s]) {
        const k = nextPacket[s]!;
        sending[s] = { kind: 'data', at: t, last: k === sizes.length - 1 };
        busyUntil[s] = t + HEADER_BITS + 10 * sizes[k]! + 4;
        outstanding[s] = true;
        nextPacket[s] = (k + 1) % sizes.length;
      }
    }
  }
  const perDirection = senders.map((s) => {
    const d = deliveries[1 - s]!;
    const k0 = warmup - 1;
    // too short a run gives no interval to measure: refuse rather than report NaN
    if (d.length < warmup + 1) throw new RangeError(`endpoint rules: ${d.length} deliveries in ${bitTimes} bit times, need more than the warm-up of ${warmup}`);
    return (100 * 8 * m * (d.length - 1 - k0)) / (d[d.length - 1]! - d[k0]!);
  });
  return { mbps: perDirection.reduce((a, b) => a + b, 0) / perDirection.length, perDirection };
}
