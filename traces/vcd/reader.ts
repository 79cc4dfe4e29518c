/**
 * A VCD parser (IEEE Std 1364-2005 §18.2), used by the tests to check what
 * the writer produced and what GTKWave's converters give back.
 *
 * It reads the header (`$date`, `$version`, `$timescale`, `$comment`, nested
 * `$scope`s of any type, `$var`s with their identifier code, width, type,
 * including GTKWave's `string`, and optional `[msb:lsb]` range) and the body
 * (`#time`, scalar changes `0`/`1`/`x`/`z` + code, vectors `b1010 code`, reals
 * `r1.5 code`, GTKWave strings `sVALUE code`, the `$dumpvars`/`$dumpall`/
 * `$dumpon`/`$dumpoff` sections and `$comment`s). It rejects what a conforming
 * file cannot contain: a value change for an undeclared code, time going
 * backwards, an unterminated command.
 *
 * Value changes are kept per identifier code; `changes(name)` lists them per
 * variable by full hierarchical name (scopes joined with '.', without the
 * range: `top.core.cnt.q`). Aliases (several vars with one code) share their
 * list. Values are kept as text without the type letter: '0', '1', 'x', 'z'
 * for scalars, the bits ('1010') for vectors, the string for strings;
 * `vcdValueToNumber` turns scalars and vectors into numbers.
 */
import * as fs from 'node:fs';

export interface VcdVar {
  /** `wire`, `reg`, `string`, `integer`, ... as declared. */
  type: string;
  width: number;
  /** Identifier code. */
  id: string;
  /** Reference as declared: `q`, `mem[3]`. */
  ref: string;
  /** Range as declared with spaces removed (`[7:0]`), or ''. */
  range: string;
  /** Scope path: `top.core.cnt`. */
  scope: string;
  /** Full hierarchical name without range: `top.core.cnt.q`. */
  name: string;
}

export interface VcdScope {
  /** `module`, `task`, `function`, `begin`, `fork` or a tool's extension. */
  type: string;
  name: string;
  /** Full path: `top.core`. */
  path: string;
  vars: VcdVar[];
  children: VcdScope[];
}

export interface VcdChange {
  time: number;
  value: string;
}

export interface VcdDump {
  date: string | undefined;
  version: string | undefined;
  /** As written, whitespace removed: '1ns'. */
  timescale: string | undefined;
  comments: string[];
  /** Top-level scopes. */
  scopes: VcdScope[];
  /** Every `$var`, in declaration order. */
  vars: VcdVar[];
  /** Value changes per identifier code, in file order (including `$dumpvars`). */
  byId: Map<string, VcdChange[]>;
  /** Time of the first `$dumpvars`, if any, and the values it set per code. */
  dumpvarsTime: number | undefined;
  dumpvars: Map<string, string>;
  /** Every timestamp, in order. */
  times: number[];
  /** Last timestamp. */
  endTime: number;
  /** The var with this full name (first declaration if repeated); throws if none. */
  variable(name: string): VcdVar;
  /** Value changes of the var with this full name; throws if none. */
  changes(name: string): VcdChange[];
  /** Full names of every var. */
  names(): string[];
}

export class VcdParseError extends Error {}

/** '0'/'1'/bit strings as a number; NaN for x/z (or anything else). */
export function vcdValueToNumber(v: string): number {
  if (!/^[01]+$/.test(v)) return NaN;
  return parseInt(v, 2);
}

export function readVcd(path: string): VcdDump {
  return parseVcd(fs.readFileSync(path, 'latin1'));
}

export function parseVcd(text: string): VcdDump {
  const tokens = text.split(/\s+/).filter((t) => t.length > 0);
  let k = 0;
  const fail = (msg: string): never => {
    throw new VcdParseError(`vcd: ${msg} (token ${k})`);
  };
  /** Tokens up to the next `$end`, which is consumed. */
  const untilEnd = (what: string): string[] => {
    const start = k;
    while (k < tokens.length && tokens[k] !== '$end') k++;
    if (k >= tokens.length) fail(`${what} without $end`);
    const body = tokens.slice(start, k);
    k++;
    return body;
  };

  const dump: VcdDump = {
    date: undefined,
    version: undefined,
    timescale: undefined,
    comments: [],
    scopes: [],
    vars: [],
    byId: new Map(),
    dumpvarsTime: undefined,
    dumpvars: new Map(),
    times: [],
    endTime: 0,
    variable(name) {
      const v = byName.get(name);
      if (!v) throw new VcdParseError(`vcd: no variable named '${name}'`);
      return v;
    },
    changes(name) {
      return dump.byId.get(dump.variable(name).id)!;
    },
    names() {
      return dump.vars.map((v) => v.name);
    },
  };
  const byName = new Map<string, VcdVar>();

  // ---- header (§18.2.3)
  const stack: VcdScope[] = [];
  let defsDone = false;
  while (k < tokens.length && !defsDone) {
    const t = tokens[k++]!;
    switch (t) {
      case '$date':
        dump.date = untilEnd('$date').join(' ');
        break;
      case '$version':
        dump.version = untilEnd('$version').join(' ');
        break;
      case '$timescale':
        dump.timescale = untilEnd('$timescale').join('');
        break;
      case '$comment':
        dump.comments.push(untilEnd('$comment').join(' '));
        break;
      case '$scope': {
        const body = untilEnd('$scope');
        if (body.length !== 2) fail(`$scope needs a type and a name, got '${body.join(' ')}'`);
        const parent = stack[stack.length - 1];
        const scope: VcdScope = { type: body[0]!, name: body[1]!, path: parent ? `${parent.path}.${body[1]}` : body[1]!, vars: [], children: [] };
        (parent ? parent.children : dump.scopes).push(scope);
        stack.push(scope);
        break;
      }
      case '$upscope':
        untilEnd('$upscope');
        if (!stack.length) fail('$upscope without $scope');
        stack.pop();
        break;
      case '$var': {
        const body = untilEnd('$var');
        if (body.length < 4) fail(`$var needs type, width, code and name, got '${body.join(' ')}'`);
        const width = Number(body[1]);
        if (!Number.isInteger(width) || width < 0) fail(`$var ${body[3]}: bad width '${body[1]}'`);
        const scope = stack[stack.length - 1];
        if (!scope) fail(`$var ${body[3]} outside any $scope`);
        const v: VcdVar = {
          type: body[0]!,
          width,
          id: body[2]!,
          ref: body[3]!,
          range: body.slice(4).join(''),
          scope: scope!.path,
          name: `${scope!.path}.${body[3]}`,
        };
        scope!.vars.push(v);
        dump.vars.push(v);
        if (!byName.has(v.name)) byName.set(v.name, v);
        if (!dump.byId.has(v.id)) dump.byId.set(v.id, []);
        break;
      }
      case '$enddefinitions':
        untilEnd('$enddefinitions');
        if (stack.length) fail(`$enddefinitions inside scope ${stack[stack.length - 1]!.path}`);
        defsDone = true;
        break;
      default:
        fail(`unexpected '${t}' in the header`);
    }
  }
  if (!defsDone) fail('no $enddefinitions');

  // ---- body (§18.2.3.8 and §18.2.3.1-5)
  let time = 0;
  let sawTime = false;
  let inDumpvars = false;
  const change = (id: string, value: string): void => {
    const list = dump.byId.get(id);
    if (!list) fail(`value change for undeclared code '${id}'`);
    if (!sawTime) fail(`value change for '${id}' before the first timestamp`);
    list!.push({ time, value });
    if (inDumpvars) dump.dumpvars.set(id, value);
  };
  while (k < tokens.length) {
    const t = tokens[k++]!;
    const c = t[0]!;
    if (c === '#') {
      const u = Number(t.slice(1));
      if (!Number.isInteger(u) || u < 0) fail(`bad timestamp '${t}'`);
      if (sawTime && u < time) fail(`time goes backwards: #${u} after #${time}`);
      time = u;
      sawTime = true;
      dump.times.push(u);
    } else if (t === '$dumpvars' || t === '$dumpall' || t === '$dumpon' || t === '$dumpoff') {
      if (t === '$dumpvars' && dump.dumpvarsTime === undefined) {
        dump.dumpvarsTime = time;
        inDumpvars = true;
      }
    } else if (t === '$end') {
      inDumpvars = false;
    } else if (t === '$comment') {
      dump.comments.push(untilEnd('$comment').join(' '));
    } else if (c === '0' || c === '1' || c === 'x' || c === 'X' || c === 'z' || c === 'Z') {
      if (t.length < 2) fail(`scalar change '${t}' without a code`);
      change(t.slice(1), c.toLowerCase());
    } else if (c === 'b' || c === 'B' || c === 'r' || c === 'R' || c === 's' || c === 'S') {
      const id = tokens[k++];
      if (id === undefined) fail(`'${t}' without a code`);
      const v = t.slice(1);
      change(id!, c === 'b' || c === 'B' ? v.toLowerCase() : v);
    } else {
      fail(`unexpected '${t}' in the value changes`);
    }
  }
  dump.endTime = time;
  return dump;
}
