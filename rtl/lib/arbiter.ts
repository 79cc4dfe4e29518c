/**
 * Arbiters: the common interface and the factory.
 *
 * Every policy is an `Arbiter` (arbiter_base.ts: ports req0..req{M-1},
 * blocked, gnt0..gnt{M-1}, any, idx; latency 0..8, default 2 per seed 002
 * §5.4.3). Policies:
 *  - 'tree'            ArbiterTree (arbiter_tree.ts): Buzzard's tree of
 *                      alternating 1-of-2 modules (§5.4.3, Fig. 5.6); fairness
 *                      bound 2^depth − 1 other grants. The default.
 *  - 'round-robin'     RoundRobinArbiter (arbiter_rr.ts): pointer register;
 *                      bound M − 1.
 *  - 'fifo'            FifoArbiter (arbiter_fifo.ts): arrival order, ties by
 *                      lowest index; the C104 policy (seed 004 §4.2.4); bound M − 1.
 *  - 'fixed-priority'  FixedPriorityArbiter (arbiter_fixed.ts): lowest index
 *                      wins; unfair on purpose (negative control).
 *
 * The base class lives in arbiter_base.ts so that the policy files can extend
 * it without an import cycle through this factory.
 */
import type { Module } from '../kernel/module.ts';
import { ARBITER_POLICIES, Arbiter, type ArbiterOptions, type ArbiterPolicy } from './arbiter_base.ts';
import { FifoArbiter } from './arbiter_fifo.ts';
import { FixedPriorityArbiter } from './arbiter_fixed.ts';
import { RoundRobinArbiter } from './arbiter_rr.ts';
import { ArbiterTree } from './arbiter_tree.ts';

export {
  Arbiter,
  ARBITER_POLICIES,
  ARBITER_DEFAULT_LATENCY,
  ARBITER_MAX_LATENCY,
  ARBITER_MAX_SIZE,
  bitsFor,
  checkInt,
} from './arbiter_base.ts';
export type { ArbiterOptions, ArbiterPolicy } from './arbiter_base.ts';
export { Arbiter2 } from './arbiter2.ts';
export { ArbiterTree, treeLeafDepths } from './arbiter_tree.ts';
export { RoundRobinArbiter } from './arbiter_rr.ts';
export { FifoArbiter } from './arbiter_fifo.ts';
export { FixedPriorityArbiter } from './arbiter_fixed.ts';

export interface ArbiterConfig extends ArbiterOptions {
  /** Policy; default 'tree' (Buzzard §5.4.3). */
  policy?: ArbiterPolicy;
}

/** Check a policy name; `unit` names the config in the message (e.g. 'crossbar'). */
export function checkPolicy(unit: string, field: string, v: unknown, dflt: ArbiterPolicy): ArbiterPolicy {
  if (v === undefined) return dflt;
  if (typeof v !== 'string' || !(ARBITER_POLICIES as readonly string[]).includes(v)) {
    throw new RangeError(`${unit}.${field}: '${String(v)}' is not one of ${ARBITER_POLICIES.map((p) => `'${p}'`).join(', ')}`);
  }
  return v as ArbiterPolicy;
}

/** Build a 1-of-`size` arbiter of the given policy as a child of `parent` (or a root, for tests). */
export function makeArbiter(parent: Module | null, name: string, config: ArbiterConfig): Arbiter {
  if (typeof config !== 'object' || config === null) throw new RangeError('arbiter: expected a config object { size, latency?, policy? }');
  const policy = checkPolicy('arbiter', 'policy', config.policy, 'tree');
  const opts: ArbiterOptions = { size: config.size, latency: config.latency };
  switch (policy) {
    case 'tree':
      return new ArbiterTree(parent, name, opts);
    case 'round-robin':
      return new RoundRobinArbiter(parent, name, opts);
    case 'fifo':
      return new FifoArbiter(parent, name, opts);
    case 'fixed-priority':
      return new FixedPriorityArbiter(parent, name, opts);
  }
}
