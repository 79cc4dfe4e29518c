/**
 * Conditions of the debugger REPL (`break`, `run until`, `assert`): a small
 * hand-written parser, never `eval`.
 *
 * Grammar (precedence from loose to tight):
 *
 *   expr    := or
 *   or      := and ( '||' and )*
 *   and     := compare ( '&&' compare )*
 *   compare := bitor ( ( '==' | '!=' | '<' | '<=' | '>' | '>=' ) bitor )?
 *   bitor   := bitxor ( '|' bitxor )*
 *   bitxor  := bitand ( '^' bitand )*
 *   bitand  := shift ( '&' shift )*
 *   shift   := unary ( ( '<<' | '>>' ) unary )*
 *   unary   := '!' unary | '~' unary | select
 *   select  := operand ( '[' BIT ( ':' BIT )? ']' )*     bit select x[3:0], x[5]
 *   operand := NUMBER | NAME | '(' expr ')'
 *   NUMBER  := decimal 123 | hex 0x7b | binary 0b1111011   ('_' separators allowed)
 *   NAME    := a hierarchical signal name or glob (node3.pbu1.freeRows,
 *              node*.nip.fifo.count, node{1,2}.pbu?.inState), a memory word
 *              name[addr] (node0.nip.fifo.mem[3]), or, compared with an FSM
 *              register, one of its state names (node3.pbu1.inState == camLoad)
 *
 * Precedence is C's except for the bitwise operators: `!` and `~` bind
 * tightest (!a == 0 is (!a) == 0), then bit selects, shifts, &, ^, |, then
 * comparisons, then &&, then ||. Unlike C, `x & 3 == 1` means
 * `(x & 3) == 1` (as in Python): what a condition on bits wants. `~`
 * flips the bits of a signal or bit select within its width. A NAME[n]
 * is a memory word of a memory and bit n of a signal; NAME[hi:lo] the
 * bits hi..lo of a signal (or of a memory word: mem[3][7:0]). Values are
 * unsigned integers (up to 2^53). A bare
 * operand is true when nonzero; `!`, `&&`, `||` and comparisons give 0 or 1. A comparison chain (a < b < c) is
 * an error: write a < b && b < c. A glob stands for every signal it matches
 * and a comparison holds when it holds for at least one of them (for two
 * globs: for at least one pair); a bare glob is true when any match is
 * nonzero. When a condition holds, the signals that made it hold are the
 * "witnesses" reported with the stop.
 */

export type CmpOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

export type Expr =
  | { k: 'num'; v: number; pos: number }
  | { k: 'name'; text: string; pos: number; index?: number }
  | { k: 'not'; e: Expr; pos: number }
  | { k: 'and' | 'or'; a: Expr; b: Expr; pos: number }
  | { k: 'cmp'; op: CmpOp; a: Expr; b: Expr; pos: number }
  | { k: 'bit'; op: BitOp; a: Expr; b: Expr; pos: number }
  | { k: 'inv'; e: Expr; pos: number }
  | { k: 'sel'; e: Expr; hi: number; lo: number; pos: number };

export type BitOp = '&' | '|' | '^' | '<<' | '>>';

export class ExprError extends Error {
  constructor(
    message: string,
    readonly pos: number,
  ) {
    super(message);
    this.name = 'ExprError';
  }
}

interface Token {
  t: 'num' | 'name' | 'op' | '(' | ')' | 'sel' | 'end';
  s: string;
  pos: number;
  v?: number;
  index?: number;
  hi?: number;
  lo?: number;
}

const NAME_START = /[A-Za-z_*?{]/;
const NAME_CHAR = /[A-Za-z0-9_.*?]/;

/** Parse an integer literal: decimal, 0x hex, 0b binary, '_' separators. Returns undefined if malformed. */
export function parseInteger(text: string): number | undefined {
  const s = text.replace(/_/g, '');
  if (s === '' || text.startsWith('_') || text.endsWith('_')) return undefined;
  let v: number;
  if (/^0[xX][0-9a-fA-F]+$/.test(s)) v = parseInt(s.slice(2), 16);
  else if (/^0[bB][01]+$/.test(s)) v = parseInt(s.slice(2), 2);
  else if (/^[0-9]+$/.test(s)) v = Number(s);
  else return undefined;
  return Number.isSafeInteger(v) ? v : undefined;
}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    const two = src.slice(i, i + 2);
    if (two === '==' || two === '!=' || two === '<=' || two === '>=' || two === '&&' || two === '||' || two === '<<' || two === '>>') {
      out.push({ t: 'op', s: two, pos: i });
      i += 2;
      continue;
    }
    if (c === '<' || c === '>' || c === '!' || c === '&' || c === '|' || c === '^' || c === '~') {
      out.push({ t: 'op', s: c, pos: i });
      i++;
      continue;
    }
    if (c === '=') throw new ExprError(`'=' at column ${i + 1}: use == to compare`, i);
    if (c === '[') {
      const end = src.indexOf(']', i);
      if (end < 0) throw new ExprError(`unclosed '[' at column ${i + 1}`, i);
      out.push(selToken(src, i, end));
      i = end + 1;
      continue;
    }
    if (c === '(' || c === ')') {
      out.push({ t: c, s: c, pos: i });
      i++;
      continue;
    }
    if (/[0-9]/.test(c)) {
      let j = i;
      while (j < src.length && /[0-9A-Za-z_]/.test(src[j]!)) j++;
      const text = src.slice(i, j);
      const v = parseInteger(text);
      if (v === undefined) throw new ExprError(`bad number '${text}' at column ${i + 1} (write decimal 12, hex 0xc or binary 0b1100)`, i);
      out.push({ t: 'num', s: text, pos: i, v });
      i = j;
      continue;
    }
    if (NAME_START.test(c)) {
      let j = i;
      let depth = 0;
      while (j < src.length) {
        const d = src[j]!;
        if (d === '{') depth++;
        else if (d === '}') {
          if (depth === 0) break;
          depth--;
        } else if (d === ',' && depth > 0) {
          /* alternative separator inside braces */
        } else if (!NAME_CHAR.test(d)) break;
        j++;
      }
      if (depth > 0) throw new ExprError(`unclosed '{' in name at column ${i + 1}`, i);
      const text = src.slice(i, j);
      let index: number | undefined;
      const close = src.indexOf(']', j);
      if (src[j] === '[' && !(close > j && src.slice(j, close).includes(':'))) {
        const end = src.indexOf(']', j);
        if (end < 0) throw new ExprError(`unclosed '[' at column ${j + 1}`, j);
        const inner = src.slice(j + 1, end).trim();
        const v = parseInteger(inner);
        if (v === undefined) throw new ExprError(`bad memory address '${inner}' at column ${j + 2}`, j + 1);
        index = v;
        j = end + 1;
      }
      out.push({ t: 'name', s: text, pos: i, index });
      i = j;
      continue;
    }
    throw new ExprError(`unexpected '${c}' at column ${i + 1}`, i);
  }
  out.push({ t: 'end', s: '', pos: src.length });
  return out;
}

/** `[hi:lo]` or `[n]` from src[open] to src[end] (the ']'). */
function selToken(src: string, open: number, end: number): Token {
  const inner = src.slice(open + 1, end);
  const m = /^\s*([^:\s]+)\s*(?::\s*([^:\s]+)\s*)?$/.exec(inner);
  const hi = m ? parseInteger(m[1]!) : undefined;
  const lo = m ? (m[2] === undefined ? hi : parseInteger(m[2])) : undefined;
  if (hi === undefined || lo === undefined) throw new ExprError(`bad bit select '[${inner}]' at column ${open + 1}: write [hi:lo] or [bit]`, open);
  if (hi < lo) throw new ExprError(`bit select [${inner}] at column ${open + 1}: write the high bit first, [${lo}:${hi}]`, open);
  if (hi > 52) throw new ExprError(`bit select [${inner}] at column ${open + 1}: bits go up to 52`, open);
  return { t: 'sel', s: `[${inner}]`, pos: open, hi, lo };
}

const CMP_OPS = new Set(['==', '!=', '<', '<=', '>', '>=']);

/** Parse a condition; throws ExprError with the column of the problem. */
export function parseExpr(src: string): Expr {
  const toks = tokenize(src);
  let k = 0;
  const peek = (): Token => toks[k]!;
  const next = (): Token => toks[k++]!;
  const describe = (t: Token): string => (t.t === 'end' ? 'end of input' : `'${t.s}' at column ${t.pos + 1}`);

  const or = (): Expr => {
    let a = and();
    while (peek().t === 'op' && peek().s === '||') {
      const p = next().pos;
      a = { k: 'or', a, b: and(), pos: p };
    }
    return a;
  };
  const and = (): Expr => {
    let a = compare();
    while (peek().t === 'op' && peek().s === '&&') {
      const p = next().pos;
      a = { k: 'and', a, b: compare(), pos: p };
    }
    return a;
  };
  const unary = (): Expr => {
    const t = peek();
    if (t.t === 'op' && t.s === '!') {
      next();
      return { k: 'not', e: unary(), pos: t.pos };
    }
    if (t.t === 'op' && t.s === '~') {
      next();
      return { k: 'inv', e: unary(), pos: t.pos };
    }
    return select();
  };
  const binary = (ops: string[], sub: () => Expr) => (): Expr => {
    let a = sub();
    while (peek().t === 'op' && ops.includes(peek().s)) {
      const t = next();
      a = { k: 'bit', op: t.s as BitOp, a, b: sub(), pos: t.pos };
    }
    return a;
  };
  const select = (): Expr => {
    let e = operand();
    while (peek().t === 'sel') {
      const t = next();
      e = { k: 'sel', e, hi: t.hi!, lo: t.lo!, pos: t.pos };
    }
    return e;
  };
  const shift = binary(['<<', '>>'], () => unary());
  const bitand = binary(['&'], shift);
  const bitxor = binary(['^'], bitand);
  const bitor = binary(['|'], bitxor);
  const compare = (): Expr => {
    const a = bitor();
    const t = peek();
    if (t.t === 'op' && CMP_OPS.has(t.s)) {
      next();
      const b = bitor();
      const u = peek();
      if (u.t === 'op' && CMP_OPS.has(u.s)) throw new ExprError(`comparison chain at column ${u.pos + 1}: write a < b && b < c`, u.pos);
      return { k: 'cmp', op: t.s as CmpOp, a, b, pos: t.pos };
    }
    return a;
  };
  const operand = (): Expr => {
    const t = next();
    if (t.t === 'num') return { k: 'num', v: t.v!, pos: t.pos };
    if (t.t === 'name') return t.index === undefined ? { k: 'name', text: t.s, pos: t.pos } : { k: 'name', text: t.s, pos: t.pos, index: t.index };
    if (t.t === '(') {
      const e = or();
      const c = next();
      if (c.t !== ')') throw new ExprError(`expected ')' but found ${describe(c)}`, c.pos);
      return e;
    }
    throw new ExprError(`expected a signal name, a number or '(' but found ${describe(t)}`, t.pos);
  };

  if (peek().t === 'end') throw new ExprError('empty condition', 0);
  const e = or();
  const rest = peek();
  if (rest.t !== 'end') throw new ExprError(`unexpected ${describe(rest)}`, rest.pos);
  return e;
}

// ------------------------------------------------------------------ compiling

/** One readable value: a signal slot or a memory word. */
export interface Ref {
  /** Display name (full hierarchical path, with [addr] for memory words). */
  name: string;
  read(): number;
  /** Names of the FSM states (signals with `enum`), for `== stateName`. */
  states?: readonly string[];
  /** Width in bits (for ~ and bit selects); unknown: up to 53. */
  width?: number;
}

/**
 * Resolves a name (or glob) to the values it denotes; throws an Error with a
 * helpful message (near-name suggestions) when it matches nothing.
 */
export type Resolver = (name: string, index: number | undefined) => Ref[];

export interface Condition {
  readonly text: string;
  /** Every value the condition reads. */
  readonly refs: readonly Ref[];
  /** Evaluate now; `witness` (if given) receives the names that made comparisons hold. */
  test(witness?: string[]): boolean;
  /** The value(s) now: one per match of a glob (display). */
  values(): number[];
}

type Node = (w: string[] | undefined) => { values: number[]; refs: (Ref | null)[] };

/**
 * Compile a condition against a resolver. Enum state names are allowed as
 * the other side of a comparison with an FSM register.
 */
export function compileCondition(text: string, resolve: Resolver): Condition {
  const ast = parseExpr(text);
  const all: Ref[] = [];
  const constant = (v: number): Node => {
    const r = { values: [v], refs: [null] };
    return () => r;
  };
  const refsNode = (refs: Ref[]): Node => {
    for (const r of refs) if (!all.includes(r)) all.push(r);
    return () => ({ values: refs.map((r) => r.read()), refs });
  };
  const build = (e: Expr): Node => {
    switch (e.k) {
      case 'num':
        return constant(e.v);
      case 'name':
        return refsNode(resolve(e.text, e.index));
      case 'not': {
        const a = build(e.e);
        return (w) => constantResult(!truthy(a(w)) ? 1 : 0);
      }
      case 'and': {
        const a = build(e.a);
        const b = build(e.b);
        return (w) => constantResult(truthy(a(w)) && truthy(b(w)) ? 1 : 0);
      }
      case 'or': {
        const a = build(e.a);
        const b = build(e.b);
        return (w) => constantResult(truthy(a(w)) || truthy(b(w)) ? 1 : 0);
      }
      case 'bit': {
        const a = build(e.a);
        const b = build(e.b);
        const op = e.op;
        return (w) => {
          const x = a(w);
          const y = b(w);
          const values: number[] = [];
          const refs: (Ref | null)[] = [];
          for (let i = 0; i < x.values.length; i++) {
            for (let j = 0; j < y.values.length; j++) {
              values.push(bitOp(op, x.values[i]!, y.values[j]!));
              refs.push(x.refs[i] ?? y.refs[j] ?? null);
            }
          }
          return { values, refs };
        };
      }
      case 'inv': {
        const width = widthOf(e.e);
        if (width === undefined) throw new ExprError(`'~' at column ${e.pos + 1} needs a signal or a bit select (its width says which bits to flip); write x ^ 0xff`, e.pos);
        const a = build(e.e);
        const mask = 2 ** width - 1;
        return (w) => {
          const x = a(w);
          return { values: x.values.map((v) => mask - v), refs: x.refs };
        };
      }
      case 'sel': {
        const width = widthOf(e.e);
        if (width !== undefined && e.hi >= width) throw new ExprError(`bit select [${e.hi === e.lo ? e.hi : `${e.hi}:${e.lo}`}] at column ${e.pos + 1}: the value has ${width} bit${width === 1 ? '' : 's'} (0..${width - 1})`, e.pos);
        const a = build(e.e);
        const span = 2 ** (e.hi - e.lo + 1);
        const lo = 2 ** e.lo;
        return (w) => {
          const x = a(w);
          return { values: x.values.map((v) => Math.floor(v / lo) % span), refs: x.refs };
        };
      }
      case 'cmp': {
        const [a, b] = buildPair(e.a, e.b);
        const op = e.op;
        return (w) => {
          const x = a(w);
          const y = b(w);
          for (let i = 0; i < x.values.length; i++) {
            for (let j = 0; j < y.values.length; j++) {
              if (compare(op, x.values[i]!, y.values[j]!)) {
                if (w) {
                  const rx = x.refs[i];
                  const ry = y.refs[j];
                  if (rx) w.push(witness(rx, rx.read()));
                  if (ry) w.push(witness(ry, ry.read()));
                }
                return constantResult(1);
              }
            }
          }
          return constantResult(0);
        };
      }
    }
  };
  /** Operands of a comparison: a name that is not a signal may be a state name of the other side's FSM register. */
  const buildPair = (ea: Expr, eb: Expr): [Node, Node] => {
    const tryState = (name: Expr, other: Expr): Node | undefined => {
      if (name.k !== 'name' || name.index !== undefined || other.k !== 'name') return undefined;
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name.text)) return undefined;
      let otherRefs: Ref[];
      try {
        otherRefs = resolve(other.text, other.index);
      } catch {
        return undefined;
      }
      const states = otherRefs[0]?.states;
      if (!states || !otherRefs.every((r) => r.states === states || (r.states && r.states.join() === states.join()))) return undefined;
      const k = states.indexOf(name.text);
      if (k < 0) return undefined;
      try {
        resolve(name.text, undefined);
        return undefined; // a real signal of that name wins
      } catch {
        return constant(k);
      }
    };
    const sa = tryState(ea, eb);
    const sb = sa ? undefined : tryState(eb, ea);
    const na = sa ?? build(ea);
    const nb = sb ?? build(eb);
    return [na, nb];
  };
  /** The width of a name (widest match) or a bit select; undefined for numbers and computed values. */
  const widthOf = (e: Expr): number | undefined => {
    if (e.k === 'sel') return e.hi - e.lo + 1;
    if (e.k !== 'name') return undefined;
    const ws = resolve(e.text, e.index).map((r) => r.width);
    return ws.every((x) => x !== undefined) ? Math.max(...(ws as number[])) : undefined;
  };
  const root = build(ast);
  return {
    text,
    refs: all,
    test(witness?: string[]) {
      return truthy(root(witness));
    },
    values() {
      return root(undefined).values;
    },
  };
}

/** `name = 9 (camLoad)`: a value as reported with a stop. */
export function witness(r: Ref, v: number): string {
  const st = r.states?.[v];
  return st === undefined ? `${r.name} = ${v}` : `${r.name} = ${v} (${st})`;
}

const constantResult = (v: number): { values: number[]; refs: (Ref | null)[] } => ({ values: [v], refs: [null] });

function truthy(r: { values: number[] }): boolean {
  for (const v of r.values) if (v !== 0) return true;
  return false;
}

function bitOp(op: BitOp, a: number, b: number): number {
  const x = BigInt(a);
  const y = BigInt(b);
  let r: bigint;
  switch (op) {
    case '&':
      r = x & y;
      break;
    case '|':
      r = x | y;
      break;
    case '^':
      r = x ^ y;
      break;
    case '<<':
      r = b > 53 ? 0n : x << y;
      break;
    case '>>':
      r = b > 53 ? 0n : x >> y;
      break;
  }
  return Number(r & 0x1f_ffff_ffff_ffffn);
}

function compare(op: CmpOp, a: number, b: number): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}
