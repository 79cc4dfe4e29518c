/**
 * The DS-link bandwidth jig of seed 004 §4.1.4 (Tables 4.1, 4.2, Figs
 * 4.2–4.4): two T9000s (processors 0 and 1; a 2×2 grid whose processors 2
 * and 3 stay idle) joined by one DS-link; a process sends fixed-size messages
 * of m bytes repeatedly with blocking sends (`uni`: 0 → 1; `bi`: also
 * 1 → 0). `staggerNs` delays the second sender's start (Fig. 4.3: a
 * staggered start removes the lock-step artefact); 0 is lock-step.
 */
import { integerIn, oneOf } from '../models/validate.ts';
import type { IterationPlan, ProcessProgram, SyncMode } from './process-program.ts';

export interface StreamSpec {
  readonly m: number;
  readonly direction: 'uni' | 'bi';
  readonly staggerNs: number;
}

const IDLE: IterationPlan = { computeNs: 1e12, sends: [] };

export class DsLinkStreamProgram implements ProcessProgram {
  readonly name = 'dslink-stream';
  readonly params: Readonly<Record<string, unknown>>;
  readonly mode: SyncMode = 'async-blocking';
  readonly side = 2;
  readonly processes = 4;

  constructor(readonly spec: StreamSpec) {
    integerIn('stream', 'm', spec.m, 0, 1 << 20, 'message bytes');
    oneOf('stream', 'direction', spec.direction, ['uni', 'bi'] as const);
    integerIn('stream', 'staggerNs', spec.staggerNs, 0, 1e9, 'ns');
    this.params = { ...spec };
  }

  nodeOf(p: number): number {
    return p;
  }

  plan(p: number): IterationPlan {
    if (p === 0) return { computeNs: 0, sends: [{ dest: 1, bytes: this.spec.m }] };
    if (p === 1 && this.spec.direction === 'bi') return { computeNs: 0, sends: [{ dest: 0, bytes: this.spec.m }] };
    return IDLE;
  }

  startNs(p: number): number {
    return p === 1 ? this.spec.staggerNs : 0;
  }

  incoming(): number {
    return 0;
  }
}
