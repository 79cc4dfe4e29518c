/**
 * The named experiments, one per reproduced seed result (`icemu experiment <name>`).
 */
import { buzzardFig512, buzzardFig513, buzzardFig514, buzzardFig515 } from './buzzard-ch5.ts';
import { buzzardCh5Light } from './buzzard-ch5-light.ts';
import { buzzardCh4 } from './buzzard-ch4.ts';
import { buzzardCollisions } from './collisions.ts';
import { c104Ch5 } from './c104-ch5.ts';
import { c104Ch6 } from './c104-ch6.ts';
import { c104Starvation } from './c104-starvation.ts';
import { c104Saturation } from './c104-saturation.ts';
import { c104CpuFairness } from './c104-cpu-fairness.ts';
import { c104Variability } from './c104-variability.ts';
import { c104Bursts } from './c104-bursts.ts';
import { dslinkPacket } from './dslink-packet.ts';
import { c104Policies } from './c104-policies.ts';
import { c104Buffers } from './c104-buffers.ts';
import { c104BoundaryExchange } from './c104-boundary-exchange.ts';
import { c104TokenVsPacket } from './c104-token-vs-packet.ts';
import { c104BufferSplit } from './c104-buffer-split.ts';
import { c104Fig412 } from './c104-fig412.ts';
import { c104TwoPhase } from './c104-two-phase.ts';
import { dslinkBandwidthExperiment } from './dslink-bandwidth.ts';
import { c104Transit } from './c104-transit.ts';
import { oliverC104 } from './oliver-c104.ts';
import { nblTestjig } from './nbl-testjig.ts';
import { oliverGraphs } from './oliver-graphs.ts';
import { buzzardSweep } from '../batch/sweep.ts';
import type { AnyExperiment } from './types.ts';

// One experiment per line, so that work on different experiments merges cleanly.
export const EXPERIMENTS: readonly AnyExperiment[] = [
  buzzardFig512,
  buzzardFig513,
  buzzardFig514,
  buzzardFig515,
  buzzardCh5Light,
  buzzardCh4,
  buzzardCollisions,
  oliverGraphs,
  nblTestjig,
  buzzardSweep,
  c104Ch5,
  c104Ch6,
  c104Starvation,
  c104Saturation,
  c104CpuFairness,
  c104Variability,
  c104Bursts,
  dslinkPacket,
  c104Policies,
  c104Buffers,
  c104BoundaryExchange,
  c104TokenVsPacket,
  c104BufferSplit,
  c104Fig412,
  c104TwoPhase,
  dslinkBandwidthExperiment,
  c104Transit,
  oliverC104,
];

export function findExperiment(name: string): AnyExperiment | undefined {
  return EXPERIMENTS.find((e) => e.name === name);
}

export function experimentNames(): string[] {
  return EXPERIMENTS.map((e) => e.name);
}
