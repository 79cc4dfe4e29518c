/**
 * Event recorder for DS-link ends (rtl/dslink/end.ts): an observer that turns
 * link state changes into the shared event vocabulary
 * (traces/events/vocabulary.ts) with cycle stamps. It reads the state vector
 * and never writes it.
 *
 *   const rec = attachLinkEvents(sim, [{ end: pair.a, node: 0 }, { end: pair.b, node: 1 }]);
 *   sim.step(10_000);
 *   rec.events    // link-up / link-error events in time order
 *
 * link-error  t = the cycle the end is in its named error state
 *             (ErrDisconnect, ErrParity, ErrEscape, ErrCredit); error = the
 *             kind; lost = the end's own count of lost characters (fsm
 *             lastLostTx + lastLostRx, registered in that cycle and read in
 *             the next); suspect = characters the end handed on before
 *             their parity check failed (rxHandover 'on-arrival', the
 *             decoder's suspectTotal since the previous error; omitted
 *             when 0). unit = the end's path, msg = 0.
 * link-up     t = the first cycle the end is in Run.
 * Docs: docs/dslink.md#events.
 */
import type { DsLinkEnd } from '../../rtl/dslink/end.ts';
import { LINK_ERRORS, S_ERR_BASE, S_RUN } from '../../rtl/dslink/link_fsm.ts';
import type { Simulator } from '../../rtl/kernel/simulator.ts';
import type { TraceEvent } from '../../traces/events/vocabulary.ts';

export interface LinkEndRef {
  end: DsLinkEnd;
  /** Node the end belongs to (default 0). */
  node?: number;
  /** Port (link number) on that node. */
  port?: number;
}

export interface LinkEventRecorder {
  readonly events: TraceEvent[];
  detach(): void;
}

export function attachLinkEvents(sim: Simulator, ends: readonly LinkEndRef[]): LinkEventRecorder {
  const events: TraceEvent[] = [];
  const last = ends.map((r) => sim.peek(r.end.linkState));
  const errAt = ends.map(() => -1);
  const suspectSeen = ends.map((r) => sim.peek(r.end.dec.suspectTotal));
  const base = (r: LinkEndRef, t: number, kind: TraceEvent['kind']): TraceEvent => {
    const e: TraceEvent = { t, kind, msg: 0, node: r.node ?? 0, unit: r.end.path };
    if (r.port !== undefined) e.port = r.port;
    return e;
  };
  const detach = sim.observe({
    onCycle: (x) => {
      for (let k = 0; k < ends.length; k++) {
        const r = ends[k]!;
        const fsm = r.end.fsm;
        if (errAt[k]! >= 0) {
          const e = base(r, errAt[k]!, 'link-error');
          e.error = LINK_ERRORS[x.peek(fsm.lastError)];
          e.lost = x.peek(fsm.lastLostTx) + x.peek(fsm.lastLostRx);
          const sus = x.peek(r.end.dec.suspectTotal);
          if (sus !== suspectSeen[k]) e.suspect = sus - suspectSeen[k]!;
          suspectSeen[k] = sus;
          events.push(e);
          errAt[k] = -1;
        }
        const st = x.peek(fsm.state);
        if (st !== last[k]) {
          if (st >= S_ERR_BASE) errAt[k] = x.cycle;
          else if (st === S_RUN) events.push(base(r, x.cycle, 'link-up'));
          last[k] = st;
        }
      }
    },
  });
  return { events, detach };
}
