/**
 * Value formatting and ASCII waveforms for the debugger REPL.
 *
 * A value prints as decimal, hex and binary, plus a decoded form when the
 * signal declares one (kernel module.ts SignalOptions): an FSM register's
 * state name (`enum`), a CAM row's fields (`fields`, most significant
 * first, as the seed writes a row: C | P | L | D | slot).
 */
import type { ChalkInstance } from 'chalk';
import type { Signal, Simulator } from '../../rtl/kernel/index.ts';

export function hex(v: number, width: number): string {
  return '0x' + v.toString(16).padStart(Math.ceil(width / 4), '0');
}

/** Binary, msb first, '_' every 4 bits for vectors wider than 8 bits. */
export function bin(v: number, width: number): string {
  const s = v.toString(2).padStart(width, '0');
  if (width <= 8) return '0b' + s;
  const groups: string[] = [];
  for (let end = s.length; end > 0; end -= 4) groups.unshift(s.slice(Math.max(0, end - 4), end));
  return '0b' + groups.join('_');
}

/** The `enum` / `fields` options of a signal or of any signal joined to it in one net. */
export function signalOptions(sim: Simulator, sig: Signal): { enum?: readonly string[]; fields?: readonly (readonly [string, number, number])[] } {
  if (sig.options.enum || sig.options.fields) return sig.options;
  const aliases = sim.net.slotAliases[sig.i];
  if (aliases) for (const a of aliases) if (a.options.enum || a.options.fields) return a.options;
  return {};
}

export function fieldValue(v: number, lsb: number, width: number): number {
  return Math.floor(v / 2 ** lsb) % 2 ** width;
}

/** Decoded form: a state name, or `name=value` fields msb first; '' when the signal has none. */
export function decode(sim: Simulator, sig: Signal, v: number): string {
  const o = signalOptions(sim, sig);
  if (o.enum) return o.enum[v] ?? `?${v}`;
  if (o.fields) {
    return [...o.fields]
      .sort((a, b) => b[1] - a[1])
      .map(([name, lsb, w]) => `${name}=${fieldValue(v, lsb, w)}`)
      .join(' ');
  }
  return '';
}

/** `123  0x7b  0b111_1011  decoded` */
export function formatValue(sim: Simulator, sig: Signal, v: number): string {
  const d = decode(sim, sig, v);
  return `${v}  ${hex(v, sig.width)}  ${bin(v, sig.width)}${d ? `  ${d}` : ''}`;
}

/** Short label for a waveform segment: the state name, or hex for vectors. */
export function shortLabel(sim: Simulator, sig: Signal, v: number): string {
  const o = signalOptions(sim, sig);
  if (o.enum) return o.enum[v] ?? `?${v}`;
  return sig.width <= 4 ? String(v) : v.toString(16);
}

export interface WaveRow {
  name: string;
  sig: Signal;
  /** One value per cycle, cycles first..first+values.length-1. */
  values: number[];
}

/**
 * Draw waveforms, one row per signal, one column per cycle:
 *   1-bit signals  `___/‾‾‾\__`   (low _, high ‾, edges / and \)
 *   vectors        `3   X4    X5 ` (X at a change, then the value: hex, or
 *                  the state name of an FSM register)
 * Rows wider than `width` columns are wrapped into blocks, each with a
 * cycle ruler (a '|' and the cycle number every 10 cycles).
 */
export function renderWave(sim: Simulator, rows: WaveRow[], first: number, width: number, c: ChalkInstance): string[] {
  if (rows.length === 0) return [];
  const n = rows[0]!.values.length;
  const nameW = Math.max(5, ...rows.map((r) => r.name.length));
  const cols = Math.max(10, width - nameW - 3);
  const out: string[] = [];
  for (let b0 = 0; b0 < n; b0 += cols) {
    const b1 = Math.min(n, b0 + cols);
    // ruler
    let ruler = '';
    for (let k = b0; k < b1; ) {
      const cyc = first + k;
      if (cyc % 10 === 0) {
        const lab = `|${cyc}`;
        const room = b1 - k;
        const s = lab.slice(0, room);
        ruler += s;
        k += s.length;
      } else {
        ruler += ' ';
        k++;
      }
    }
    out.push(c.dim(`${'cycle'.padStart(nameW)} | ${ruler}`));
    for (const r of rows) out.push(`${r.name.padStart(nameW)} | ${drawRow(sim, r, b0, b1, c)}`);
    if (b1 < n) out.push('');
  }
  return out;
}

function drawRow(sim: Simulator, r: WaveRow, b0: number, b1: number, c: ChalkInstance): string {
  const v = r.values;
  if (r.sig.width === 1) {
    let s = '';
    for (let k = b0; k < b1; k++) {
      const x = v[k]!;
      const p = k > 0 ? v[k - 1]! : x;
      if (x !== p) s += c.yellow(x ? '/' : '\\');
      else s += x ? c.green('‾') : c.dim('_');
    }
    return s;
  }
  // vectors: segments of equal value
  let s = '';
  let k = b0;
  while (k < b1) {
    let e = k + 1;
    while (e < b1 && v[e] === v[k]) e++;
    const changed = k > 0 && v[k - 1] !== v[k];
    const w = e - k;
    const label = shortLabel(sim, r.sig, v[k]!);
    let seg = '';
    if (changed) seg += c.yellow('X');
    const room = w - (changed ? 1 : 0);
    if (room > 0) {
      const text = label.length <= room ? label.padEnd(room) : room >= 2 ? label.slice(0, room - 1) + '~' : '~';
      seg += v[k] === 0 ? c.dim(text) : c.cyan(text);
    }
    s += seg;
    k = e;
  }
  return s;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** The width of `s` on a terminal: colour escape codes take no room. */
export function visibleWidth(s: string): number {
  return s.replace(ANSI, '').length;
}

/** Pad `s` with blanks to `w` terminal columns (colour codes not counted). */
export function padVisible(s: string, w: number): string {
  return s + ' '.repeat(Math.max(0, w - visibleWidth(s)));
}

/** A fixed-width text table (columns left aligned, the last one free); cells may be coloured. */
export function table(header: string[], rows: string[][], c?: ChalkInstance): string[] {
  const w = header.map((h, k) => Math.max(visibleWidth(h), ...rows.map((r) => visibleWidth(r[k] ?? ''))));
  const line = (r: string[]): string =>
    r
      .map((x, k) => (k === r.length - 1 ? x : padVisible(x, w[k]!)))
      .join('  ')
      .trimEnd();
  const head = line(header);
  return [c ? c.bold(head) : head, ...rows.map(line)];
}
