/**
 * Heap for big cubes (issue 8: `icemu buzzard --n 10` must elaborate and
 * run). A Buzzard 10-cube is 1,024 nodes, about 1.5 million signals; its
 * elaboration needs more JavaScript heap than Node's default limit (about 4 GB
 * on this machine), and died with "JavaScript heap out of memory". The CLI
 * raises the limit itself: when a command asks for a cube of degree 9 or 10
 * and the running process's limit is smaller than the estimate below, it
 * runs itself again with `--max-old-space-size` and passes the exit status
 * on. Setting NODE_OPTIONS=--max-old-space-size=… yourself works too (the
 * re-run is skipped when the limit already suffices).
 *
 * The same holds for big C104 meshes (`icemu c104 mesh --width W --height H`):
 * a 32×32 mesh of T9000s and C104s with real DS-links is about 9.9 million
 * signals and peaked at 9.5 GB (issue 10's Table 3.1 run); with Node's
 * default limit its elaboration died without a word.
 */
import { spawnSync } from 'node:child_process';
import v8 from 'node:v8';

/** Heap (MB) a Buzzard cube of degree n needs: measured ~6.5 GB for n = 10 (2.7 GB at n = 9 by scaling), with headroom. */
export function heapNeededMb(n: number): number {
  return n >= 10 ? 12_288 : n === 9 ? 6_144 : 0;
}

/** Heap (MB) a C104 mesh of `nodes` T9000 + C104 nodes needs: ~9.5 GB measured at 32×32, so 12 MB a node with headroom; none up to 16×16. */
export function c104HeapNeededMb(nodes: number): number {
  return nodes > 256 ? Math.min(20_480, Math.ceil(nodes * 12)) : 0;
}

/** Value of `--name V` or `--name=V` on a command line, if given. */
function optionValue(argv: readonly string[], name: string): string | undefined {
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k]!;
    if (a === name) return argv[k + 1];
    if (a.startsWith(name + '=')) return a.slice(name.length + 1);
  }
  return undefined;
}

/** Heap (MB) a command line needs beyond Node's default: big cubes and big C104 meshes; 0 when the default is fine. */
export function heapNeededForArgs(argv: readonly string[]): number {
  if (argv[0] === 'c104') {
    // Defaults of icemu c104 (harness/commands/c104.ts): a 3×3 mesh.
    const w = Number(optionValue(argv, '--width') ?? 3);
    const h = Number(optionValue(argv, '--height') ?? 3);
    return Number.isInteger(w) && Number.isInteger(h) ? c104HeapNeededMb(w * h) : 0;
  }
  const n = cubeDegree(argv);
  return n !== undefined && Number.isInteger(n) ? heapNeededMb(n) : 0;
}

/** The cube degree a command line asks for (`--n N` or `--n=N`), if any. */
function cubeDegree(argv: readonly string[]): number | undefined {
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k]!;
    if (a === '--n') return Number(argv[k + 1]);
    if (a.startsWith('--n=')) return Number(a.slice(4));
  }
  return undefined;
}

/**
 * If this command line needs a bigger heap than the process has, run it again
 * in a child with one and return its exit status; otherwise undefined (go on
 * in this process).
 */
export function rerunWithHeap(argv: readonly string[]): number | undefined {
  const need = heapNeededForArgs(argv);
  const have = v8.getHeapStatistics().heap_size_limit / 2 ** 20;
  if (need === 0 || have >= need || process.env.ICEMU_HEAP_RERUN === '1') return undefined;
  const r = spawnSync(process.execPath, [...process.execArgv, `--max-old-space-size=${need}`, process.argv[1]!, ...argv], {
    stdio: 'inherit',
    env: { ...process.env, ICEMU_HEAP_RERUN: '1' },
  });
  if (r.error) throw r.error;
  return r.status ?? (r.signal ? 128 + 2 : 1);
}
