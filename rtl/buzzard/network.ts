/**
 * The Buzzard n-cube: 2^n nodes, link j of node x joined to link j of node
 * x XOR 2^(j-1) (seed 002 §5.4.3: "output port O_i connects to input port
 * I_i of the neighbour that differs in the i-th bit"; spec §6.1). Each
 * direction has its own data wire and block wire (DESIGN.md).
 */
import { Module } from '../kernel/index.ts';
import { checkConfig, type BuzzardConfig } from './config.ts';
import { BuzzardNode, type BuzzardNodeOptions } from './node.ts';
import { neighbour } from './routing.ts';

export class BuzzardCube extends Module {
  readonly cfg: BuzzardConfig;
  readonly nodes: BuzzardNode[];
  constructor(config: Partial<BuzzardConfig> = {}, name = 'cube', options: BuzzardNodeOptions = {}) {
    super(null, name);
    const cfg = (this.cfg = checkConfig(config));
    const N = 1 << cfg.n;
    this.nodes = Array.from({ length: N }, (_, x) => new BuzzardNode(this, `node${x}`, cfg, x, options));
    for (let x = 0; x < N; x++) {
      for (let j = 1; j <= cfg.n; j++) {
        const y = neighbour(x, j);
        const a = this.nodes[x]!;
        const b = this.nodes[y]!;
        // x's outgoing link j is y's incoming link j
        this.connect(a.txBit[j - 1]!, b.rxBit[j - 1]!);
        this.connect(b.rxBlock[j - 1]!, a.txBlock[j - 1]!);
      }
    }
  }
}
