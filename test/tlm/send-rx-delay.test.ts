/**
 * The calibrated TLM's control-unit receive delay (config sendRxDelayTicks;
 * docs/buzzard-ch5.md#rtl-calibrated-tlm): a message generated at a node
 * whose node input port is receiving a packet starts on its slot 3 cycles
 * later than one generated while the port is idle (the RTL: 23 cycles from
 * generation to the first grant idle, 26–27 while receiving). Control: with
 * sendRxDelayTicks 0 both start 23 cycles after generation.
 */
import { describe, expect, it } from 'vitest';
import { runTlmCalibrated } from '../../harness/tlm/index.ts';
import { finalizeMessages } from '../../harness/workloads/index.ts';
import type { Workload } from '../../harness/workloads/types.ts';
import type { TraceEvent } from '../../traces/events/vocabulary.ts';

// 2-cube: node 1 sends 600 B to node 0 at t = 0 (cycles); node 0 sends at 200 (port busy) and at 20 000 (idle).
const w: Workload = {
  name: 'rx-delay',
  seed: null,
  params: {},
  unit: 'cycles',
  cubeDegree: 2,
  messages: finalizeMessages([
    { t: 0, src: 1, dst: 0, bytes: 600, kind: 'unicast' },
    { t: 400, src: 0, dst: 2, bytes: 40, kind: 'unicast' },
    { t: 20_000, src: 0, dst: 2, bytes: 40, kind: 'unicast' },
  ]),
};
const startOf = (evs: readonly TraceEvent[], m: number) => evs.find((e) => e.kind === 'packet-injected' && e.msg === m && e.packet === 0)!.t - w.messages[m]!.t;

describe('calibrated TLM: a send while the node input port receives', () => {
  it('starts 3 cycles later (26) than a send at an idle port (23)', () => {
    const r = runTlmCalibrated(w, 'quasi-adaptive', { recordEvents: true });
    const nip = r.events!.filter((e) => e.kind === 'grant' && e.node === 0 && e.port === 0).map((e) => e.t);
    expect(nip.some((t) => t <= 400 + 21 && t + 299 > 400 + 21)).toBe(true); // a packet is entering node 0 then
    expect(startOf(r.events!, 1)).toBe(26);
    expect(startOf(r.events!, 2)).toBe(23);
  });
  it('control: with sendRxDelayTicks 0 both start after 23 cycles', () => {
    const r = runTlmCalibrated(w, 'quasi-adaptive', { recordEvents: true, sendRxDelayTicks: 0 });
    expect(startOf(r.events!, 1)).toBe(23);
    expect(startOf(r.events!, 2)).toBe(23);
  });
});
