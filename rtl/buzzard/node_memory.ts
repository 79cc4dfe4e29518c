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

    /** Who is served this cycle (0 none, 1 CU, 2 CPU) and for how many cycles already. */
    const serve = (): [number, number] => {
      const s = this.s;
      const o = s[owner.i]!;
      if (o !== 0) return [o, s[cnt.i]!];
      const cu = s[cuRe.i]! !== 0 || s[cuWe.i]! !== 0;
      const cpu = s[cpuRe.i]! !== 0;
      if (cu && cpu) return [s[lastCu.i]! !== 0 ? 2 : 1, 0];
      return [cu ? 1 : cpu ? 2 : 0, 0];
    };
    const wordAt = (addr: number): number => (addr % 4 === 0 && addr >>> 2 < words ? mem.data[addr >>> 2]! : 0);

    this.comb(
      () => {
        const s = this.s;
        const [g, el] = serve();
        const done = g !== 0 && el === L - 1;
        s[cuDone.i] = done && g === 1 ? 1 : 0;
        s[cpuDone.i] = done && g === 2 ? 1 : 0;
        s[cuRdata.i] = done && g === 1 && s[cuRe.i]! !== 0 ? wordAt(s[cuAddr.i]!) : 0;
        s[cpuRdata.i] = done && g === 2 ? wordAt(s[cpuAddr.i]!) : 0;
      },
      { writes: [cuDone, cpuDone, cuRdata, cpuRdata], reads: [owner, cnt, lastCu, cuRe, cuWe, cuAddr, cpuRe, cpuAddr, mem], name: 'port' },
    );

    this.seq(
      () => {
        const s = this.s;
        const o = s[owner.i]!;
        if (o === 1 && s[cuRe.i]! === 0 && s[cuWe.i]! === 0) this.fail('control-unit port withdrew its request before done');
        if (o === 2 && s[cpuRe.i]! === 0) this.fail('CPU port withdrew its request before done');
        if (s[cuRe.i]! !== 0 && s[cuWe.i]! !== 0) this.fail(`control-unit port raised re and we together (address 0x${s[cuAddr.i]!.toString(16)})`);
        const [g, el] = serve();
        if (g === 0) return;
        const addr = g === 1 ? s[cuAddr.i]! : s[cpuAddr.i]!;
        const port = g === 1 ? 'control-unit' : 'CPU';
        if (addr % 4 !== 0) this.fail(`${port} port: address 0x${addr.toString(16)} is not word aligned`);
        if (addr >>> 2 >= words) this.fail(`${port} port: address 0x${addr.toString(16)} is beyond the ${words * 4}-byte memory`);
        if (el === L - 1) {
          if (g === 1 && s[cuWe.i]! !== 0) mem.write(addr >>> 2, s[cuWdata.i]!);
          s[owner.n] = 0;
          s[cnt.n] = 0;
          s[lastCu.n] = g === 1 ? 1 : 0;
        } else {
          s[owner.n] = g;
          s[cnt.n] = el + 1;
        }
      },
      { reads: [owner, cnt, lastCu, cuRe, cuWe, cuAddr, cuWdata, cpuRe, cpuAddr], name: 'access' },
    );
  }
}
