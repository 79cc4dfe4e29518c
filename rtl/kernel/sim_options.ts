/**
 * The simulator's options resolved once, at construction: each one is the
 * SimOptions field if given, else its environment variable, else its default
 * (sim_types.ts documents each; docs/kernel.md "Debug mode", "Stop 23:
 * 4-byte slots", "Stop 24: kernel"). A bad value is one SimError naming
 * both the option and the variable.
 */
import { SimError } from './errors.ts';
import type { SimMode, SimOptions } from './sim_types.ts';

export type MemoryWake = NonNullable<SimOptions['memoryWake']>;

export interface ResolvedOptions {
  mode: SimMode;
  fastForward: boolean;
  checks: boolean;
  slotBytes: 4 | 8;
  memoryWake: MemoryWake;
}

/** An environment variable, or undefined (also where there is no `process`, e.g. in a browser). */
function env(name: string): string | undefined {
  return typeof process !== 'undefined' ? process.env?.[name] || undefined : undefined;
}

/** One option: the field, else the variable read by `parse`, else `dflt`; checked against `ok`. */
function pick<T>(field: string, variable: string, given: T | undefined, parse: (s: string) => unknown, dflt: T, ok: readonly T[]): T {
  const raw = env(variable);
  const v = given ?? (raw !== undefined ? parse(raw) : dflt);
  if (!ok.includes(v as T)) {
    throw new SimError('bad-argument', `${field} (or ${variable}) must be ${ok.map((x) => (typeof x === 'string' ? `'${x}'` : String(x))).join(' or ')}, not ${String(given ?? raw)}`);
  }
  return v as T;
}

export function resolveSimOptions(opts: SimOptions): ResolvedOptions {
  const mode = opts.mode ?? 'activity';
  const checks = opts.checks ?? env('ICEMU_DEBUG') === '1';
  return {
    mode,
    fastForward: opts.fastForward ?? true,
    checks,
    slotBytes: pick<4 | 8>('slotBytes', 'ICEMU_SLOT_BYTES', opts.slotBytes, (s) => +s, checks ? 8 : 4, [4, 8]),
    memoryWake: pick<MemoryWake>('memoryWake', 'ICEMU_MEM_WAKE', opts.memoryWake, (s) => s, 'address', ['address', 'whole']),
  };
}
