/**
 * Transaction-level models (ARCHITECTURE.md "TLM (harness/tlm/)").
 *
 *   config.ts       TlmConfig: every parameter with its seed default and modelling assumption
 *   event-queue.ts  binary-heap event queue on typed arrays
 *   buzzard-tlm.ts  runTlm: the Buzzard n-cube, wormhole / fixed packet / quasi-adaptive packet
 *   sweep.ts        the seed 002 Chapter 5 sweep (9 rates × 3 transports × 2 lengths + variants)
 *   t9000-c104/     seed 004: T9000/C104 packet-passing networks (import from './t9000-c104/index.ts')
 */
export * from './config.ts';
export * from './event-queue.ts';
export * from './buzzard-tlm.ts';
export * from './sweep.ts';
export * from './calibrated.ts';
export type * from './types.ts';
export * from './broadcast.ts';
export { receiveComplete } from './result.ts';
