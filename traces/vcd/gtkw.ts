/**
 * GTKWave save files (.gtkw): open a dump with chosen signals already shown.
 *
 * The format is GTKWave's own (written by its savefile.c; there is no
 * standard): `[*]` comment lines, `[dumpfile] "path"`, `[savefile] "path"`,
 * `[timestart] 0`, a few window settings, then the traces, one per line, each
 * named as GTKWave shows it: the full hierarchical name with the range of a
 * vector appended (`top.node1.fifo.count[4:0]`), scalars and strings bare
 * (`top.clk`, `top.fsm.state_s`). A line `@HEX` sets the display flags of the
 * traces that follow: 0x28 = right-justify + binary, 0x22 = right-justify +
 * hex, 0x200 = a blank (comment) trace whose text follows a `-`.
 *
 * Here traces are grouped per scope, each group headed by a comment trace
 * naming the scope; the synthetic clock comes first. An FSM state register
 * that has a string twin (`state_s`, writer option `stateStrings`) is shown
 * by its twin, so the wave reads as state names; other vectors show in
 * decimal (counts, free rows, lengths) except data, address and word
 * buses, which show in hex. The dump is named relative to the save file's
 * directory, so the pair can be moved or shared together, and the view
 * opens zoomed to fit the dumped time span (`span`).
 */
import { writeOutput, type OutputTarget } from '../files.ts';
import * as nodePath from 'node:path';
import { globToRegExp } from '../../rtl/kernel/names.ts';
import type { VcdVarInfo, VcdWriter } from './writer.ts';

/** GTKWave trace flags (gtkwave src/analyzer.h, TraceEntFlagBits). */
export const GTKW_FLAGS = {
  binary: 0x28, // TR_RJUSTIFY | TR_BIN
  hex: 0x22, // TR_RJUSTIFY | TR_HEX
  decimal: 0x24, // TR_RJUSTIFY | TR_DEC
  comment: 0x200, // TR_BLANK
} as const;

export interface GtkwSignal {
  /** Name as GTKWave shows it: `top.node1.fifo.count[4:0]`. */
  name: string;
  /** Scope path, for grouping: `top.node1.fifo`. */
  scope: string;
  /** Display format: binary for scalars and strings, decimal for counts, hex for data and address buses. */
  format: 'binary' | 'hex' | 'decimal';
}

export interface GtkwOptions {
  /** The dump file (written relative to the save file's directory). */
  dumpfile: string;
  /** Where the save file will live. */
  savefile: string;
  signals: readonly GtkwSignal[];
  /** For the `[*]` header line; default now. */
  date?: Date | string;
  /** Window size in pixels. Default 1200 x 700. */
  size?: readonly [number, number];
  /** Dumped time span [first, last] in VCD time units: the view opens zoomed to fit it. */
  span?: readonly [number, number];
}

/** Vector names shown in hex rather than decimal. */
const HEX_NAME = /(data|dout|din|word|addr|bus|hash)/i;

/** GTKWave's name for a declared var: full name plus the range of a vector. */
export function gtkwaveName(v: Pick<VcdVarInfo, 'name' | 'range'>): string {
  return v.name + v.range;
}

/**
 * The writer's declared vars whose design path matches one of the globs
 * (default: all), as save-file signals; the clock is always first. Aliases
 * of one net are separate vars and are listed if they match.
 */
export function gtkwSignals(writer: Pick<VcdWriter, 'vars'>, patterns?: readonly string[]): GtkwSignal[] {
  const res = patterns?.map((p) => globToRegExp(p));
  const twins = new Set(writer.vars.filter((v) => v.kind === 'state').map((v) => v.path));
  const out: GtkwSignal[] = [];
  const seen = new Set<string>();
  const push = (v: VcdVarInfo): void => {
    const name = gtkwaveName(v);
    if (seen.has(name)) return;
    seen.add(name);
    const format = v.type === 'string' || v.width === 1 ? 'binary' : HEX_NAME.test(v.ref) ? 'hex' : 'decimal';
    out.push({ name, scope: v.scope, format });
  };
  for (const v of writer.vars) {
    const chosen = v.kind === 'clock' || !res || res.some((re) => re.test(v.path));
    if (!chosen) continue;
    if (v.kind === 'state') {
      push(v);
      continue;
    }
    // an FSM register with a name twin is shown by the twin
    const twin = v.kind === 'signal' && twins.has(`${v.path}_s`) ? writer.vars.find((w) => w.kind === 'state' && w.path === `${v.path}_s`) : undefined;
    push(twin ?? v);
  }
  return out;
}

/** GTKWave's zoom for a span of `units` time units across about `pixels` pixels (time per pixel = 2^-zoom). */
export function gtkwZoom(units: number, pixels: number): number {
  return -Math.log2(Math.max(units, 1) / Math.max(pixels, 1));
}

/** The text of a .gtkw file. */
export function formatGtkw(opts: GtkwOptions): string {
  const date = opts.date === undefined ? new Date().toUTCString() : typeof opts.date === 'string' ? opts.date : opts.date.toUTCString();
  const [w, h] = opts.size ?? [1200, 700];
  const saveDir = nodePath.dirname(nodePath.resolve(opts.savefile));
  const dump = nodePath.relative(saveDir, nodePath.resolve(opts.dumpfile)) || nodePath.basename(opts.dumpfile);
  const [t0, t1] = opts.span ?? [0, 0];
  const lines: string[] = [
    '[*]',
    '[*] icemu (traces/vcd/gtkw.ts)',
    `[*] ${date}`,
    '[*]',
    `[dumpfile] "${dump}"`,
    `[savefile] "${nodePath.basename(opts.savefile)}"`,
    `[timestart] ${t0}`,
    `[size] ${w} ${h}`,
    '[pos] -1 -1',
    // zoom to fit the span in the wave pane (the window less the signal list), no markers
    ...(opts.span ? [`*${gtkwZoom(t1 - t0, w - 350).toFixed(6)} -1${' -1'.repeat(26)}`] : []),
    '[sst_expanded] 1',
  ];
  // Open the tree down to every scope that has a listed signal.
  const open = new Set<string>();
  for (const s of opts.signals) {
    const parts = s.scope.split('.');
    for (let k = 1; k <= parts.length; k++) open.add(parts.slice(0, k).join('.') + '.');
  }
  for (const t of open) lines.push(`[treeopen] ${t}`);

  // Group per scope, in order of first appearance.
  const groups = new Map<string, GtkwSignal[]>();
  for (const s of opts.signals) {
    let g = groups.get(s.scope);
    if (!g) groups.set(s.scope, (g = []));
    g.push(s);
  }
  let flags = -1;
  const setFlags = (f: number): void => {
    if (f !== flags) lines.push(`@${f.toString(16)}`);
    flags = f;
  };
  for (const [scope, list] of groups) {
    setFlags(GTKW_FLAGS.comment);
    lines.push(`-${scope}`);
    for (const s of list) {
      setFlags(GTKW_FLAGS[s.format]);
      lines.push(s.name);
    }
  }
  return lines.join('\n') + '\n';
}

/** Write a .gtkw file (checked, through a temporary file renamed into place: traces/files.ts). */
export function writeGtkw(savefile: string | OutputTarget, opts: Omit<GtkwOptions, 'savefile'> & { label?: string }): void {
  const path = typeof savefile === 'string' ? savefile : savefile.path;
  writeOutput(savefile, formatGtkw({ ...opts, savefile: path }), opts.label);
}
