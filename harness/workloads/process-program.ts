/**
 * Process programs: workloads given as the loop each process runs, rather
 * than as a list of timed messages (seed 004 §3.5.3: processes compute, send
 * and receive; their timing depends on the network). Used by the T9000/C104
 * TLM (harness/tlm/t9000-c104) and meant for the T9000 process driver of the
 * RTL, so one program feeds every model.
 *
 * A program is pure: `plan(p, k)` gives iteration k of process p (compute
 * time, messages) as a function of (p, k) and the program's seed only, so the
 * same workload reaches every communication model identically however the
 * network reorders the processes (thesis §3.5.2: the workload's random
 * stream is separate from the communication layer's).
 */

/**
 * Synchronisation of a program (seed 004 §5.3.2; docs/thesis-model.md#synchronisation):
 * - 'loosely': queue the iteration's messages, then block until they are all
 *   acknowledged and all of this iteration's incoming messages have arrived;
 *   a receiver acknowledges only messages of its current iteration.
 * - 'async-blocking': send the messages one by one, each blocking until its
 *   acknowledgement returns; incoming messages are acknowledged at once.
 * - 'async': queue the messages (non-blocking) and go on; sends beyond the
 *   outstanding-message limit are dropped (saturation failures).
 * - 'exchange': Chapter 4's boundary exchange: non-blocking sends, then
 *   receive this iteration's incoming messages (no drops).
 */
export type SyncMode = 'loosely' | 'async-blocking' | 'async' | 'exchange';
export const SYNC_MODES: readonly SyncMode[] = ['loosely', 'async-blocking', 'async', 'exchange'];

export interface PlannedSend {
  /** Destination process. */
  readonly dest: number;
  readonly bytes: number;
}

export interface IterationPlan {
  /** Compute time before the sends, ns. */
  readonly computeNs: number;
  readonly sends: readonly PlannedSend[];
}

export interface ProcessProgram {
  readonly name: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly mode: SyncMode;
  /** Grid side D: processors are D×D, node index y·D + x. */
  readonly side: number;
  readonly processes: number;
  /** Processor (node) a process runs on. */
  nodeOf(p: number): number;
  /** Iteration k of process p (pure). */
  plan(p: number, k: number): IterationPlan;
  /** Optional shortcut, equal to plan(p, k).computeNs, for programs that can give it without drawing the sends. */
  computeNs?(p: number, k: number): number;
  /** Optional shortcut, equal to plan(p, k).sends.length (a non-blocking process at its limit drops them unread). */
  sendCount?(p: number, k: number): number;
  /** When process p starts its first iteration, ns (a sleep, not CPU time). */
  startNs(p: number): number;
  /** Messages process p receives in iteration k (needed by 'loosely' and 'exchange'). */
  incoming(p: number, k: number): number;
  /**
   * Optional: the number of p's end of the channel between processes p and q
   * at p's node (channel ends numbered per node from 0), as the RTL harness
   * that runs this program numbers its virtual link control blocks; the TLM's
   * 'per-channel' link choice sends on link slot mod links. Absent: ends are
   * numbered per node in the order the channels are first used (a channel per
   * unordered process pair).
   */
  channelSlot?(p: number, q: number): number;
}

/** A 32-bit seed for (seed, p, k): FNV-1a mixing, so each (p, k) has its own stream. */
export function iterationSeed(seed: number, p: number, k: number): number {
  let h = 0x811c9dc5;
  for (const w of [seed, p, k, k / 0x100000000]) {
    const x = w >>> 0;
    for (let i = 0; i < 4; i++) {
      h ^= (x >>> (8 * i)) & 0xff;
      h = Math.imul(h, 0x01000193);
    }
  }
  return h >>> 0;
}
