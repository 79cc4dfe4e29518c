export { Module, Signal, Memory } from './module.ts';
export type { SignalKind, SignalOptions, CombOptions, SeqOptions, ProcessDecl } from './module.ts';
export { Simulator } from './simulator.ts';
export type { SimOptions, SimMode, Observer, Snapshot, StateProvider } from './simulator.ts';
export { elaborate } from './elaborate.ts';
export type { Netlist, DriverKind } from './elaborate.ts';
export { ElaborationError, SimError } from './errors.ts';
export { globToRegExp, isGlob, nearestNames } from './names.ts';
