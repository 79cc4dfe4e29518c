/**
 * The link end's glue declares exact reads (docs/dslink.md#units): a core
 * whose txValid depends combinationally on rxValid and txReady (here an echo
 * core: it offers back what it has received, in the same cycle) elaborates
 * and runs. Negative control: the same core on an end whose glue is one
 * process reading txValid and writing txReady (the layout before the split)
 * is rejected as a combinational loop, so this test sees a regression.
 */
import { describe, expect, it } from 'vitest';
import { ElaborationError, Module, Simulator, type Signal } from '../../rtl/kernel/index.ts';
import { CHAR_BITS, CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { DsLinkEnd } from '../../rtl/dslink/end.ts';
import type { DsLinkConfig } from '../../rtl/dslink/config.ts';
import { attachCore, joinLinks } from '../../rtl/dslink/ports.ts';

/** Offers back each received character in the cycle it is seen. */
class EchoCore extends Module {
  readonly rxValid = this.input('rxValid');
  readonly rxChar = this.input('rxChar', CHAR_BITS);
  readonly rxPop = this.output('rxPop');
  readonly txValid = this.output('txValid');
  readonly txChar = this.output('txChar', CHAR_BITS);
  readonly txReady = this.input('txReady');
  constructor(p: Module, n: string) {
    super(p, n);
    this.comb(
      () => {
        const s = this.s;
        s[this.txValid.i] = s[this.rxValid.i]!;
        s[this.txChar.i] = s[this.rxChar.i]!;
        s[this.rxPop.i] = s[this.rxValid.i] === 1 && s[this.txReady.i] === 1 ? 1 : 0;
      },
      { writes: [this.txValid, this.txChar, this.rxPop], reads: [this.rxValid, this.rxChar, this.txReady] },
    );
  }
}

/** Registers the test pokes to drive end a's core-side inputs. */
class Host extends Module {
  readonly txValid = this.reg('txValid');
  readonly txChar = this.reg('txChar', CHAR_BITS);
  readonly rxPop = this.reg('rxPop');
}

/**
 * The glue as one process (before the split): for the negative control only.
 * Since stop 21 the push/pop/valid glue is folded into the FIFOs
 * (rtl/lib/fifo.ts), so the merged process is txReady's reading txValid too.
 */
class MergedGlueEnd extends DsLinkEnd {
  constructor(parent: Module, name: string, config: Partial<DsLinkConfig> = {}) {
    super(parent, name, config);
    const glue = new Set(['txReady']);
    const sig = (n: string): Signal => this.signals.find((q) => q.name === n)!;
    const [txFull, txBlock] = ['txFull', 'txBlock'].map(sig) as Signal[];
    const { txReady, txValid } = this;
    const before = this.processes.length;
    this.processes.splice(0, this.processes.length, ...this.processes.filter((p) => !glue.has(p.name ?? '')));
    expect(this.processes.length).toBe(before - glue.size);
    this.comb(
      () => {
        const s = this.s;
        // It reads txValid, as the merged process did for txPush: that read closes the loop.
        s[txReady.i] = s[txFull!.i] === 0 && s[txBlock!.i] === 0 && s[txValid.i] !== 2 ? 1 : 0;
      },
      { writes: [txReady], reads: [txFull!, txBlock!, txValid], name: 'glue' },
    );
  }
}

function build(End: typeof DsLinkEnd): { top: Module; a: DsLinkEnd; b: DsLinkEnd; host: Host } {
  const top = new Module(null, 'top');
  const a = new DsLinkEnd(top, 'a');
  const host = new Host(top, 'host');
  top.connect(host.txValid, a.txValid);
  top.connect(host.txChar, a.txChar);
  top.connect(host.rxPop, a.rxPop);
  const b = new End(top, 'b');
  joinLinks(top, a, b);
  const echo = new EchoCore(top, 'echo');
  attachCore(top, echo, b);
  return { top, a, b, host };
}

describe('DsLinkEnd glue: exact reads', () => {
  it('an echo core (txValid from rxValid) elaborates and echoes every character', () => {
    const { top, a, host } = build(DsLinkEnd);
    const sim = new Simulator(top);
    const sent = [0x41, 0x00, 0xff, CHAR_EOP, 0x7e];
    const got: number[] = [];
    let next = 0;
    for (let c = 0; c < 20000 && got.length < sent.length; c++) {
      sim.poke(host.txValid, next < sent.length ? 1 : 0);
      sim.poke(host.txChar, sent[next] ?? 0);
      sim.poke(host.rxPop, sim.peek(a.rxValid));
      if (sim.peek(a.rxValid) === 1) got.push(sim.peek(a.rxChar));
      if (next < sent.length && sim.peek(a.txReady) === 1) next++;
      sim.step();
    }
    expect(got).toEqual(sent);
  });

  it('negative control: the merged glue process makes the same system a combinational loop', () => {
    let err: unknown;
    try {
      new Simulator(build(MergedGlueEnd).top);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ElaborationError);
    expect((err as ElaborationError).kind).toBe('comb-loop');
  });
});
