/**
 * The REPL's condition language (harness/repl/expr.ts): literals,
 * precedence, glob semantics, state names, errors with columns, and a
 * property: random well-formed conditions evaluate like a reference
 * evaluator, and random text never throws anything but a clear error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileCondition, ExprError, parseExpr, parseInteger, type Ref, type Resolver } from '../../harness/repl/expr.ts';

/** A fake design: names -> values; globs with '*' over the names. */
function resolverOf(values: Record<string, number>, states: Record<string, readonly string[]> = {}): Resolver {
  return (name, index) => {
    // Escape every regex metacharacter but `*` (a name may hold `{1}` etc.: the property feeds arbitrary text).
    const re = new RegExp(`^${name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^.]*')}$`);
    const hits = Object.keys(values).filter((k) => re.test(k));
    if (!hits.length) throw new Error(`no signal named '${name}'`);
    if (index !== undefined) throw new Error(`${name} is not a memory`);
    return hits.map((k): Ref => (states[k] ? { name: k, read: () => values[k]!, states: states[k], width: 8 } : { name: k, read: () => values[k]!, width: 8 }));
  };
}

const test = (text: string, values: Record<string, number>, states?: Record<string, readonly string[]>): boolean => compileCondition(text, resolverOf(values, states)).test();

describe('REPL condition parser', () => {
  it('reads integers in decimal, hex and binary with _ separators', () => {
    expect(parseInteger('42')).toBe(42);
    expect(parseInteger('0x2A')).toBe(42);
    expect(parseInteger('0b10_1010')).toBe(42);
    expect(parseInteger('1_000')).toBe(1000);
    for (const bad of ['', '_1', '1_', '0x', '0b2', '12a', '-1', '1e3', '9007199254740993']) expect(parseInteger(bad)).toBeUndefined();
  });

  it('has C precedence: ! over comparisons over && over ||; parentheses override', () => {
    const v = { a: 0, b: 1, c: 2 };
    expect(test('!a == 1', v)).toBe(true); // (!a) == 1
    expect(test('!(a == 1)', v)).toBe(true);
    expect(test('a || b && c', v)).toBe(true); // a || (b && c)
    expect(test('(a || b) && a', v)).toBe(false);
    expect(test('b < c && c <= 2 && c >= 2 && c > b && a != b && c == 0x2', v)).toBe(true);
    expect(test('a', v)).toBe(false);
    expect(test('!!c', v)).toBe(true);
  });

  it('a glob holds when any match holds, and names the witnesses', () => {
    const v = { 'n0.count': 3, 'n1.count': 14, 'n2.count': 5 };
    const cond = compileCondition('n*.count > 12', resolverOf(v));
    const w: string[] = [];
    expect(cond.test(w)).toBe(true);
    expect(w).toEqual(['n1.count = 14']);
    expect(test('n*.count > 20', v)).toBe(false);
    expect(test('n*.count == n0.count', v)).toBe(true);
    expect(cond.refs.map((r) => r.name)).toEqual(['n0.count', 'n1.count', 'n2.count']);
  });

  it('compares FSM registers with state names', () => {
    const states = { 'pbu.inState': ['start', 'latchSlot', 'waitStart'] as const };
    expect(test('pbu.inState == waitStart', { 'pbu.inState': 2 }, states)).toBe(true);
    expect(test('latchSlot != pbu.inState', { 'pbu.inState': 2 }, states)).toBe(true);
    expect(() => test('pbu.inState == bogus', { 'pbu.inState': 2 }, states)).toThrow(/no signal named 'bogus'/);
  });

  it('rejects bad input with one clear message and a column', () => {
    const cases: [string, RegExp][] = [
      ['', /empty condition/],
      ['a = 1', /'=' at column 3: use == to compare/],
      ['a &', /expected a signal name, a number or '\(' but found end of input/],
      ['a[3:5] == 1', /bit select \[3:5\] at column 2: write the high bit first, \[5:3\]/],
      ['a[x:0]', /bad bit select '\[x:0\]' at column 2/],
      ['a[60:0]', /bits go up to 52/],
      ['a[2', /unclosed '\['/],
      ['a < b < c', /comparison chain at column 7/],
      ['(a == 1', /expected '\)' but found end of input/],
      ['a == 1)', /unexpected '\)' at column 7/],
      ['a ==', /expected a signal name, a number or '\(' but found end of input/],
      ['12ab == 3', /bad number '12ab' at column 1/],
      ['a @ b', /unexpected '@' at column 3/],
      ['mem[x] == 1', /bad memory address 'x'/],
      ['n{0,1.count', /unclosed '\{'/],
    ];
    for (const [src, re] of cases) {
      let err: unknown;
      try {
        parseExpr(src);
      } catch (e) {
        err = e;
      }
      expect(err, src).toBeInstanceOf(ExprError);
      expect((err as Error).message, src).toMatch(re);
    }
  });

  it('bitwise operators bind tighter than comparisons; ~ flips within the width; bit selects', () => {
    const v = { x: 0b1011_0110, y: 3 };
    expect(test('x & 3 == 2', v)).toBe(true); // (x & 3) == 2, not x & (3 == 2)
    expect(test('x[3:0] == 6 && x[7:4] == 0xb', v)).toBe(true);
    expect(test('x[0:0] == 0 && x[1:1] == 1', v)).toBe(true); // x[1] is the resolver's: a memory word or a signal's bit
    expect(test('~x == 0b0100_1001', v)).toBe(true); // 8 bits wide
    expect(test('~x[3:0] == 9', v)).toBe(true);
    expect(test('(x >> 4) == 11 && (y << 2) == 12 && (x ^ 0xff) == 0x49 && (y | 4) == 7', v)).toBe(true);
    expect(test('(x & y)[1:0] == 2', v)).toBe(true);
    expect(() => test('x[8:8] == 1', v)).toThrow(/the value has 8 bits \(0\.\.7\)/);
    expect(() => test('~3 == 1', v)).toThrow(/'~' at column 1 needs a signal or a bit select/);
  });

  it('property: bitwise expressions evaluate like BigInt arithmetic', () => {
    const ops = ['&', '|', '^', '<<', '>>'] as const;
    fc.assert(
      fc.property(fc.nat(255), fc.nat(255), fc.constantFrom(...ops), fc.nat(7), fc.nat(7), fc.nat(600), (x, y, op, a, b, k) => {
        const [hi, lo] = a >= b ? [a, b] : [b, a];
        const yy = op === '<<' || op === '>>' ? y % 9 : y;
        const big = (p: bigint, q: bigint): bigint => (op === '&' ? p & q : op === '|' ? p | q : op === '^' ? p ^ q : op === '<<' ? p << q : p >> q);
        const want = Number(big(BigInt((x >> lo) & ((1 << (hi - lo + 1)) - 1)), BigInt(yy)));
        expect(test(`(x[${hi}:${lo}] ${op} ${yy}) == ${want}`, { x })).toBe(true);
        expect(test(`(x[${hi}:${lo}] ${op} ${yy}) == ${want + 1 + (k % 3)}`, { x })).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('property: random conditions evaluate like a reference evaluator', () => {
    const names = ['x', 'y', 'z'];
    type E = { s: string; ev: (v: Record<string, number>) => number };
    const leaf: fc.Arbitrary<E> = fc.oneof(
      fc.constantFrom(...names).map((n) => ({ s: n, ev: (v: Record<string, number>) => v[n]! })),
      fc.nat(20).chain((k) =>
        fc.constantFrom(
          { s: String(k), ev: () => k },
          { s: `0x${k.toString(16)}`, ev: () => k },
          { s: `0b${k.toString(2)}`, ev: () => k },
        ),
      ),
    );
    const cmp = ['==', '!=', '<', '<=', '>', '>='] as const;
    const cmpFn = (op: (typeof cmp)[number], a: number, b: number): boolean =>
      op === '==' ? a === b : op === '!=' ? a !== b : op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
    const { expr } = fc.letrec<{ expr: E; comp: E; un: E }>((tie) => ({
      un: fc.oneof({ depthSize: 'small' }, leaf, tie('un').map((e) => ({ s: `!${e.s}`, ev: (v: Record<string, number>) => (e.ev(v) ? 0 : 1) })), tie('expr').map((e) => ({ s: `(${e.s})`, ev: e.ev }))),
      comp: fc.oneof(
        { depthSize: 'small' },
        tie('un'),
        fc.tuple(tie('un'), fc.constantFrom(...cmp), tie('un')).map(([a, op, b]) => ({ s: `${a.s} ${op} ${b.s}`, ev: (v: Record<string, number>) => (cmpFn(op, a.ev(v), b.ev(v)) ? 1 : 0) })),
      ),
      expr: fc.oneof(
        { depthSize: 'small' },
        tie('comp'),
        fc.tuple(tie('comp'), fc.constantFrom('&&', '||'), tie('comp')).map(([a, op, b]) => ({
          s: `${a.s} ${op} ${b.s}`,
          ev: (v: Record<string, number>) => (op === '&&' ? (a.ev(v) && b.ev(v) ? 1 : 0) : a.ev(v) || b.ev(v) ? 1 : 0),
        })),
      ),
    }));
    fc.assert(
      fc.property(expr, fc.record({ x: fc.nat(20), y: fc.nat(20), z: fc.nat(20) }), (e, v) => {
        expect(test(e.s, v)).toBe(e.ev(v) !== 0);
      }),
      { numRuns: 400 },
    );
  });

  it('property: arbitrary text gives an ExprError or a resolver error, never anything else', () => {
    const alphabet = fc.constantFrom(...'ab.*(){}[]!=<>&|^~:0x1_ 9'.split(''));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 24 }), (chars) => {
        const src = chars.join('');
        try {
          compileCondition(src, resolverOf({ a: 1, b: 2, 'a.b': 3 })).test();
        } catch (e) {
          expect(e instanceof ExprError || (e instanceof Error && /no signal named|not a memory/.test(e.message)), `${src}: ${String(e)}`).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
