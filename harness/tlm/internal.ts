/** Event types and output states shared by the parts of the Buzzard TLM (buzzard-tlm.ts, wormhole.ts). */

// Event types.
export const EV_GRANT = 1;
export const EV_HEAD = 2;
export const EV_TXEND = 3;
export const EV_RELEASE = 4;
export const EV_SLOTFREE = 5;
export const EV_LEG = 6; // a broadcast leg joins its slot's send queue
export const EV_ARRIVE = 8; // a message starts on its slot late: its source's control unit was serving a receive (config.sendRxDelayTicks)
export const EV_PBUFREE = 9; // a PBU forwarding onto a link may be granted again before the packet's last bit (config.pbuReleaseTicks)
export const EV_NNSTART = 10; // a near-neighbour broadcast's unicast starts after the instruction's own cost (config.nnBroadcastTicks …)
export const EV_OFREE = 7; // the node input port is offered to the next packet before the current one's last bit (config.nipReleaseTicks)

// Output states.
export const IDLE = 0;
export const ARB = 1;
export const BUSY = 2;

/** Index of the lowest set bit. */
export function ctz(x: number): number {
  return 31 - Math.clz32(x & -x);
}
