/** REPL commands: help (the command list, one command, the expression grammar) and quit. */
import { nearestNames } from '../../rtl/kernel/names.ts';
import { ReplError, type CommandDef } from './common.ts';
import type { ReplEngine } from './engine.ts';

export function helpCommands(e: ReplEngine): CommandDef[] {
  return [
    {
      name: 'help',
      aliases: ['h', '?'],
      usage: 'help [command | expressions]',
      summary: 'list the commands, or explain one',
      help: ['Without an argument: every command with its aliases. help <command>: its usage and details.', 'help expressions: the condition grammar used by break, run until and assert.'],
      maxArgs: 1,
      arg: 'command',
      run: (a) => cmdHelp(e, a[0]),
    },
  ];
}

/** Commands that read the Buzzard cube, its driver or its recorder (in other sessions they refuse in one line). */
const BUZZARD_ONLY = new Set(['send', 'receive', 'load', 'trace', 'cam', 'queues', 'links', 'deadlock', 'messages', 'stats']);

export function cmdHelp(e: ReplEngine, topic: string | undefined): void {
  if (topic === undefined) {
    e.emit(e.c.bold(`icemu repl: a debugger over the ${e.bz ? `${e.cfg.n}-cube` : e.target.title} (${e.configName}); help <command> for details`));
    const only = (c: CommandDef): string => (!e.bz && BUZZARD_ONLY.has(c.name) && !e.ownCommands.has(c.name) ? '[Buzzard only] ' : '');
    const rows = e.commands.map((c) => [c.aliases.length ? `${c.name} (${c.aliases.join(', ')})` : c.name, only(c) + c.summary]);
    const w = Math.max(...rows.map((r) => r[0]!.length));
    for (const [a, b] of rows) e.emit(`  ${a!.padEnd(w)}  ${b}`);
    e.emit('Names are hierarchical (node3.pbu1.inState) with globs (* ? ** {a,b}); help expressions for conditions.');
    return;
  }
  if (topic === 'expressions' || topic === 'expr' || topic === 'conditions') {
    e.emit(
      'Conditions (break, run until, assert):',
      "  expr    := or;  or := and ('||' and)*;  and := compare ('&&' compare)*",
      "  compare := bitor (('==' | '!=' | '<' | '<=' | '>' | '>=') bitor)?",
      "  bitor   := bitxor ('|' bitxor)*;  bitxor := bitand ('^' bitand)*;  bitand := shift ('&' shift)*",
      "  shift   := unary (('<<' | '>>') unary)*;  unary := '!' unary | '~' unary | select",
      "  select  := operand ('[' bit (':' bit)? ']')*     (bits: x[3:0], x[5])",
      "  operand := number | name | '(' expr ')'   (! binds tightest; bitwise ops bind tighter than",
      '             comparisons, unlike C: x & 3 == 1 is (x & 3) == 1; ~ flips a signal within its width)',
      '  number  := 42 | 0x2a | 0b101010 (underscores allowed)',
      '  name    := signal or glob (node*.nip.count), memory word (node0.nip.fifo.mem[3]),',
      '             or a state name compared with an FSM register (node3.pbu1.inState == camLoad)',
      'A bare name is true when nonzero. A glob holds when any signal it matches does (the ones that',
      'made it hold are shown when it stops). No chains: write a < b && b < c.',
    );
    return;
  }
  const c = e.byName.get(topic);
  if (!c) {
    const near = nearestNames(topic, [...e.commandNames(), 'expressions']);
    throw new ReplError(`help: no command '${topic}'${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}`);
  }
  e.emit(`usage: ${c.usage}`, `  ${c.summary}`);
  if (c.aliases.length) e.emit(`  aliases: ${c.aliases.join(', ')}`);
  for (const h of c.help) e.emit(`  ${h}`);
}

export const quitCommand: CommandDef = {
      name: 'quit',
      aliases: ['exit', 'q'],
      usage: 'quit [status]',
      summary: 'leave (Ctrl-D too); with a status 0..255, exit with it (as gdb)',
      help: ['quit 3 ends the session (or a --script run) with exit status 3; plain quit with 0.'],
      arg: 'none',
      run: () => undefined,
    };
