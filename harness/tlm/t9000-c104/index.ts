/**
 * The T9000/C104 packet-level TLM (seed 004 chapters 3–6; docs/thesis-model.md).
 *
 *   config.ts          C104Config: every parameter with the thesis default, validated
 *   topology.ts        mesh geometry, dimension-order routing, path lengths
 *   core.ts            packet record and pool, event codes, transport/endpoint interfaces
 *   packet-network.ts  full contention model: packet passing, input buffers, hunt groups, policies
 *   token-network.ts   token-credit (RTL-calibrated) mode: DS-link tokens, per-token credit, the RTL's buffers,
 *                      in rooms: token-credit-rtl.ts (constants, event codes), token-links.ts (DS-link
 *                      directions), token-c104.ts (the switch), token-t9000.ts (T9000 transmit ports)
 *   ideal-network.ts   contention-free, throttled contention-free and no-communication models
 *   endpoint.ts        T9000 messaging (packets, acks) and the process model
 *   metrics.ts         counters, MSER-5 truncation, batch means, summary
 *   run.ts             runC104(program, config, control)
 */
export * from './config.ts';
export * from './topology.ts';
export * from './core.ts';
export * from './metrics.ts';
export * from './run.ts';
export { TOKEN_CREDIT_RTL } from './token-credit-rtl.ts';
