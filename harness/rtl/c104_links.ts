/**
 * Per-link statistics of a C104 system (`icemu c104`, issue 13): for every
 * directed DS-link (endpoint to switch, switch to endpoint, switch to
 * switch), sampled at each committed cycle from its transmitter's token
 * layer (rtl/dslink/tx_tokens.ts), read-only:
 *
 *   busy     the token on the wire is a normal character (data, EOP or EOM):
 *            `normalOnWire`; NULLs and FCTs do not count
 *   blocked  the link is in Run, the transmit buffer holds a character
 *            (`txEmpty` = 0) and there is no credit (`creditOk` = 0): the
 *            transmitter has something to send and waits for an FCT
 *
 * Utilisation and blocked fraction are those counts over the cycles sampled
 * (a window [from, to)). Skipped quiescent stretches count at the state
 * they hold (Observer.onSkip).
 */
import type { Simulator, Signal } from '../../rtl/kernel/index.ts';
import { DsLinkEnd } from '../../rtl/dslink/index.ts';
import type { C104System } from './c104_system.ts';

export interface C104LinkStats {
  /** Transmitting end, e.g. `S0.link3` or `T1.link0` (switch / endpoint names of the spec). */
  readonly from: string;
  readonly to: string;
  readonly kind: 'endpoint-switch' | 'switch-endpoint' | 'switch-switch';
  readonly utilisation: number;
  readonly blocked: number;
  /** Cycles with a normal character on the wire, and blocked cycles, in the window. */
  readonly busyCycles: number;
  readonly blockedCycles: number;
}

interface Probe {
  from: string;
  to: string;
  kind: C104LinkStats['kind'];
  normal: Signal;
  run: Signal;
  txEmpty: Signal;
  creditOk: Signal;
  busy: number;
  blocked: number;
}

export interface C104LinkMeter {
  readonly links: number;
  /** Statistics over the cycles sampled so far. */
  stats(): C104LinkStats[];
  detach(): void;
}

/** Count every directed link's busy and blocked cycles in cycles [from, to). */
export function attachC104LinkMeter(sys: C104System, from = 0, to = Infinity): C104LinkMeter {
  const { sim, net, network, endpoints } = sys;
  const spec = net.spec;
  const probes: Probe[] = [];
  const add = (end: unknown, fromName: string, toName: string, kind: Probe['kind']): void => {
    if (!(end instanceof DsLinkEnd)) return; // a test stand-in has no token layer
    const t = end.tokens;
    probes.push({ from: fromName, to: toName, kind, normal: t.normalOnWire, run: t.run, txEmpty: t.txEmpty, creditOk: t.creditOk, busy: 0, blocked: 0 });
  };
  spec.switches.forEach((sw, s) => {
    for (let k = 0; k < network.ends[s]!.length; k++) {
      const e = network.ends[s]![k];
      const p = net.peer[s]![k];
      if (!e || !p) continue;
      if (p.kind === 'switch') add(e, `${sw.name}.link${k}`, `${spec.switches[p.sw]!.name}.link${p.link}`, 'switch-switch');
      else {
        const t = spec.terminals[p.terminal]!;
        add(e, `${sw.name}.link${k}`, `${t.name}.link${t.links.indexOf(k)}`, 'switch-endpoint');
      }
    }
  });
  spec.terminals.forEach((t, i) => {
    endpoints[i]!.links.forEach((e, j) => add(e, `${t.name}.link${j}`, `${spec.switches[t.sw]!.name}.link${t.links[j]}`, 'endpoint-switch'));
  });
  let sampled = 0;
  const sample = (s: Simulator, cycles: number): void => {
    for (const p of probes) {
      if (s.peek(p.normal) === 1) p.busy += cycles;
      if (s.peek(p.run) === 1 && s.peek(p.txEmpty) === 0 && s.peek(p.creditOk) === 0) p.blocked += cycles;
    }
    sampled += cycles;
  };
  // onCycle sees cycle c (the committed state after edge c); count it when from <= c < to.
  const detach = sim.observe({
    skipsOwnedOnDemand: true, // peeks the token choice's registers, never a NULL train's (rtl/dslink/null_train.ts)
    onCycle: (s) => {
      const c = s.cycle;
      if (c >= from && c < to) sample(s, 1);
    },
    onSkip: (s, a, b) => {
      const lo = Math.max(a + 1, from);
      const hi = Math.min(b, to - 1);
      if (hi >= lo) sample(s, hi - lo + 1);
    },
  });
  return {
    links: probes.length,
    stats: () =>
      probes.map((p) => ({
        from: p.from,
        to: p.to,
        kind: p.kind,
        utilisation: sampled ? p.busy / sampled : 0,
        blocked: sampled ? p.blocked / sampled : 0,
        busyCycles: p.busy,
        blockedCycles: p.blocked,
      })),
    detach,
  };
}

/** The per-link CSV of a C104 run: one row per directed link. */
export function c104LinksCsv(links: readonly C104LinkStats[]): string {
  const rows = ['from,to,kind,utilisation,blocked_fraction,busy_cycles,blocked_cycles'];
  for (const l of links) rows.push(`${l.from},${l.to},${l.kind},${l.utilisation.toFixed(6)},${l.blocked.toFixed(6)},${l.busyCycles},${l.blockedCycles}`);
  return rows.join('\n') + '\n';
}
