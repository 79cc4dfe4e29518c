/**
 * The cycle simulator.
 *
 * One global clock (ARCHITECTURE.md, "one global clock, the link bit clock").
 * A call to `step()` advances one cycle:
 *   1. stimulus scheduled for the current cycle runs (it may poke);
 *      if anything was poked, the comb logic settles again;
 *   2. every seq process computes next register values from current
 *      registers and settled wires;
 *   3. commit: all registers take their next values at once, memory writes land;
 *   4. the comb logic settles from the new registers (in static order);
 *   5. the cycle counter advances and observers see the committed, settled cycle.
 * Step 4 is the comb phase of the following cycle, done early so that what an
 * observer, `peek` or a VCD dump sees is always consistent.
 *
 * Modes: 'plain' evaluates every process every cycle. 'activity' evaluates a
 * process only when a signal it reads changed, and with `fastForward` skips
 * whole quiescent stretches up to the next scheduled stimulus. The two give
 * bit-identical traces (test/kernel/activity.test.ts).
 */
import { SimulatorSnapshots } from './snapshots.ts';

export type { OnDemand } from './on_demand.ts';
export type { SimMode, SimOptions, Observer } from './simulator_core.ts';
export type { Snapshot, StateProvider } from './snapshots.ts';

/**
 * The simulator: the core's clock loop (simulator_core.ts), stepping (stepping.ts), names and
 * peek/poke/force (peek_poke.ts), snapshots (snapshots.ts), one class.
 */
export class Simulator extends SimulatorSnapshots {}
