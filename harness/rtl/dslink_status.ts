/**
 * One DS-link end's status as a person reads it (for a REPL `links` view or
 * a report): link state, credit held and granted, buffer fill, errors.
 * Reads the state vector only. Docs: docs/dslink.md#link-state-machine, #credit.
 */
import type { DsLinkEnd } from '../../rtl/dslink/end.ts';
import { LINK_ERRORS, LINK_STATES } from '../../rtl/dslink/link_fsm.ts';
import type { Simulator } from '../../rtl/kernel/simulator.ts';

export interface LinkEndStatus {
  path: string;
  state: string;
  /** Normal characters this end may still send (credit received). */
  txCredit: number;
  /** Credit this end has granted and not yet seen used. */
  rxGranted: number;
  txFill: number;
  txSize: number;
  rxFill: number;
  rxSize: number;
  errors: number;
  lastError: string;
  lostTotal: number;
}

export function linkStatus(sim: Simulator, end: DsLinkEnd): LinkEndStatus {
  return {
    path: end.path,
    state: LINK_STATES[sim.peek(end.fsm.state)] ?? '?',
    txCredit: sim.peek(end.credit.txCredit),
    rxGranted: sim.peek(end.credit.rxOut),
    txFill: sim.peek(end.txBuf.count),
    txSize: end.cfg.txBufferTokens,
    rxFill: sim.peek(end.rxBuf.count),
    rxSize: end.cfg.rxBufferTokens,
    errors: sim.peek(end.fsm.errCount),
    lastError: LINK_ERRORS[sim.peek(end.fsm.lastError)] ?? '?',
    lostTotal: sim.peek(end.fsm.lostTotal),
  };
}

/** One line: `link.a  Run  credit 51  granted 56  tx 0/56  rx 3/56  errors 0`. */
export function formatLinkStatus(st: LinkEndStatus): string {
  const err = st.errors ? `  errors ${st.errors} (last ${st.lastError}, lost ${st.lostTotal})` : '  errors 0';
  return `${st.path}  ${st.state}  credit ${st.txCredit}  granted ${st.rxGranted}  tx ${st.txFill}/${st.txSize}  rx ${st.rxFill}/${st.rxSize}${err}`;
}
