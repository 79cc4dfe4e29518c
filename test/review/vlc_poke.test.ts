/**
 * Review of stop 22 (docs/kernel.md "Stop 22: review"): a control-block word
 * poked from outside (the REPL's `poke vlc.sHold[v] 3`, Simulator.pokeMem)
 * without the driver's `touch(v)`. The virtual link control's work list
 * (rtl/t9000/vlc.ts, 'resting' and 'idle') must see it as the reference
 * ('all': every block every cycle) does: the block's handshake hold counts
 * down. Before the fix (rtl/kernel Memory.onPoke, used by vlc.ts) the
 * 'resting' case failed: the poked block stayed off the list until a link
 * event named it (cycle 2605: sHold[0] reference 2, fast 3). The 'idle'
 * case is kept as a check of the rule before stop 22.
 */
import { describe, expect, it } from 'vitest';
import type { VirtualLinkControl } from '../../rtl/t9000/vlc.ts';
import { firstStepDiff } from '../c104/system_check.ts';
import { review2x2 } from './systems.ts';

function pair(rule: VirtualLinkControl['workList']): ReturnType<typeof review2x2>[] {
  return ['all' as const, rule].map((r) => {
    const sys = review2x2('activity');
    for (const ep of sys.endpoints) ep.vlc.workList = r;
    return sys;
  });
}

describe('VLC work list: a poke into a control block from outside', () => {
  for (const rule of ['resting', 'idle'] as const) {
    for (const [field, value] of [['sHold', 3]] as const) {
      it(`${rule}: poke ${field}[v] ${value} of a block off the list = reference`, { timeout: 60_000 }, () => {
        const [ref, fast] = pair(rule);
        for (const sys of [ref!, fast!]) sys.sim.step(2600);
        // A cycle where the control ran at the edge before (so its work list is pruned, not rebuilt) and some block is off it.
        const vlc = fast!.endpoints[0]!.vlc;
        let v = -1;
        for (let k = 0; k < 3000 && v < 0; k++) {
          expect(firstStepDiff(ref!, fast!, 1)).toBeUndefined();
          const on = new Set(vlc.visited());
          if (on.size > 0) v = fast!.endpoints[0]!.cfg.virtualLinks.findIndex((_: unknown, j: number) => !on.has(j));
        }
        expect(v).toBeGreaterThanOrEqual(0);
        for (const sys of [ref!, fast!]) sys.sim.pokeMem(sys.endpoints[0]!.vlc.path + '.' + field, v, value);
        expect(firstStepDiff(ref!, fast!, 400)).toBeUndefined();
      });
    }
  }
});
