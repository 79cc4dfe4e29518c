/**
 * The REPL's cube driver: a CubeDriver (harness/rtl/cube_driver.ts) whose JS
 * bookkeeping — the per-node bump allocator, the lists of sends and posted
 * receives, the next message type of `load` — is saved and restored with
 * the simulator's snapshots (a kernel StateProvider). So a checkpoint, a
 * `restore` or a `back` puts the driver exactly where it was at that cycle:
 * messages issued later are forgotten, memory they took is free again, and
 * re-issuing them gives the same header blocks and buffers.
 */
import type { Simulator, StateProvider } from '../../rtl/kernel/index.ts';
import type { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { CubeDriver, type PostedReceive, type SentMessage } from '../rtl/cube_driver.ts';

const USER_BASE = 0x100;

interface DriverState {
  heap: number[];
  sent: SentMessage[];
  receives: PostedReceive[];
  nextType: number;
}

export class ReplDriver extends CubeDriver implements StateProvider {
  /** Next free byte of user memory per node (replaces the base class's private allocator). */
  private top: number[];
  /** Message type handed to the next message of a loaded trace file (2.. 0x7fff; 1 is the interactive default). */
  nextType = 2;

  constructor(sim: Simulator, cube: BuzzardCube) {
    super(sim, cube);
    this.top = cube.nodes.map(() => USER_BASE);
    sim.addStateProvider(this);
  }

  override alloc(a: number, bytes: number): number {
    const nd = this.node(a);
    const at = this.top[a]!;
    const end = at + ((bytes + 3) & ~3);
    const limit = nd.cu!.layout.poolBase;
    if (end > limit) throw new RangeError(`node ${a}: user memory exhausted (${end} > ${limit} bytes); use fewer or shorter messages`);
    this.top[a] = end;
    return at;
  }

  /** Bytes of user memory still free on node `a`. */
  free(a: number): number {
    return this.node(a).cu!.layout.poolBase - this.top[a]!;
  }

  takeType(): number {
    const t = this.nextType;
    this.nextType = t >= 0x7fff ? 2 : t + 1;
    return t;
  }

  save(): unknown {
    const st: DriverState = { heap: this.top.slice(), sent: this.sent.slice(), receives: this.receives.slice(), nextType: this.nextType };
    return st;
  }

  restore(v: unknown): void {
    const st = v as DriverState;
    this.top = st.heap.slice();
    this.sent.length = 0;
    for (const m of st.sent) this.sent.push(m);
    this.receives.length = 0;
    for (const r of st.receives) this.receives.push(r);
    this.nextType = st.nextType;
  }
}
