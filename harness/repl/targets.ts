/**
 * What a REPL session debugs. The default is a Buzzard cube (presets.ts:
 * cube1..cube4, or a JSON BuzzardConfig), with every command. The network
 * presets here open other hardware with the commands that work on any
 * design (step, run, break, watch, display, ls, cd, print, wave, vcd,
 * checkpoints, back, hash) plus their own views; Buzzard-only commands
 * (send, cam, queues, trace, ...) say so in one line.
 *
 *   dslink-pair  two T9000-style endpoints (a, b) joined by one DS-link
 *                (harness/rtl/t9000_pair.ts); `links` shows each
 *                direction's link state, credit and buffer fill
 *                (harness/rtl/dslink_status.ts); `print` and `wave` decode
 *                the token registers (tok: D 0x41, FCT, NULL, EOP, ...);
 *                events: link-up, link-error (harness/rtl/dslink_events.ts);
 *                `send a|b <vl> <bytes>` (t9000_send.ts).
 *   dslink-pair-node  the same with addressing 'node' (docs/t9000.md#addressing):
 *                headers name the far endpoint, the virtual link travels as
 *                a side-band tag (saved in checkpoints).
 *   pair-c104, pair-c104-node, chain, mesh   C104 networks with T9000 endpoints (c104_target.ts).
 */
import { Simulator, type Module } from '../../rtl/kernel/index.ts';
import { T9000Driver } from '../rtl/t9000_driver.ts';
import { driverState, t9000SendCommand } from './t9000_send.ts';
import type { BuzzardCube } from '../../rtl/buzzard/network.ts';
import type { BuzzardConfig } from '../../rtl/buzzard/config.ts';
import type { DsLinkEnd } from '../../rtl/dslink/end.ts';
import { S_RUN } from '../../rtl/dslink/link_fsm.ts';
import { attachSideBand, buildT9000Pair, dsLinks, T9000_LINK_DEFAULTS } from '../rtl/t9000_pair.ts';
import type { T9000Config } from '../../rtl/t9000/config.ts';
import { attachLinkEvents, type LinkEndRef } from '../rtl/dslink_events.ts';
import { linkStatus } from '../rtl/dslink_status.ts';
import type { TraceEvent } from '../../traces/events/vocabulary.ts';
import { ReplError, type CommandDef } from './common.ts';
import type { ReplEngine } from './engine.ts';
import { table } from './format.ts';
import { C104_PRESETS } from './c104_target.ts';
import type { RecordedEvents } from './events_file.ts';

export interface Target {
  /** Preset name. */
  name: string;
  /** One line for the banner and help. */
  title: string;
  /** Shown by `info config`, kept in checkpoint files (a load needs the same). */
  config: unknown;
  top: Module;
  /** The simulator, when the builder made one (else the engine elaborates `top`). */
  sim?: Simulator;
  /** Nodes and ports an event filter may name (node=0..nodes-1, port=0..ports). */
  nodes: number;
  ports: number;
  /** Attach the event recorder of this hardware (events of traces/events/vocabulary.ts). */
  attachEvents(sim: Simulator): { events: TraceEvent[]; detach(): void };
  /** Recorders for `events start` (events_file.ts), when icemu view can draw this hardware. */
  recordEvents?(sim: Simulator): RecordedEvents;
  /** Commands of this hardware; they replace the Buzzard ones of the same name. */
  commands(e: ReplEngine): CommandDef[];
}

/** A Buzzard cube (the engine builds it and its recorder itself: harness/rtl/events.ts). */
export function buzzardTarget(name: string, cfg: BuzzardConfig, cube: BuzzardCube): Target {
  return {
    name,
    title: `Buzzard ${cfg.n}-cube, ${cube.nodes.length} nodes`,
    config: cfg,
    top: cube,
    nodes: cube.nodes.length,
    ports: cfg.n,
    attachEvents: () => {
      throw new Error('the engine attaches the Buzzard recorder itself');
    },
    commands: () => [],
  };
}

export const NETWORK_PRESETS: Record<string, { description: string; open: () => Target }> = {
  'dslink-pair': { description: 'two T9000-style endpoints (a, b) joined by one DS-link', open: () => openDsLinkPair('dslink-pair', {}) },
  'dslink-pair-node': { description: "the same with addressing 'node': headers name the far endpoint, the VL is a side-band tag", open: () => openDsLinkPair('dslink-pair-node', { addressing: 'node' }) },
  ...C104_PRESETS,
};

function openDsLinkPair(name: string, cfg: Partial<T9000Config>): Target {
  const vls = 2;
  const { top, a, b, sideBand } = buildT9000Pair(vls, cfg, dsLinks());
  const sim = new Simulator(top);
  attachSideBand(sim, sideBand);
  const driver = new T9000Driver(sim, [a, b]);
  for (let i = 0; i < vls; i++) driver.channel({ node: 0, vl: i }, { node: 1, vl: i });
  driverState(sim, driver);
  const ends = [a.links[0] as DsLinkEnd, b.links[0] as DsLinkEnd];
  const refs: LinkEndRef[] = ends.map((end, node) => ({ end, node, port: 0 }));
  return {
    name,
    title: `T9000 pair over one DS-link (endpoints a, b; ${vls} virtual links${sideBand ? "; addressing 'node'" : ''})`,
    config: { system: name, virtualLinks: vls, link: T9000_LINK_DEFAULTS, ...cfg },
    top,
    sim,
    nodes: 2,
    ports: 0,
    attachEvents: (sim) => attachLinkEvents(sim, refs),
    commands: (e) => [t9000SendCommand(e, driver, ['a', 'b']), linksCommand(e, [{ from: 'a', to: 'b', tx: ends[0]!, rx: ends[1]! }, { from: 'b', to: 'a', tx: ends[1]!, rx: ends[0]! }])],
  };
}

/** One direction of a DS-link: `tx` sends, `rx` (the far end) receives. */
export interface Direction {
  from: string;
  to: string;
  tx: DsLinkEnd;
  rx: DsLinkEnd;
}

/** `links` on DS-links: per direction, the sender's state and credit, the receiver's grant and buffers, the token on the wire. */
export function linksCommand(e: ReplEngine, dirs: Direction[]): CommandDef {
  return {
    name: 'links',
    aliases: ['l'],
    usage: 'links',
    summary: "each direction of each DS-link: link state, credit, buffer fill, the token being sent, errors",
    help: [
      'state: the sending end\'s link state; credit: normal characters it may still send (FCTs received x 8);',
      'granted: credit the receiving end has granted and not yet seen used; tx/rx: transmit buffer of the',
      'sender and receive buffer of the receiver (fill/size); token: what the sender puts on the wire now.',
    ],
    maxArgs: 0,
    arg: 'none',
    run: () => {
      const sim = e.sim;
      const c = e.c;
      const rows = dirs.map((d) => {
        const t = linkStatus(sim, d.tx);
        const r = linkStatus(sim, d.rx);
        const st = sim.peek(d.tx.fsm.state);
        const state = st === S_RUN ? c.green(t.state) : t.errors ? c.red(t.state) : c.yellow(t.state);
        const tok = d.tx.tokens.tok;
        const err = t.errors ? `${t.errors} (last ${t.lastError}, lost ${t.lostTotal})` : '0';
        return [`${d.from} -> ${d.to}`, state, String(t.txCredit), String(r.rxGranted), `${t.txFill}/${t.txSize}`, `${r.rxFill}/${r.rxSize}`, tok.options.enum?.[sim.peek(tok)] ?? String(sim.peek(tok)), err];
      });
      e.emit(`${dirs.length} link direction(s) at cycle ${sim.cycle}`);
      for (const l of table(['direction', 'state', 'credit', 'granted', 'tx', 'rx', 'token', 'errors'], rows, c)) e.emit(`  ${l}`);
    },
  };
}

/** The error for a Buzzard-only command in a session on other hardware. */
export function notHere(command: string, t: Target): ReplError {
  return new ReplError(`${command}: works on a Buzzard cube; this session is ${t.name} (${t.title})`);
}
