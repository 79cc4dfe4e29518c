/**
 * A list of timed messages as a process program (harness/workloads/
 * process-program.ts), so that a workload given as "message i leaves node
 * src for node dst at time t with M bytes" reaches the T9000/C104 TLM as it
 * reaches the RTL's T9000 process driver (one blocking send issued at t,
 * the receive posted in advance): message i is sent by process 2i on its
 * source node, which then sleeps, to process 2i + 1 on its destination
 * node, which only receives (in 'async-blocking' mode an incoming message is
 * acknowledged at once, docs/thesis-model.md#process-model). Used by the
 * RTL cross-checks (harness/compare/c104.ts).
 */
import type { IterationPlan, ProcessProgram } from './process-program.ts';
import { Rng } from './rng.ts';

export interface TimedMessage {
  /** Send time, ns from the start of the run. */
  readonly t: number;
  /** Source and destination nodes, index y·D + x. */
  readonly src: number;
  readonly dst: number;
  readonly bytes: number;
}

/** Longer than any run: a process that has nothing more to do computes (sleeps) this long. */
const FOREVER_NS = 1e15;
const IDLE: IterationPlan = Object.freeze({ computeNs: FOREVER_NS, sends: Object.freeze([]) });

/**
 * The channel ends of a message list as the RTL cross-check opens them
 * (harness/compare/c104_rtl.ts): one channel per unordered pair of nodes that
 * talk, each end numbered per node from 0 in the order of the pair's first
 * message (by send time, then index). Per message: its source's and its
 * destination's end numbers.
 */
export function channelSlots(messages: readonly TimedMessage[]): { src: number; dst: number }[] {
  const used = new Map<number, number>();
  const pairs = new Map<string, Map<number, number>>();
  const order = messages.map((_, i) => i).sort((x, y) => messages[x]!.t - messages[y]!.t || x - y);
  const out: { src: number; dst: number }[] = new Array(messages.length);
  for (const i of order) {
    const m = messages[i]!;
    const key = `${Math.min(m.src, m.dst)},${Math.max(m.src, m.dst)}`;
    let ends = pairs.get(key);
    if (!ends) {
      ends = new Map();
      for (const n of [m.src, m.dst]) {
        const k = used.get(n) ?? 0;
        ends.set(n, k);
        used.set(n, k + 1);
      }
      pairs.set(key, ends);
    }
    out[i] = { src: ends.get(m.src)!, dst: ends.get(m.dst)! };
  }
  return out;
}

export function timedMessagesProgram(side: number, messages: readonly TimedMessage[]): ProcessProgram {
  const N = side * side;
  messages.forEach((m, i) => {
    for (const [k, v] of [['src', m.src], ['dst', m.dst]] as const) {
      if (!(Number.isInteger(v) && v >= 0 && v < N)) throw new RangeError(`timed messages: message ${i}: ${k} ${v} is outside 0..${N - 1}`);
    }
    if (!(Number.isInteger(m.bytes) && m.bytes >= 0 && m.bytes <= 65535)) throw new RangeError(`timed messages: message ${i}: bytes ${m.bytes} is outside 0..65535`);
    if (!(Number.isFinite(m.t) && m.t >= 0)) throw new RangeError(`timed messages: message ${i}: time ${m.t} must be ≥ 0`);
  });
  let cached: { src: number; dst: number }[] | null = null;
  const slots = (): { src: number; dst: number }[] => (cached ??= channelSlots(messages));
  return {
    name: 'timed-messages',
    params: { side, messages: messages.length },
    mode: 'async-blocking',
    side,
    processes: 2 * messages.length,
    nodeOf: (p) => (p % 2 === 0 ? messages[p >> 1]!.src : messages[p >> 1]!.dst),
    plan: (p, k) => (p % 2 === 0 && k === 0 ? { computeNs: 0, sends: [{ dest: p + 1, bytes: messages[p >> 1]!.bytes }] } : IDLE),
    startNs: (p) => (p % 2 === 0 ? messages[p >> 1]!.t : FOREVER_NS),
    incoming: () => 0,
    channelSlot: (p) => (p % 2 === 0 ? slots()[p >> 1]!.src : slots()[p >> 1]!.dst),
  };
}

export interface UniformLoadSpec {
  /** Mesh side D (D×D nodes). */
  readonly side: number;
  /** Offered load per node, in DS-link bandwidths (one data byte per 100 ns): Poisson sends of `bytes` bytes. */
  readonly load: number;
  readonly bytes: number;
  /** Sends are generated in [0, durationNs). */
  readonly durationNs: number;
  /**
   * Least time between two messages of one ordered pair (source,
   * destination), ns: a destination drawn too soon after the pair's last
   * message is drawn again (the RTL sends one pair's messages on one
   * virtual link, one after another; harness/compare/c104_rtl.ts).
   */
  readonly pairGapNs: number;
  readonly seed: number;
}

/** Uniform random traffic: each node sends to uniformly drawn other nodes at Poisson times. */
export function uniformTimedMessages(s: UniformLoadSpec): TimedMessage[] {
  const N = s.side * s.side;
  if (!(s.load > 0 && s.load <= 1)) throw new RangeError(`uniform load: load ${s.load} is outside (0, 1]`);
  const rng = new Rng(s.seed);
  const meanGap = (s.bytes * 100) / s.load;
  const last = new Map<number, number>();
  const out: TimedMessage[] = [];
  for (let src = 0; src < N; src++) {
    let t = -Math.log(1 - rng.nextFloat()) * meanGap;
    while (t < s.durationNs) {
      let dst = -1;
      for (let k = 0; k < 64 && dst < 0; k++) {
        const d = rng.nextInt(N - 1);
        const cand = d >= src ? d + 1 : d;
        if (t - (last.get(src * N + cand) ?? -Infinity) >= s.pairGapNs) dst = cand;
      }
      if (dst >= 0) {
        last.set(src * N + dst, t);
        out.push({ t: Math.round(t / 10) * 10, src, dst, bytes: s.bytes });
      }
      t += -Math.log(1 - rng.nextFloat()) * meanGap;
    }
  }
  return out.sort((a, b) => a.t - b.t || a.src - b.src);
}
