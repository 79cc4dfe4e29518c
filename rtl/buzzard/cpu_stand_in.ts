/**
 * Node CPU stand-in (DESIGN.md "ControlUnit, NodeMemory, CpuStandIn"): it
 * issues the communication instructions a workload schedules (seed 002
 * §4.1.1: send, broadcast, near-neighbour broadcast, receive, buffer
 * release — coprocessor instructions taking a header-block pointer) and
 * memory reads, and counts the interrupts the communication processor raises
 * (§4.5: errors, reads of data not yet arrived, system-type messages).
 *
 * Programs live in kernel memories that a harness appends to:
 *   prog[progDepth] × 27   entry = op (bits 26..24) | header-block address (23..0)
 *   reads[readDepth] × 24  byte addresses to read
 *   readData[readDepth] × 32   the words read (written as the reads complete)
 * and registers `progCount` / `readCount` say how many entries are valid. A
 * harness appends with `sim.pokeMem` and then raises the count with
 * `sim.poke` (helpers `issue` and `read` below), typically from a
 * `sim.schedule`d stimulus, so the program grows while the design runs.
 *
 * Ports (A = 24):
 *   instruction  out instrValid, instrOp[3], instrAddr[A] (registers)
 *                in  instrAck (one-cycle pulse from the control unit)
 *   memory       out cpuAddr[A], cpuRe (registers; the node wires them to the
 *                    NodeMemory CPU port and to the ATU's cpuAddr/cpuRead)
 *                in  cpuRdata[32], cpuDone
 *   interrupt    in  irq (one-cycle pulses)
 *
 * Behaviour per cycle:
 *  - instruction k is presented (instrValid = 1, instrOp, instrAddr) from the
 *    cycle after it became available and instruction k-1 was acknowledged; it
 *    is held until a cycle with instrAck = 1; at that edge progPtr advances
 *    and, if instruction k+1 is already available, it is presented in the
 *    very next cycle (otherwise instrValid drops to 0);
 *  - reads likewise: cpuRe with cpuAddr held until cpuDone, the word goes to
 *    readData[readPtr];
 *  - `interrupts` counts cycles with irq = 1.
 * Instructions and reads are independent streams (a coprocessor instruction
 * does not stall the stand-in's reads).
 */
import { Module, type Memory, type Signal } from '../kernel/module.ts';
import type { Simulator } from '../kernel/simulator.ts';

export interface CpuStandInOptions {
  /** Instruction program entries, 1..65535. Default 256. */
  progDepth?: number;
  /** Read program entries, 1..65535. Default 256. */
  readDepth?: number;
}

const A = 24;
const TWO24 = 1 << 24;

export class CpuStandIn extends Module {
  readonly instrValid: Signal;
  readonly instrOp: Signal;
  readonly instrAddr: Signal;
  readonly instrAck: Signal;
  readonly cpuAddr: Signal;
  readonly cpuRe: Signal;
  readonly cpuRdata: Signal;
  readonly cpuDone: Signal;
  readonly irq: Signal;
  readonly progCount: Signal;
  readonly progPtr: Signal;
  readonly readCount: Signal;
  readonly readPtr: Signal;
  readonly interrupts: Signal;
  readonly prog: Memory;
  readonly reads: Memory;
  readonly readData: Memory;
  readonly progDepth: number;
  readonly readDepth: number;

  constructor(parent: Module | null, name: string, opts: CpuStandInOptions = {}) {
    super(parent, name);
    const PD = (this.progDepth = opts.progDepth ?? 256);
    const RD = (this.readDepth = opts.readDepth ?? 256);
    for (const [k, v] of [
      ['progDepth', PD],
      ['readDepth', RD],
    ] as const) {
      if (!(Number.isInteger(v) && v >= 1 && v <= 65535)) throw new RangeError(`cpu.${k}: ${v} is outside 1..65535`);
    }
    const instrValid = (this.instrValid = this.reg('instrValid'));
    const instrOp = (this.instrOp = this.reg('instrOp', 3, 0, { enum: ['none', 'send', 'broadcast', 'nnBroadcast', 'receive', 'release', 'op6', 'op7'] }));
    const instrAddr = (this.instrAddr = this.reg('instrAddr', A));
    const instrAck = (this.instrAck = this.input('instrAck'));
    const cpuAddr = (this.cpuAddr = this.reg('cpuAddr', A));
    const cpuRe = (this.cpuRe = this.reg('cpuRe'));
    const cpuRdata = (this.cpuRdata = this.input('cpuRdata', 32));
    const cpuDone = (this.cpuDone = this.input('cpuDone'));
    const irq = (this.irq = this.input('irq'));
    const progCount = (this.progCount = this.reg('progCount', 16));
    const progPtr = (this.progPtr = this.reg('progPtr', 16));
    const readCount = (this.readCount = this.reg('readCount', 16));
    const readPtr = (this.readPtr = this.reg('readPtr', 16));
    const interrupts = (this.interrupts = this.reg('interrupts', 16));
    const prog = (this.prog = this.memory('prog', 27, PD));
    const reads = (this.reads = this.memory('reads', A, RD));
    const readData = (this.readData = this.memory('readData', 32, RD));

    this.seq(
      () => {
        const s = this.s;
        // instructions
        if (s[instrValid.i]! !== 0) {
          if (s[instrAck.i]! !== 0) {
            s[instrValid.n] = 0;
            s[progPtr.n] = s[progPtr.i]! + 1;
            const k = s[progPtr.i]! + 1;
            if (k < s[progCount.i]!) present(k);
          }
        } else if (s[progPtr.i]! < s[progCount.i]!) {
          present(s[progPtr.i]!);
        }
        // reads
        if (s[cpuRe.i]! !== 0) {
          if (s[cpuDone.i]! !== 0) {
            const k = s[readPtr.i]!;
            readData.write(k, s[cpuRdata.i]!);
            s[readPtr.n] = k + 1;
            s[cpuRe.n] = 0;
            if (k + 1 < s[readCount.i]!) {
              s[cpuRe.n] = 1;
              s[cpuAddr.n] = reads.data[k + 1]!;
            }
          }
        } else if (s[readPtr.i]! < s[readCount.i]!) {
          s[cpuRe.n] = 1;
          s[cpuAddr.n] = reads.data[s[readPtr.i]!]!;
        }
        if (s[irq.i]! !== 0) s[interrupts.n] = (s[interrupts.i]! + 1) & 0xffff;
      },
      { name: 'cpu' },
    );

    const present = (k: number): void => {
      const s = this.s;
      if (k >= PD) this.fail(`instruction ${k} beyond the program memory (${PD} entries)`);
      const e = prog.data[k]!;
      s[instrValid.n] = 1;
      s[instrOp.n] = Math.floor(e / TWO24) & 7;
      s[instrAddr.n] = e % TWO24;
    };
  }
}

/** Append an instruction (op 1..5 from header_blocks OP, header block / buffer address) to the program. */
export function issue(sim: Simulator, cpu: CpuStandIn, op: number, addr: number): void {
  const k = sim.peek(cpu.progCount);
  if (k >= cpu.progDepth) throw new RangeError(`${cpu.path}: program memory full (${cpu.progDepth} entries)`);
  if (!(Number.isInteger(op) && op >= 0 && op <= 7)) throw new RangeError(`issue: op ${op} outside 0..7`);
  if (!(Number.isInteger(addr) && addr >= 0 && addr < TWO24)) throw new RangeError(`issue: address ${addr} outside 24 bits`);
  sim.pokeMem(cpu.prog, k, op * TWO24 + addr);
  sim.poke(cpu.progCount, k + 1);
}

/** Append a memory read of byte address `addr`; returns its index in readData. */
export function read(sim: Simulator, cpu: CpuStandIn, addr: number): number {
  const k = sim.peek(cpu.readCount);
  if (k >= cpu.readDepth) throw new RangeError(`${cpu.path}: read program full (${cpu.readDepth} entries)`);
  if (!(Number.isInteger(addr) && addr >= 0 && addr < TWO24)) throw new RangeError(`read: address ${addr} outside 24 bits`);
  sim.pokeMem(cpu.reads, k, addr);
  sim.poke(cpu.readCount, k + 1);
  return k;
}
