/**
 * The Buzzard n-cube: 2^n nodes, link j of node x joined to link j of node
 * x XOR 2^(j-1) (seed 002 §5.4.3: "output port O_i connects to input port
 * I_i of the neighbour that differs in the i-th bit"; spec §6.1). Each
 * direction has its own data wire and block wire (DESIGN.md).
 */
import { Module, type Simulator } from '../kernel/index.ts';
import { LinkSet } from './link_lines.ts';
import { checkConfig, type BuzzardConfig } from './config.ts';
import { BuzzardNode, type BuzzardNodeOptions } from './node.ts';
import { neighbour } from './routing.ts';

export class BuzzardCube extends Module {
  readonly cfg: BuzzardConfig;
  readonly nodes: BuzzardNode[];
  /**
   * The links on serial lines (docs/kernel.md "Buzzard links on serial
   * lines"): in the fast mode a link bit is computed on demand and the units
   * at its ends run only where their step lists act. `serialLinks: false`
   * keeps every bit a process run (as before; for side-by-side measurements).
   */
  readonly links: LinkSet | null;
  constructor(config: Partial<BuzzardConfig> = {}, name = 'cube', options: BuzzardNodeOptions & { serialLinks?: boolean } = {}) {
    super(null, name);
    const cfg = (this.cfg = checkConfig(config));
    const N = 1 << cfg.n;
    const links = (this.links = options.serialLinks === false ? null : new LinkSet());
    const nodeOptions: BuzzardNodeOptions = { ...options, ...(links ? { links } : {}) };
    this.nodes = Array.from({ length: N }, (_, x) => new BuzzardNode(this, `node${x}`, cfg, x, nodeOptions));
    for (let x = 0; x < N; x++) {
      for (let j = 1; j <= cfg.n; j++) {
        const y = neighbour(x, j);
        const a = this.nodes[x]!;
        const b = this.nodes[y]!;
        // x's outgoing link j is y's incoming link j
        this.connect(a.txBit[j - 1]!, b.rxBit[j - 1]!);
        this.connect(b.rxBlock[j - 1]!, a.txBlock[j - 1]!);
        const pl = b.pbus[j - 1]!.inLine;
        if (pl) {
          pl.src = a.taps[j]!;
          a.taps[j]!.receiver = pl;
        }
      }
    }
  }

  override onElaborated(): void {
    // The simulator that elaborated the cube (its wake-up sink) keeps the lines' on-demand values.
    this.links?.attach(this.wakeSink as unknown as Simulator);
  }
}
