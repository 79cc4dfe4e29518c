export { VcdWriter, startVcd, vcdIdCode } from './writer.ts';
export type { VcdOptions, VcdVarInfo } from './writer.ts';
export { parseVcd, readVcd, vcdValueToNumber, VcdParseError } from './reader.ts';
export type { VcdDump, VcdVar, VcdScope, VcdChange } from './reader.ts';
export { formatGtkw, writeGtkw, gtkwSignals, gtkwaveName, GTKW_FLAGS } from './gtkw.ts';
export type { GtkwOptions, GtkwSignal } from './gtkw.ts';
