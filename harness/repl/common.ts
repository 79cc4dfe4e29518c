/**
 * Shared by the REPL engine (engine.ts) and its command families (help,
 * time, hierarchy, breakpoints, stimulus, inspect, travel, output,
 * complete): the user-error class, the command table's shape, and the
 * records the engine keeps for breakpoints, time travel and traces.
 */
import type { Snapshot } from '../../rtl/kernel/index.ts';
import type { NodeTrace } from '../rtl/node_trace.ts';
import type { EventKind, TraceEvent } from '../../traces/events/vocabulary.ts';
import { ExprError, type Condition, type Ref } from './expr.ts';
import { WorkloadFileError } from '../workloads/trace-file.ts';

/** A user error (bad command, name, value): reported as one line, never a crash. */
export class ReplError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplError';
  }
}

export interface LogEntry {
  cycle: number;
  text: string;
  apply: () => void;
}

/** A snapshot with its memories split into shared pages. */
export interface Packed {
  cycle: number;
  base: Omit<Snapshot, 'mems'>;
  pages: Float64Array[][];
  depths: number[];
}

export interface AutoCheckpoint {
  snap: Packed;
  /** Length of the command log when it was taken. */
  logLen: number;
}

export interface NamedCheckpoint {
  name: string;
  snap: Packed;
  autos: AutoCheckpoint[];
  log: LogEntry[];
  events: TraceEvent[];
}

export type EventFilter = Partial<Record<'msg' | 'node' | 'packet' | 'port', number>> & { unit?: string };

export type Breakpoint =
  | { id: number; type: 'break'; text: string; cond: Condition; prev: boolean; hits: number }
  | { id: number; type: 'watch'; text: string; refs: Ref[]; prev: number[]; hits: number }
  | { id: number; type: 'event'; text: string; kind: EventKind | '*'; filter: EventFilter; hits: number };

export interface Trace {
  node: number;
  trace: NodeTrace;
  detach: (() => void) | undefined;
}

export type ArgKind = 'none' | 'signal' | 'module' | 'expr' | 'file' | 'checkpoint' | 'command' | 'node';

export interface CommandDef {
  name: string;
  aliases: string[];
  usage: string;
  summary: string;
  help: string[];
  arg: ArgKind;
  /** At most this many arguments (more: one error line naming the first extra one). */
  maxArgs?: number;
  /** Sub-words offered as the first argument by completion. */
  words?: string[];
  run: (args: string[], rest: string) => void | Promise<void>;
}

export const EVENT_FILTER_KEYS = ['msg', 'node', 'packet', 'unit', 'port'] as const;

export function errorText(e: unknown): string {
  if (e instanceof ReplError || e instanceof ExprError || e instanceof WorkloadFileError) return e.message;
  if (e instanceof Error) return e.name === 'Error' || e.name === 'RangeError' || e.name === 'SimError' ? e.message : `${e.name}: ${e.message}`;
  return String(e);
}

/** Drop a trailing `# comment` (a '#' at the start or after blanks). */
export function stripComment(line: string): string {
  const m = /(^|\s)#/.exec(line);
  return m ? line.slice(0, m.index) : line;
}
