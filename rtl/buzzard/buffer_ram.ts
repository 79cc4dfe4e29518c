/**
 * Buzzard buffer RAM (seed 002 §5.4.1, L1706–L1717; spec §8.1; DESIGN.md
 * "Units and their ports"): the lib DualPortRam with 16-bit words ("the RAM
 * data registers are 16 bits"), a write-only input port shared by the n PBU
 * input controllers ("arbitrate for the buffer RAM input bus", §5.4.2 input
 * step 9) and a read-only output port shared by the n output controllers
 * (output step 4), round-robin, latency 0 (docs/readings.md#ram-port-arbitration: one access
 * per port per RAM cycle; here one per clock cycle). PBU i (1..n) is client
 * i-1 of both ports.
 *
 * Space "evenly divided among the packet buffer units" (§5.4.1): PBU i owns
 * camHeight slots of slotWords words. Address (§5.4.1: "high order bits wired
 * to the buffer RAM offset for each specific packet buffer unit", mid-order
 * bits = the 4-bit slot number latched from the CAM, low-order bits a
 * counter):
 *
 *   address = ((pbu - 1) · H + slot) · slotWords + word
 *
 * (DESIGN.md writes ((pbu·H) + slot) · slotWords + word with a 0-based pbu;
 * this is the same address with the 1-based PBU numbers used everywhere else.)
 * slotWords is the power of two >= maxL (16 for 32-byte packets, 32 for
 * 64-byte), so the depth is n · H · slotWords words: 10 · 13 · 16 = 2080 words
 * for the seed's degree-10 sizing (the seed's 4096 bytes = 2048 words hold
 * the 13 × 15 words actually used per PBU; the 16th word of a slot is the
 * rounding to a power of two, never written).
 */
import { bitsFor } from '../lib/arbiter.ts';
import { DualPortRam } from '../lib/dual_port_ram.ts';
import type { Module } from '../kernel/module.ts';
import { checkConfig, geometry, type BuzzardConfig } from './config.ts';

/** The RAM geometry a PBU needs: slot size and CAM height (slots per PBU). */
export interface RamGeometry {
  readonly n: number;
  readonly camHeight: number;
  readonly slotWords: number;
  /** Words in the RAM: n · camHeight · slotWords. */
  readonly depth: number;
  /** Width of an address port (bits for 0..depth-1, as the lib DualPortRam sizes waddr/raddr). */
  readonly addrBits: number;
  /** Width of rsrc (bits for 0..n-1). */
  readonly srcBits: number;
}

export function ramGeometry(cfg: Partial<BuzzardConfig>): RamGeometry {
  const c = checkConfig(cfg);
  const g = geometry(c);
  const depth = c.n * c.camHeight * g.slotWords;
  return { n: c.n, camHeight: c.camHeight, slotWords: g.slotWords, depth, addrBits: bitsFor(depth), srcBits: bitsFor(c.n) };
}

/** Word `word` of RAM slot `slot` of PBU `pbu` (1..n) — §5.4.1 high/mid/low address bits. */
export function ramAddress(pbu: number, slot: number, word: number, geom: { readonly camHeight: number; readonly slotWords: number }): number {
  return ((pbu - 1) * geom.camHeight + slot) * geom.slotWords + word;
}

export class BufferRam extends DualPortRam {
  readonly geom: RamGeometry;
  /**
   * `wordFolds` (default true): the two ports' round-robin decisions and
   * pointers inside the RAM (DualPortRam inlineRoundRobin; docs/kernel.md
   * "Stop 23: Buzzard per word"); false keeps the arbiter children, the
   * reference structure. `lateReads` (default true): the access process's
   * late reads (DualPortRam lateReads; docs/kernel.md "Stop 25: Buzzard").
   */
  constructor(parent: Module | null, name: string, cfg: Partial<BuzzardConfig>, wordFolds = true, lateReads = true) {
    const geom = ramGeometry(cfg);
    super(parent, name, {
      width: 16, // §5.4.1: 16-bit RAM data registers
      depth: geom.depth, // §5.4.1: evenly divided, camHeight slots per PBU
      readClients: geom.n, // one output controller per PBU
      writeClients: geom.n, // one input controller per PBU
      policy: 'round-robin', // spec §8.1 [interp]
      latency: 0, // DESIGN.md: round-robin, latency 0
      inlineRoundRobin: wordFolds,
      lateReads,
    });
    this.geom = geom;
  }
}
