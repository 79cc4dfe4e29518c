/**
 * `send` in REPL sessions on T9000 endpoints (dslink-pair, C104 presets):
 * `send <endpoint> <vl> <bytes>` schedules a message on the endpoint's
 * virtual link now (harness/rtl/t9000_driver.ts) and posts the matching
 * receive on the far end of the channel, so it is delivered. Like the
 * Buzzard stimulus it is applied all or nothing and logged for back,
 * restore and checkpoint files.
 *
 * The process driver keeps JS bookkeeping (messages, send-area heap, posted
 * counts) that the model's snapshots must carry for time travel: its state
 * provider (T9000Driver.stateProvider) is registered by driverState.
 */
import type { Simulator } from '../../rtl/kernel/index.ts';
import type { T9000Driver } from '../rtl/t9000_driver.ts';
import { messagePattern } from '../rtl/run_workload.ts';
import { nearestNames } from '../../rtl/kernel/names.ts';
import { ReplError, type CommandDef } from './common.ts';
import type { ReplEngine } from './engine.ts';
import { stimulus } from './stimulus.ts';

/** Register the driver's bookkeeping with the simulator's snapshots (before the first snapshot). */
export function driverState(sim: Simulator, driver: T9000Driver): void {
  sim.addStateProvider(driver.stateProvider());
}

export function t9000SendCommand(e: ReplEngine, driver: T9000Driver, names: readonly string[]): CommandDef {
  return {
    name: 'send',
    aliases: [],
    usage: 'send <endpoint> <vl> <bytes>',
    summary: 'send a message on a virtual link of a T9000 endpoint now; the far end posts the receive',
    help: [`Endpoints: ${names.map((n, k) => `${n} (${k})`).join(', ')}. The data are a pattern of the message id.`],
    maxArgs: 3,
    arg: 'none',
    words: [...names],
    run: (a) => {
      if (a.length !== 3) throw new ReplError('usage: send <endpoint> <vl> <bytes>');
      const k = /^\d+$/.test(a[0]!) ? Number(a[0]) : names.indexOf(a[0]!);
      if (k < 0 || k >= names.length) {
        const near = nearestNames(a[0]!, [...names]);
        throw new ReplError(`send: no endpoint '${a[0]}'${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; endpoints: ${names.join(', ')} or 0..${names.length - 1}`);
      }
      const ep = driver.nodes[k]!;
      const vl = e.intArg(a[1], 'virtual link', 0, ep.cfg.virtualLinks.length - 1);
      const bytes = e.intArg(a[2], 'bytes', 0, Math.min(65535, ep.cfg.sendAreaBytes));
      let peer;
      try {
        peer = driver.peerOf({ node: k, vl });
      } catch {
        throw new ReplError(`send: virtual link ${vl} of ${names[k]} is not one end of a channel`);
      }
      const id = driver.messages.length;
      const at = e.sim.cycle;
      stimulus(e, `send ${k} ${vl} ${bytes}`, () => {
        driver.send(k, vl, messagePattern(id, bytes), at);
        driver.receive(peer.node, peer.vl, at);
      });
      e.emit(`message ${id}: ${names[k]} vl ${vl} -> ${names[peer.node]} vl ${peer.vl}, ${bytes} bytes, issued at cycle ${at} (receive posted)`);
    },
  };
}
