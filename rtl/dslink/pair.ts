/**
 * Two DS-link ends joined by one link: `a.dOut → b.dIn`, `a.sOut → b.sIn` and
 * the reverse, with no wire delay (seed 004 §3.5.4: propagation ignored).
 * With `faults: true` each direction passes through a DsWireFault
 * (`ab` carries a → b, `ba` carries b → a) so tests can flip single bits.
 * The core-side ports of both ends are left to the parent to drive.
 */
import { Module } from '../kernel/module.ts';
import type { DsLinkConfig } from './config.ts';
import { DsLinkEnd } from './end.ts';
import { joinLinks } from './ports.ts';
import { DsWireFault } from './wire_fault.ts';

export interface DsLinkPairOptions {
  a?: Partial<DsLinkConfig>;
  b?: Partial<DsLinkConfig>;
  faults?: boolean;
}

export class DsLinkPair extends Module {
  readonly a: DsLinkEnd;
  readonly b: DsLinkEnd;
  readonly ab: DsWireFault | null;
  readonly ba: DsWireFault | null;

  constructor(parent: Module | null, name: string, opts: DsLinkPairOptions = {}) {
    super(parent, name);
    const a = (this.a = new DsLinkEnd(this, 'a', opts.a ?? {}));
    const b = (this.b = new DsLinkEnd(this, 'b', opts.b ?? {}));
    if (opts.faults) {
      const ab = (this.ab = new DsWireFault(this, 'ab'));
      const ba = (this.ba = new DsWireFault(this, 'ba'));
      this.connect(a.dOut, ab.dIn);
      this.connect(a.sOut, ab.sIn);
      this.connect(ab.dOut, b.dIn);
      this.connect(ab.sOut, b.sIn);
      this.connect(b.dOut, ba.dIn);
      this.connect(b.sOut, ba.sIn);
      this.connect(ba.dOut, a.dIn);
      this.connect(ba.sOut, a.sIn);
    } else {
      this.ab = null;
      this.ba = null;
      joinLinks(this, a, b);
    }
  }
}
