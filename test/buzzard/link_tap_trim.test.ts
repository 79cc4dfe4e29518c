/**
 * A link tap's trimming of old connections (rtl/buzzard/link_lines.ts
 * LinkTap.open; docs/kernel.md "Stop 21: Buzzard units"): dropping the
 * prefix of connections that ended before the history window, in place,
 * leaves the same list the filter it replaced made, at every connection of
 * random sequences (gaps and lengths from a cycle to past the window).
 * Negative control: a trim that drops only the first old connection leaves
 * a different list on the same sequences.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinkTap } from '../../rtl/buzzard/link_lines.ts';
import { SerialLine } from '../../rtl/kernel/serial_line.ts';

const HISTORY = 4096;
interface Conn {
  from: number;
  to: number;
}
type Trim = (cs: Conn[], from: number) => Conn[];
/** The filter LinkTap.open used before this change. */
const filtered: Trim = (cs, from) => (cs.length > 64 && cs[0]!.to < from - HISTORY ? cs.filter((k) => k.to >= from - HISTORY) : cs);
/** Wrong on purpose: only the first old connection goes. */
const firstOnly: Trim = (cs, from) => (cs.length > 64 && cs[0]!.to < from - HISTORY ? cs.slice(1) : cs);

/** Connections the tap holds after each open, and the model's, for a sequence of (gap, length) pairs. */
function run(steps: [number, number][], trim: Trim): number {
  const tap = new LinkTap('t');
  const line = new SerialLine('l');
  let model: Conn[] = [];
  let t = 0;
  let diffs = 0;
  for (const [gap, len] of steps) {
    t += gap;
    tap.open(t, line);
    model = trim(model, t);
    model.push({ from: t, to: Infinity });
    t += len;
    tap.close(t);
    model[model.length - 1]!.to = t;
    const got = (tap.save() as Conn[]).map((k) => [k.from, k.to]);
    if (JSON.stringify(got) !== JSON.stringify(model.map((k) => [k.from, k.to]))) diffs++;
  }
  return diffs;
}

const steps = fc.array(fc.tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 300 })), { minLength: 100, maxLength: 400 });

describe('link tap trimming (issue 8)', () => {
  it('the in-place trim leaves the list the filter made; dropping only the first old connection does not', () => {
    fc.assert(fc.property(steps, (s) => run(s, filtered) === 0), { numRuns: 60 });
    let caught = 0;
    fc.assert(
      fc.property(steps, (s) => {
        if (run(s, firstOnly) > 0) caught++;
        return true;
      }),
      { numRuns: 60, seed: 7 },
    );
    expect(caught).toBeGreaterThan(0);
  });
});
