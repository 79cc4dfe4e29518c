/**
 * A VCD with its GTKWave save file, as the commands and the REPL write them:
 * both paths checked before the run (`planVcd`), the dump streamed while the
 * run goes (`startVcdOutput`), and the `.gtkw` written only once the dump is
 * complete (`close`), so a save file never names a missing VCD. A VCD sent
 * to a device or FIFO gets no save file.
 */
import type { Simulator } from '../../rtl/kernel/index.ts';
import { gtkwSignals, startVcd, writeGtkw, type VcdOptions, type VcdWriter } from '../../traces/vcd/index.ts';
import { companionGtkw, gtkwLabel, outputFile, type OutputTarget } from './output-path.ts';

export interface VcdPlan {
  /** How errors name the file: `--vcd` for a command's option, '' in the REPL (its command prefixes them). */
  readonly label: string;
  readonly vcd: OutputTarget;
  readonly gtkw: OutputTarget | undefined;
}

/** Check `--<option> PATH` and its `.gtkw` (throws OutputPathError: one line, exit 2). */
export function planVcd(option: string, path: string, label = `--${option}`): VcdPlan {
  const vcd = outputFile(option, path, label);
  return { label, vcd, gtkw: companionGtkw(vcd, label) };
}

export class VcdOutput {
  constructor(
    readonly writer: VcdWriter,
    private readonly plan: VcdPlan,
    /** Globs over design paths of the signals the save file shows (default: all dumped). */
    private readonly view: readonly string[] | undefined,
  ) {}

  get path(): string {
    return this.plan.vcd.path;
  }

  /** The save file's path, if one is written. */
  get gtkwPath(): string | undefined {
    return this.plan.gtkw?.path;
  }

  /** `gtkwave x.vcd x.gtkw, or surfer x.vcd`: how to open it. */
  openHint(): string {
    return `${this.gtkwPath ? `gtkwave ${this.path} ${this.gtkwPath}` : `gtkwave ${this.path}`}, or surfer ${this.path}`;
  }

  get isClosed(): boolean {
    return this.writer.isClosed;
  }

  /** Close the dump (valid VCD) and write the save file beside it. Idempotent. */
  close(): void {
    if (this.writer.isClosed) return;
    this.writer.close();
    if (this.plan.gtkw) {
      const span = [this.writer.startTime, this.writer.lastTime] as const;
      writeGtkw(this.plan.gtkw, { dumpfile: this.path, signals: gtkwSignals(this.writer, this.view), span, label: gtkwLabel(this.plan.label) });
    }
  }
}

/** Start dumping `sim` to the planned file. */
export function startVcdOutput(sim: Simulator, plan: VcdPlan, opts: VcdOptions, view?: readonly string[]): VcdOutput {
  const writer = startVcd(sim, plan.vcd, { label: plan.label, ...opts });
  return new VcdOutput(writer, plan, view);
}
