/**
 * Which kernel tables an evaluation touches, and how many distinct 64-byte
 * lines of each a cycle costs (docs/kernel.md "Stop 22: kernel tables"): it
 * wraps the simulator's comb runner, reader marking and commit (through
 * `any`: a measuring tool, not an API; its timing means nothing), records
 * per cycle the processes run and the slots marked, and counts the lines of
 * each table those accesses fall in, for the parallel tables before stop 22
 * (group, group stamps, write-list starts, sweep bounds; comb write starts,
 * write list, old outputs) and the packed records after (Commit.rec, which
 * holds the group stamps too, and combRec). A line
 * counts once per cycle however often it is read (a model of a cache that
 * keeps a cycle's lines and nothing from the cycle before: at 32x32 each
 * node's lines are gone by the next cycle).
 *
 *   npx tsx bench/kernel_lines.ts [CASE WARMUP WINDOW]    (default node8 4500 200; CASE of bench/c104_cases.ts)
 */
import { buildC104Case, isC104Case } from './c104_cases.ts';

const [c = 'node8', warm = '4500', win = '200'] = process.argv.slice(2);
const fail = (msg: string): never => {
  console.error(`kernel_lines: ${msg}`);
  process.exit(2);
};
if (!isC104Case(c)) fail(`unknown case ${c}`);
const sim = await buildC104Case('.', c as never, +warm, +win, fail);
sim.step(+warm);
const S = sim as any;
const net = S.net;
const wake = S.wake;

// Per table, the lines touched this cycle (element index * bytes >> 6).
const tables = ['combWriteStart', 'combWrites', 'oldOut', 'combRec', 'combWritesMulti', 'oldOutMulti', 'seqGroup', 'seqWriteStart', 'seqSweep', 'commitRec', 'groupStamp', 'seqWriteList', 'readerIdx', 'readerList'] as const;
const BEFORE: T[] = ['combWriteStart', 'combWrites', 'oldOut', 'seqGroup', 'seqWriteStart', 'seqSweep', 'groupStamp', 'seqWriteList'];
const AFTER: T[] = ['combRec', 'combWritesMulti', 'oldOutMulti', 'commitRec', 'seqWriteList'];
type T = (typeof tables)[number];
const lines = new Map<T, Set<number>>(tables.map((t) => [t, new Set<number>()]));
const total = new Map<T, number>(tables.map((t) => [t, 0]));
const touch = (t: T, i: number, bytes: number): void => void lines.get(t)!.add((i * bytes) >> 6);
let combRuns = 0, seqRuns = 0, marks = 0;

const runComb = S.runComb;
S.runComb = (p: number): void => {
  combRuns++;
  const a = net.combWriteStart[p], b = net.combWriteStart[p + 1];
  touch('combWriteStart', p, 4);
  touch('combWriteStart', p + 1, 4);
  touch('combRec', 2 * p, 4);
  for (let k = a; k < b; k++) {
    touch('combWrites', k, 4);
    touch('oldOut', k, 8);
    if (b - a !== 1) touch('combWritesMulti', k, 4), touch('oldOutMulti', k, 8);
  }
  runComb(p);
};
const mark = wake.mark.bind(wake);
wake.mark = (x: number): void => {
  marks++;
  // The records of rtl/kernel/reader_index.ts (docs/kernel.md "Stop 24: kernel").
  const i = x < net.regBase ? 2 * x : (x + net.regBase) & ~1;
  touch('readerIdx', i, 4);
  const idx = wake.idx;
  const w = idx[i + 1];
  if (w !== 0 && w !== -1) for (let k = idx[i], e = k + (w & 0xffff) + 4 * (w >>> 16); k < e; k++) touch('readerList', k, 4);
  mark(x);
};
const leader = new Int32Array(net.nSeqGroups).fill(-1);
for (let p = 0; p < net.seq.length; p++) if (leader[net.seqGroup[p]] === -1) leader[net.seqGroup[p]] = p;
const commitActive = S.commitActive.bind(S);
S.commitActive = (): void => {
  const cm = S.commit;
  seqRuns += cm.nRan;
  const seen = new Set<number>();
  for (let k = 0; k < cm.nRan; k++) {
    const p = cm.ran[k];
    const g = net.seqGroup[p];
    touch('seqGroup', p, 4);
    touch('groupStamp', g, 4);
    touch('commitRec', 4 * p, 4);
    touch('commitRec', 4 * leader[g]! + 3, 4); // the group's stamp, in its first process's record
    if (seen.has(g)) continue; // its group was committed: the lists are not read
    seen.add(g);
    touch('seqWriteStart', p, 4);
    touch('seqWriteStart', p + 1, 4);
    touch('seqSweep', p, 4);
    for (let j = net.seqWriteStart[p]; j < net.seqWriteStart[p + 1]; j++) touch('seqWriteList', j, 4);
  }
  commitActive();
  for (const t of tables) {
    let n = lines.get(t)!.size;
    if (t === 'seqSweep') n *= 2; // seqSweepLo and seqSweepHi, two arrays
    total.set(t, total.get(t)! + n);
    lines.get(t)!.clear();
  }
};

const ev0 = S.evaluations;
sim.step(+win);
const evals = (S.evaluations - ev0) / +win;
const per = (t: T): number => total.get(t)! / +win;
console.log(`${c}: ${evals.toFixed(1)} evaluations per cycle (comb runs ${(combRuns / +win).toFixed(1)}, seq runs ${(seqRuns / +win).toFixed(1)}, slots marked ${(marks / +win).toFixed(1)})`);
for (const t of tables) console.log(`  ${t.padEnd(15)} ${per(t).toFixed(1).padStart(9)} lines per cycle`);
const sum = (ts: T[]): number => ts.reduce((a, t) => a + per(t), 0);
console.log(`  per-process tables, parallel arrays (before stop 22): ${sum(BEFORE).toFixed(1)} lines per cycle, ${(sum(BEFORE) / evals).toFixed(2)} per evaluation`);
console.log(`  per-process tables, packed records (stop 22): ${sum(AFTER).toFixed(1)} lines per cycle, ${(sum(AFTER) / evals).toFixed(2)} per evaluation`);
const wakeT: T[] = ['readerIdx', 'readerList'];
console.log(`  reader index: ${sum(wakeT).toFixed(1)} lines per cycle, ${(sum(wakeT) / evals).toFixed(2)} per evaluation`);
