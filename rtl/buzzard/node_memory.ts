/**
 * Node memory of a Buzzard node (DESIGN.md "ControlUnit, NodeMemory,
 * CpuStandIn"; seed 002 §4.5 "the coprocessor needs access to all of
 * user-accessible memory", §5.1; latencies A14: the seed gives none).
 *
 * `memoryWords` 32-bit words (kernel memory `mem`), byte addressed (24-bit
 * addresses, word aligned), two ports:
 *   CU port   in  cuAddr[24], cuRe, cuWe, cuWdata[32]
 *             out cuRdata[32], cuDone
 *   CPU port  in  cpuAddr[24], cpuRe            (the CPU stand-in only reads)
 *             out cpuRdata[32], cpuDone
 *
 * Protocol: a requester raises re (or we, never both) with its address (and
 * data) and HOLDS them until the cycle in which its done is 1. An access
 * takes exactly L = cfg.cu.memoryAccess cycles counted from the first cycle
 * the memory serves it: done is high in the L-th cycle, combinationally
 * (so with L = 1 a request presented in cycle t completes in t). During the
 * done cycle rdata shows the word (a read) and a write lands at the end of
 * that cycle. A requester may present its next request in the cycle after
 * done; back-to-back accesses by one port therefore cost L cycles each.
 *
 * Arbitration: one access at a time (a single-ported array behind two
 * ports). An access in progress is never pre-empted (register `owner`).
 * When both ports request in a cycle in which no access is in progress, the
 * port that was NOT served last wins (round-robin, register `lastCu`), so a
 * busy control unit cannot starve the CPU nor the CPU the control unit.
 *
 * Protocol violations (`fail`, naming the port): re and we together, a
 * misaligned address, an address beyond memory, a request withdrawn before
 * its done.
 */
import { Module, type Memory, type Signal } from '../kernel/module.ts';
import { checkConfig, type BuzzardConfig } from './config.ts';

export const MEM_OWNER = ['none', 'cu', 'cpu'] as const;
export const ADDR_BITS = 24;

export class NodeMemory extends Module {
  readonly cfg: BuzzardConfig;
  readonly cuAddr: Signal;
  readonly cuRe: Signal;
  readonly cuWe: Signal;
  readonly cuWdata: Signal;
  readonly cuRdata: Signal;
  readonly cuDone: Signal;
  readonly cpuAddr: Signal;
  readonly cpuRe: Signal;
  readonly cpuRdata: Signal;
  readonly cpuDone: Signal;
  readonly owner: Signal;
  readonly cnt: Signal;
  readonly lastCu: Signal;
  readonly mem: Memory;
  /** Negative control only: the access not woken by the CU's address while cuWe is up (the lock-step tests must catch it). */
  static wrongNoWriteAddr = false;

  constructor(parent: Module | null, name: string, config: Partial<BuzzardConfig> = {}) {
    super(parent, name);
    const cfg = (this.cfg = checkConfig(config));
    const L = cfg.cu.memoryAccess;
    const words = cfg.memoryWords;
    const cuAddr = (this.cuAddr = this.input('cuAddr', ADDR_BITS));
    const cuRe = (this.cuRe = this.input('cuRe'));
    const cuWe = (this.cuWe = this.input('cuWe'));
    const cuWdata = (this.cuWdata = this.input('cuWdata', 32));
    const cuRdata = (this.cuRdata = this.output('cuRdata', 32));
    const cuDone = (this.cuDone = this.output('cuDone'));
    const cpuAddr = (this.cpuAddr = this.input('cpuAddr', ADDR_BITS));
    const cpuRe = (this.cpuRe = this.input('cpuRe'));
    const cpuRdata = (this.cpuRdata = this.output('cpuRdata', 32));
    const cpuDone = (this.cpuDone = this.output('cpuDone'));
    const owner = (this.owner = this.reg('owner', 2, 0, { enum: MEM_OWNER }));
    const cnt = (this.cnt = this.reg('cnt', 7, 0));
    const lastCu = (this.lastCu = this.reg('lastCu', 1, 0));
    const mem = (this.mem = this.memory('mem', 32, words));

    // Slot numbers in the closures (Module.whenSlots; docs/kernel.md "Stop 21: Buzzard units").
    let ownerI = 0, ownerN = 0, cntI = 0, cntN = 0, lastCuI = 0, lastCuN = 0, cuAddrI = 0, cuReI = 0, cuWeI = 0, cuWdataI = 0, cuRdataI = 0, cuDoneI = 0, cpuAddrI = 0, cpuReI = 0, cpuRdataI = 0, cpuDoneI = 0;
    this.whenSlots(() => {
      [ownerI, ownerN, cntI, cntN, lastCuI, lastCuN, cuAddrI, cuReI, cuWeI, cuWdataI, cuRdataI, cuDoneI, cpuAddrI, cpuReI, cpuRdataI, cpuDoneI] = [owner.i, owner.n, cnt.i, cnt.n, lastCu.i, lastCu.n, cuAddr.i, cuRe.i, cuWe.i, cuWdata.i, cuRdata.i, cuDone.i, cpuAddr.i, cpuRe.i, cpuRdata.i, cpuDone.i];
    });
    /**
     * Who is served this cycle (0 none, 1 CU, 2 CPU) and for how many cycles
     * already, as served * 128 + cycles (cnt has 7 bits): one number, not a
     * pair allocated at every run (issue 8).
     */
    const serve = (): number => {
      const s = this.s;
      const o = s[ownerI]!;
      if (o !== 0) return o * 128 + s[cntI]!;
      const cu = s[cuReI]! !== 0 || s[cuWeI]! !== 0;
      const cpu = s[cpuReI]! !== 0;
      if (cu && cpu) return (s[lastCuI]! !== 0 ? 2 : 1) * 128;
      return (cu ? 1 : cpu ? 2 : 0) * 128;
    };
    const wordAt = (addr: number): number => (addr % 4 === 0 && addr >>> 2 < words ? mem.data[addr >>> 2]! : 0);

    this.comb(
      () => {
        const s = this.s;
        const sv = serve();
        const g = sv >> 7;
        const el = sv & 127;
        const done = g !== 0 && el === L - 1;
        s[cuDoneI] = done && g === 1 ? 1 : 0;
        s[cpuDoneI] = done && g === 2 ? 1 : 0;
        s[cuRdataI] = done && g === 1 && s[cuReI]! !== 0 ? wordAt(s[cuAddrI]!) : 0;
        s[cpuRdataI] = done && g === 2 ? wordAt(s[cpuAddrI]!) : 0;
      },
      { writes: [cuDone, cpuDone, cuRdata, cpuRdata], reads: [owner, cnt, lastCu, cuRe, cuWe, cuAddr, cpuRe, cpuAddr, mem], name: 'port' },
    );

    this.seq(
      () => {
        const s = this.s;
        const o = s[ownerI]!;
        if (o === 1 && s[cuReI]! === 0 && s[cuWeI]! === 0) this.fail('control-unit port withdrew its request before done');
        if (o === 2 && s[cpuReI]! === 0) this.fail('CPU port withdrew its request before done');
        if (s[cuReI]! !== 0 && s[cuWeI]! !== 0) this.fail(`control-unit port raised re and we together (address 0x${s[cuAddrI]!.toString(16)})`);
        const sv = serve();
        const g = sv >> 7;
        const el = sv & 127;
        if (g === 0) return;
        const addr = g === 1 ? s[cuAddrI]! : s[cpuAddrI]!;
        const port = g === 1 ? 'control-unit' : 'CPU';
        if (addr % 4 !== 0) this.fail(`${port} port: address 0x${addr.toString(16)} is not word aligned`);
        if (addr >>> 2 >= words) this.fail(`${port} port: address 0x${addr.toString(16)} is beyond the ${words * 4}-byte memory`);
        if (el === L - 1) {
          if (g === 1 && s[cuWeI]! !== 0) mem.write(addr >>> 2, s[cuWdataI]!);
          s[ownerN] = 0;
          s[cntN] = 0;
          s[lastCuN] = g === 1 ? 1 : 0;
        } else {
          s[ownerN] = g;
          s[cntN] = el + 1;
        }
      },
      // Exact reads (docs/kernel.md "Stop 22: Buzzard"): while an access is
      // in progress (owner 1 or 2) every input, as before; while none is, a
      // request wakes it on its rise and its address (and data) while it is
      // up. A request falling with no access in progress changes nothing:
      // owner, cnt and lastCu change at every edge after a run that served
      // two requesters or started an L > 1 access, so an unwoken cycle is
      // one where only the port served last can still request, with the
      // address and data it was served with (docs/kernel.md "Stop 22").
      // A read's address matters to the run only for its checks (the data
      // is the port's, a comb); a write's address and data for the write.
      {
        reads: [owner, cnt, lastCu],
        readsWhen: [
          { when: owner, is: [1, 2], reads: [cuRe, cuWe, cuAddr, cuWdata, cpuRe, cpuAddr] },
          { when: cuRe, bits: 1, reads: [cuAddr], rise: true },
          { when: cuWe, bits: 1, reads: NodeMemory.wrongNoWriteAddr ? [cuWdata] : [cuAddr, cuWdata], rise: true },
          { when: cpuRe, bits: 1, reads: [cpuAddr], rise: true },
        ],
        name: 'access',
      },
    );
  }
}
