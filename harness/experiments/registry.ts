/**
 * The named experiments, one per reproduced seed result (`icemu experiment <name>`).
 */
import { buzzardFig512, buzzardFig513, buzzardFig514, buzzardFig515 } from './buzzard-ch5.ts';
import { buzzardCh5Light } from './buzzard-ch5-light.ts';
import { buzzardCh4 } from './buzzard-ch4.ts';
import { buzzardCollisions } from './collisions.ts';
import { nblTestjig } from './nbl-testjig.ts';
import { oliverGraphs } from './oliver-graphs.ts';
import type { AnyExperiment } from './types.ts';

export const EXPERIMENTS: readonly AnyExperiment[] = [buzzardFig512, buzzardFig513, buzzardFig514, buzzardFig515, buzzardCh5Light, buzzardCh4, buzzardCollisions, oliverGraphs, nblTestjig];

export function findExperiment(name: string): AnyExperiment | undefined {
  return EXPERIMENTS.find((e) => e.name === name);
}

export function experimentNames(): string[] {
  return EXPERIMENTS.map((e) => e.name);
}
