/**
 * The reader index's records (rtl/kernel/reader_index.ts, docs/kernel.md
 * "Stop 24: kernel"): records for current-value slots only, a slot's lone
 * plain reader kept in its record, readers and guard entries in one list.
 * Marking any slot wakes exactly what the netlist's CSR tables say: its plain
 * readers, and its guarded readers whose guard holds in the present state
 * (late ones queued), checked slot by slot on a C104 mesh with T9000
 * endpoints in mid-traffic; and a run is equal to the reference mode at every
 * cycle. Negative control: with a slot's lone reader dropped
 * (readerIndexFault, test-only) both checks fail.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readerIndexFault, recordOf, LONE } from '../../rtl/kernel/reader_index.ts';
import { meshNetwork } from '../../rtl/c104/labelling.ts';
import { makeC104System, type C104System } from '../../harness/rtl/c104_system.ts';
import { firstStepDiff, pairChannels, pairMessages, postPairMessages } from '../c104/system_check.ts';

afterEach(() => {
  readerIndexFault.dropLone = false;
});

function build(mode: 'activity' | 'plain' = 'activity'): C104System {
  const drawn = [
    { src: 0, dst: 3, len: 60, at: 0 },
    { src: 3, dst: 0, len: 20, at: 5 },
    { src: 1, dst: 2, len: 33, at: 40 },
    { src: 2, dst: 1, len: 7, at: 90 },
    { src: 0, dst: 3, len: 12, at: 400 },
  ];
  const { msgs, pairs, labels } = pairMessages(drawn, 4);
  const spec = meshNetwork({ w: 2, h: 2, routing: 'x-first', labelsPerNode: labels });
  const channels = pairChannels(spec, pairs, 4, false);
  const sys = makeC104System(spec, channels, { mode, t9000: {} });
  sys.driver.holdWhenFull = true;
  postPairMessages(sys, channels, msgs);
  return sys;
}

/** The first slot whose marking wakes other processes than the netlist's tables say, or undefined. */
function firstMarkDiff(sys: C104System): string | undefined {
  const S = sys.sim as any;
  const net = S.net;
  const s: Float64Array = S.s;
  const wake = S.wake;
  const comb = S.combDirty;
  const seq = S.seqDirty;
  const late = wake.late;
  const woken = (): string => {
    const out: string[] = [];
    for (const [set, tag] of [[comb, 'c'], [seq, 's']] as const) {
      const words: Uint32Array = set.words;
      for (let w = 0; w < words.length; w++) if (words[w] !== 0) for (let b = 0; b < 32; b++) if ((words[w]! >>> b) & 1) out.push(`${tag}${32 * w + b}`);
    }
    for (let k = 0; k < late.n; k++) out.push(`l${late.list[k]}`);
    return out.sort().join(' ');
  };
  const expected = (x: number): string => {
    const out = new Set<string>();
    for (let k = net.combReaderStart[x]; k < net.combReaderStart[x + 1]; k++) out.add(`c${net.combReaders[k]}`);
    for (let k = net.seqReaderStart[x]; k < net.seqReaderStart[x + 1]; k++) out.add(`s${net.seqReaders[k]}`);
    const holds = (slot: number, mask: number, bits: number): boolean => ((bits === 1 ? s[slot]! : 1 << s[slot]!) & mask) !== 0;
    for (let k = net.combGuardStart[x]; k < net.combGuardStart[x + 1]; k++) if (holds(net.combGuardSlot[k], net.combGuardMask[k], net.combGuardBits[k])) out.add(`c${net.combGuardProc[k]}`);
    for (let k = net.seqGuardStart[x]; k < net.seqGuardStart[x + 1]; k++) {
      const b = net.seqGuardBits[k];
      if (b === 2) out.add(`l${net.seqGuardProc[k]}`);
      else if (holds(net.seqGuardSlot[k], net.seqGuardMask[k], b)) out.add(`s${net.seqGuardProc[k]}`);
    }
    return [...out].sort().join(' ');
  };
  // Start from empty sets (this simulator is not stepped again).
  comb.clear();
  seq.clear();
  late.clear();
  for (let x = 0; x < net.size; x++) {
    if (x >= net.regBase && (x - net.regBase) % 2 === 1) continue; // next-value slots: no record
    wake.mark(x);
    const got = woken();
    comb.clear();
    seq.clear();
    late.clear();
    const want = expected(x);
    if (got !== want) return `slot ${x} (record ${recordOf(x, net.regBase)}): woke [${got}], the netlist says [${want}]`;
  }
  return undefined;
}

describe('reader index records', () => {
  it('marking each slot wakes what the netlist says; records for current values only; lone readers in the record', () => {
    const sys = build();
    sys.sim.step(2700); // mid-traffic: guards in varied states
    const S = sys.sim as any;
    const net = S.net;
    expect(S.wake.idx.length).toBe(2 * (net.nWires + net.nRegs));
    let lone = 0;
    for (let d = 0; d < net.nWires + net.nRegs; d++) if (S.wake.idx[2 * d + 1] === LONE) lone++;
    expect(lone).toBeGreaterThan(100);
    expect(firstMarkDiff(sys)).toBeUndefined();
    expect(firstStepDiff(build('plain'), build(), 3200)).toBeUndefined();
  }, 120_000);

  it('negative control: a lone reader dropped is caught by both checks', () => {
    readerIndexFault.dropLone = true;
    const sys = build();
    const fast = build();
    readerIndexFault.dropLone = false;
    sys.sim.step(2700);
    expect(firstMarkDiff(sys)).toMatch(/^slot \d+ .*woke \[\], the netlist says \[[cs]\d+\]$/);
    expect(firstStepDiff(build('plain'), fast, 3200)).toMatch(/^cycle \d+: slot/);
  }, 120_000);
});
