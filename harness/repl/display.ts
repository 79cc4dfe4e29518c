/**
 * gdb's `display`: expressions shown again every time the model stops at a
 * new place (after step, run, continue, next-event, back, restore,
 * checkpoint load). `display` alone shows them all now; `undisplay [n ...]`
 * removes them; `info display` lists them. Like breakpoints, displays are
 * not part of history.
 */
import { ReplError, type CommandDef } from './common.ts';
import type { ReplEngine } from './engine.ts';
import { cmdPrint } from './hierarchy.ts';
import { witness, type Condition } from './expr.ts';

export interface Display {
  id: number;
  text: string;
  /** An expression; undefined: a name or glob shown as print shows it. */
  cond: Condition | undefined;
}

const PLAIN_NAME = /^\/?[A-Za-z_*?{][A-Za-z0-9_.*?{},]*$/;

export function displayCommands(e: ReplEngine): CommandDef[] {
  return [
    {
      name: 'display',
      aliases: ['disp'],
      usage: 'display [name | glob | expression]',
      summary: 'show a value now and again every time the model stops (gdb display); alone: show them all',
      help: ['display node3.nip.count; display node0.nip.state[3:0] & 1. undisplay n removes one, info display lists them.'],
      arg: 'expr',
      run: (_a, rest) => {
        if (!rest) {
          if (!e.displays.length) e.emit('no displays (display <expression> adds one)');
          showDisplays(e);
          return;
        }
        const d: Display = { id: e.nextDisplay, text: rest, cond: PLAIN_NAME.test(rest) ? undefined : e.compile(rest) };
        const lines = render(e, d); // throws (nothing added) when the name is bad
        e.nextDisplay++;
        e.displays.push(d);
        e.emit(...lines);
      },
    },
    {
      name: 'undisplay',
      aliases: [],
      usage: 'undisplay [n ...]',
      summary: 'remove displays by number (all without numbers)',
      help: [],
      arg: 'none',
      run: (a) => {
        if (!a.length) {
          const n = e.displays.length;
          e.displays = [];
          e.emit(`removed ${n} display(s)`);
          return;
        }
        const ids = a.map((x) => e.intArg(x, 'display number', 1, Number.MAX_SAFE_INTEGER));
        for (const id of ids) if (!e.displays.some((d) => d.id === id)) throw new ReplError(`undisplay: no display ${id} (info display lists them)`);
        e.displays = e.displays.filter((d) => !ids.includes(d.id));
        e.emit(`removed display ${ids.join(', ')}`);
      },
    },
  ];
}

/** `info display`. */
export function listDisplays(e: ReplEngine): void {
  if (!e.displays.length) e.emit('no displays');
  for (const d of e.displays) e.emit(`${d.id}: ${d.text}`);
}

/** Every display's current value (called when the model stopped somewhere new). */
export function showDisplays(e: ReplEngine): void {
  for (const d of e.displays) {
    try {
      e.emit(...render(e, d));
    } catch (err) {
      e.emit(`${d.id}: ${d.text}: ${(err as Error).message}`);
    }
  }
}

function render(e: ReplEngine, d: Display): string[] {
  if (d.cond) {
    const vs = d.cond.values();
    const one = d.cond.refs.length === 1 && /^\/?[A-Za-z_][A-Za-z0-9_.]*(\[\d+\])?$/.test(d.text) ? d.cond.refs[0] : undefined;
    const shown = one ? witness(one, vs[0]!).replace(/^.* = /, '') : vs.length === 1 ? String(vs[0]) : `{${vs.join(', ')}}`;
    return [`${d.id}: ${d.text} = ${shown}`];
  }
  const saved = e.out;
  e.out = [];
  try {
    cmdPrint(e, d.text);
    const lines = e.out.map((l) => l.replace(/^ {2}/, ''));
    return lines.length === 1 ? [`${d.id}: ${lines[0]}`] : [`${d.id}: ${d.text}`, ...lines.map((l) => `   ${l}`)];
  } finally {
    e.out = saved;
  }
}
