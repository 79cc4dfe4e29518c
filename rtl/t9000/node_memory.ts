/**
 * The endpoint's byte memory (docs/t9000.md#memory): the send area where a
 * process's outgoing messages lie and each virtual link's receive area.
 * One read port per transmit port (asynchronous read) and one write port per
 * receive port (the write lands at the clock edge). The harness writes
 * message bytes with `sim.pokeMem` and reads delivered bytes with `peekMem`.
 *
 * Ports (P = ports, A = MEM_ADDR_BITS = 20, config.ts):
 *   rdAddr{k}[A] in, rdData{k}[8] out (combinational)
 *   wrEn{k} in, wrAddr{k}[A] in, wrData{k}[8] in
 */
import { Module, type Memory, type Signal } from '../kernel/module.ts';
import { MEM_ADDR_BITS } from './config.ts';

export const ADDR_BITS = MEM_ADDR_BITS;

export class NodeMemory extends Module {
  readonly mem: Memory;
  readonly rdAddr: Signal[];
  readonly rdData: Signal[];
  readonly wrEn: Signal[];
  readonly wrAddr: Signal[];
  readonly wrData: Signal[];

  constructor(parent: Module | null, name: string, bytes: number, ports: number) {
    super(parent, name);
    if (!(Number.isInteger(bytes) && bytes >= 1 && bytes <= 2 ** ADDR_BITS)) throw new RangeError(`t9000.memory: ${bytes} bytes is outside 1..${2 ** ADDR_BITS}`);
    const mem = (this.mem = this.memory('mem', 8, bytes, { writePorts: ports }));
    const rdAddr = (this.rdAddr = this.inputs('rdAddr', ports, ADDR_BITS));
    const rdData = (this.rdData = this.outputs('rdData', ports, 8));
    const wrEn = (this.wrEn = this.inputs('wrEn', ports, 1));
    const wrAddr = (this.wrAddr = this.inputs('wrAddr', ports, ADDR_BITS));
    const wrData = (this.wrData = this.inputs('wrData', ports, 8));
    for (let k = 0; k < ports; k++) {
      const a = rdAddr[k]!;
      const d = rdData[k]!;
      this.comb(
        () => {
          const x = this.s[a.i]!;
          this.s[d.i] = x < bytes ? mem.data[x]! : 0;
        },
        // The port reads one byte: a write elsewhere in the memory does not wake it (docs/kernel.md "Stop 24: kernel").
        { writes: [d], reads: [a], readsAt: [{ mem, addr: a }], name: `read${k}` },
      );
    }
    this.seq(
      () => {
        const s = this.s;
        for (let k = 0; k < ports; k++) {
          if (s[wrEn[k]!.i]! === 0) continue;
          const x = s[wrAddr[k]!.i]!;
          if (x >= bytes) this.fail(`write port ${k}: address ${x} outside 0..${bytes - 1}`);
          mem.write(x, s[wrData[k]!.i]!);
        }
      },
      { reads: [...wrEn, ...wrAddr, ...wrData], name: 'write' },
    );
  }
}
