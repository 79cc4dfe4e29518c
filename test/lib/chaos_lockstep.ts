/**
 * Test helper: the review's lock-step under disturbance (docs/kernel.md
 * "Stop 21: review"). One design built twice, a reference copy ('plain')
 * and a fast copy ('activity'), stepped together; before some cycles a
 * seeded random action hits both copies alike:
 *  - a poke of a random register or comb wire of the design (a register
 *    takes the value for this cycle, a wire is forced until the next edge:
 *    Simulator.poke) to 0, 1, its all-ones, a random value or its own +-1;
 *  - a snapshot saved in both copies and restored some cycles later (same
 *    mode);
 *  - a snapshot saved in one mode restored in the other: the fast copy
 *    saves, switches mode and restores (each copy takes up only its own
 *    snapshots: stimuli and workload providers belong to their simulator);
 *  - the fast copy switched to the reference mode for a few cycles and back.
 * After every step every state-vector slot and every memory word must be
 * equal, and an error of the model must be alike in both (then the run
 * ends). The action log names what led to a difference.
 */
import { SimError, type Memory, type Signal, type Simulator } from '../../rtl/kernel/index.ts';
import { firstSlotDiff, rng } from './lockstep_sim.ts';

export interface ChaosOptions {
  /** Cycles to step. */
  cycles: number;
  /** Chance per cycle of an action. */
  rate: number;
  /** Which signals may be poked (by path); default every register and comb wire. */
  pokeable?: (sig: Signal) => boolean;
  /** Action kinds allowed (default all). */
  kinds?: readonly ActionKind[];
}

export type ActionKind = 'poke' | 'snapshot' | 'cross' | 'mode';

/** What a run found: the first difference (with the action log), the cycles stepped, the model error that ended it. */
export interface ChaosResult {
  diff?: string;
  ran: number;
  error?: string;
}

export function chaosLockstep(ref: Simulator, fast: Simulator, seed: number, o: ChaosOptions): ChaosResult {
  try {
    return disturbed(ref, fast, seed, o);
  } finally {
    fast.setMode('activity'); // a run may end inside a switched stretch
  }
}

function disturbed(ref: Simulator, fast: Simulator, seed: number, o: ChaosOptions): ChaosResult {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const ok = o.pokeable ?? (() => true);
  const cands = ref.net.signals.filter((s) => (s.kind === 'reg' || ref.net.slotDriver[s.i] === 'comb') && ok(s)).map((s) => s.path);
  const kinds = o.kinds ?? (['poke', 'poke', 'poke', 'snapshot', 'cross', 'mode'] as const);
  const log: string[] = [];
  let saved: { at: number; p: ReturnType<Simulator['save']>; a: ReturnType<Simulator['save']> } | null = null;
  let back = -1; // cycle at which the fast copy returns to the activity mode
  const mems = (sim: Simulator): Memory[] => sim.net.memories;
  for (let c = 0; c < o.cycles; c++) {
    if (back === c) {
      fast.setMode('activity');
      log.push(`${ref.cycle}: fast back to activity`);
      back = -1;
    }
    if (r() < o.rate) {
      const k = pick(kinds);
      if (k === 'poke' && cands.length) {
        const path = pick(cands);
        const sig = ref.signal(path);
        const cur = ref.peek(sig);
        const v = Math.min(sig.mask, Math.max(0, pick([0, 1, sig.mask, Math.floor(r() * (sig.mask + 1)), cur + 1, cur - 1])));
        ref.poke(sig, v);
        fast.poke(fast.signal(path), v);
        log.push(`${ref.cycle}: poke ${path} ${cur} -> ${v}`);
      } else if (k === 'snapshot') {
        if (saved && r() < 0.6) {
          ref.restore(saved.p);
          fast.restore(saved.a);
          log.push(`${ref.cycle}: restore both (saved at ${saved.at})`);
        } else {
          saved = { at: ref.cycle, p: ref.save(), a: fast.save() };
          log.push(`${ref.cycle}: save both`);
        }
      } else if (k === 'cross') {
        // Each copy takes up its own snapshot (stimuli and providers belong to
        // their simulator), the fast copy in the other mode than it saved in.
        const sp = ref.save();
        const sa = fast.save();
        if (fast.mode === 'activity') {
          fast.setMode('plain');
          back = c + 1 + Math.floor(r() * 8);
        } else {
          fast.setMode('activity');
          back = -1;
        }
        ref.restore(sp);
        fast.restore(sa);
        log.push(`${ref.cycle}: snapshot restored in the fast copy in ${fast.mode} (saved in the other mode)${back >= 0 ? ` until ${back}` : ''}`);
      } else if (k === 'mode' && back < 0 && fast.mode === 'activity') {
        fast.setMode('plain');
        back = c + 1 + Math.floor(r() * 8);
        log.push(`${ref.cycle}: fast to plain until ${back}`);
      }
    }
    let eP: unknown = null;
    let eA: unknown = null;
    try {
      ref.step();
    } catch (e) {
      eP = e;
    }
    try {
      fast.step();
    } catch (e) {
      eA = e;
    }
    if (eP || eA) {
      if (String(eP) !== String(eA)) return { ran: c, diff: `errors differ at ${ref.cycle}: reference ${String(eP)} fast ${String(eA)}\n${log.join('\n')}` };
      if (eP instanceof SimError) return { ran: c, error: String(eP) };
      throw eP;
    }
    const d = firstSlotDiff(ref, fast);
    if (d) return { ran: c, diff: `cycle ${ref.cycle}: ${d.path} reference ${d.a} fast ${d.b}\n${log.slice(-12).join('\n')}` };
    const mp = mems(ref);
    const ma = mems(fast);
    for (let j = 0; j < mp.length; j++) {
      const x = mp[j]!.data;
      const y = ma[j]!.data;
      for (let w = 0; w < x.length; w++) if (x[w] !== y[w]) return { ran: c, diff: `cycle ${ref.cycle}: ${mp[j]!.path}[${w}] reference ${x[w]} fast ${y[w]}\n${log.slice(-12).join('\n')}` };
    }
  }
  return { ran: o.cycles };
}

/**
 * A reference and a fast copy built once and stepped `cycles` (a warm-up
 * such as link start-up), snapshots kept: each call hands them back
 * restored to that point, so every seed starts from the same state.
 */
export function warmCopies(build: (mode: 'plain' | 'activity') => Simulator, cycles: number): () => { ref: Simulator; fast: Simulator } {
  let w: { ref: Simulator; fast: Simulator; p: ReturnType<Simulator['save']>; a: ReturnType<Simulator['save']> } | null = null;
  return () => {
    if (!w) {
      const ref = build('plain');
      const fast = build('activity');
      ref.step(cycles);
      fast.step(cycles);
      w = { ref, fast, p: ref.save(), a: fast.save() };
    }
    w.ref.restore(w.p);
    w.fast.restore(w.a);
    return w;
  };
}
