/**
 * The result of a Buzzard TLM run (types.ts): per-message times, link and
 * node-input-port busy time, run statistics, the resource report (where
 * messages waited), the deadlock report and the event trace.
 */
import type { TraceEvent, TraceHeader } from '../../traces/events/vocabulary.ts';
import { idealLinkUtilisation } from '../models/buzzard.ts';
import { describeWorkload, hops } from '../workloads/types.ts';
import type { BuzzardTlm } from './buzzard-tlm.ts';
import type { BroadcastTimes, MessageTimes, StuckPbu, TlmResources, TlmResult, TlmStats } from './types.ts';

/** Where messages waited, per dimension (types.ts TlmResources). */
function resources(sim: BuzzardTlm, makespan: number, linkBusy: Float64Array, linkHeld: Float64Array): TlmResources {
  const { n, N, M } = sim;
  const bySlot = new Array<number>(n).fill(0);
  const waitSum = new Array<number>(n).fill(0);
  let wSum = 0;
  let netSum = 0;
  let cnt = 0;
  for (let m = 0; m < M; m++) {
    const inj = sim.mInj[m]!;
    if (Number.isNaN(inj) || Number.isNaN(sim.mFirst[m]!)) continue;
    const d = sim.mDim[m]! - 1;
    bySlot[d]!++;
    waitSum[d]! += inj - sim.mT[m]!;
    wSum += inj - sim.mT[m]!;
    netSum += sim.mFirst[m]! - inj;
    cnt++;
  }
  const full = new Array<number>(n).fill(0);
  const occ = new Array<number>(n).fill(0);
  const link = new Array<number>(n).fill(0);
  const T = makespan > 0 ? makespan : 1;
  for (let x = 0; x < N; x++) {
    for (let i = 0; i < n; i++) {
      const p = x * n + i;
      const rest = Math.max(0, makespan - sim.pLastT[p]!); // since the last change, up to the makespan
      const free = sim.pFree[p]!;
      full[i]! += (sim.pFullInt[p]! + (free === 0 ? rest : 0)) / T / N;
      occ[i]! += (sim.pOccInt[p]! + (sim.B - free) * rest) / T / N;
      link[i]! += (sim.worm ? linkHeld[p]! : linkBusy[p]!) / T / N;
    }
  }
  return {
    messagesBySlot: bySlot,
    sourceWaitBySlot: waitSum.map((w, i) => (bySlot[i]! > 0 ? w / bySlot[i]! : null)),
    meanSourceWait: cnt ? wSum / cnt : NaN,
    meanInNetworkFirst: cnt ? netSum / cnt : NaN,
    pbuFullFraction: sim.worm ? full.map(() => 0) : full,
    pbuMeanOccupancy: sim.worm ? occ.map(() => 0) : occ,
    linkBusyFraction: link,
  };
}

export function tlmResult(sim: BuzzardTlm): TlmResult {
  const { n, n1, N, M } = sim;
  const perMessage: MessageTimes[] = new Array(M);
  let sumF = 0;
  let sumL = 0;
  let maxF = 0;
  let maxL = 0;
  let cnt = 0;
  let makespan = 0;
  for (let m = 0; m < M; m++) {
    const first = sim.mFirst[m]! - sim.mT[m]!;
    const last = sim.mLast[m]! - sim.mT[m]!;
    perMessage[m] = { first, last };
    if (!Number.isNaN(last)) {
      cnt++;
      sumF += first;
      sumL += last;
      if (first > maxF) maxF = first;
      if (last > maxL) maxL = last;
      if (sim.mLast[m]! > makespan) makespan = sim.mLast[m]!;
    }
  }
  const linkBusy = new Float64Array(N * n);
  const linkHeld = new Float64Array(N * n);
  const nipBusy = new Float64Array(N);
  let busySum = 0;
  for (let x = 0; x < N; x++) {
    nipBusy[x] = sim.busy[x * n1]!;
    if (sim.perLink) for (let i = 1; i <= n; i++) nipBusy[x] += sim.busy[N * n1 + x * n + i - 1]!;
    for (let i = 1; i <= n; i++) {
      const b = sim.busy[x * n1 + i]!;
      linkBusy[x * n + i - 1] = b;
      linkHeld[x * n + i - 1] = sim.worm ? sim.held[x * n1 + i]! : b;
      busySum += b;
    }
  }
  const lastGeneration = M > 0 ? sim.mT[M - 1]! : 0;
  const ideal =
    lastGeneration > 0
      ? idealLinkUtilisation({
          n,
          lastGenerationTicks: lastGeneration,
          ticksPerByte: sim.tpb,
          messages: sim.w.messages.map((m) => ({ lengthBytes: m.bytes, hops: hops(m.src, m.dst) })),
        })
      : null;
  let inBuffers = 0;
  const pbus: StuckPbu[] = [];
  for (let p = 0; p < sim.pLen.length; p++) {
    const len = sim.pLen[p]!;
    inBuffers += len;
    if (len === 0 || sim.deliveredCount === M) continue;
    const packets = [];
    for (let k = 0; k < len; k++) {
      const b = sim.pList[p * sim.B + k]!;
      packets.push({ msg: sim.bMsg[b]!, packet: sim.bPkt[b]!, nextPort: sim.bNext[b]!, contrary: sim.bContr[b] === 1 });
    }
    pbus.push({ node: (p / n) | 0, pbu: (p % n) + 1, free: sim.pFree[p]!, packets });
  }
  const deadlock = sim.deliveredCount < M ? { at: sim.now, undeliveredMessages: M - sim.deliveredCount, packetsInBuffers: inBuffers, pbus } : null;
  const report = resources(sim, makespan, linkBusy, linkHeld);
  const stats: TlmStats = {
    transport: sim.cfg.transport,
    messages: M,
    delivered: sim.deliveredCount,
    packets: sim.mNPk.subarray(0, M).reduce((a, b) => a + b, 0),
    contraryMessages: sim.contraryMessages,
    orderViolations: sim.orderViolations,
    eventsProcessed: sim.processed,
    lastGeneration,
    makespan,
    meanFirst: cnt ? sumF / cnt : NaN,
    meanLast: cnt ? sumL / cnt : NaN,
    maxFirst: maxF,
    maxLast: maxL,
    meanLastMinusFirst: cnt ? (sumL - sumF) / cnt : NaN,
    idealLinkUtilisation: ideal,
    measuredLinkUtilisation: makespan > 0 ? busySum / (N * n * makespan) : 0,
    deadlock,
    resources: report,
  };
  const header: TraceHeader = {
    format: 'icemu-events',
    version: 1,
    model: 'tlm',
    unit: sim.w.unit,
    workload: { ...describeWorkload(sim.w), tlm: { ...sim.cfg } },
  };
  let events: TraceEvent[] | undefined;
  if (sim.rec) {
    events = sim.events;
    events.sort((a, b) => a.t - b.t); // stable: equal times keep emission order
  }
  const broadcasts: BroadcastTimes[] = [];
  sim.bcOf.forEach((b, m) => {
    if (b < 0) return;
    const N = sim.N;
    const first = new Float64Array(N).fill(NaN);
    const last = new Float64Array(N).fill(NaN);
    for (let y = 0; y < N; y++) {
      if (y === sim.mSrc[m]) continue;
      first[y] = sim.bcFirst[b * N + y]! - sim.mT[m]!;
      last[y] = sim.bcLast[b * N + y]! - sim.mT[m]!;
    }
    broadcasts.push({ msg: m, first, last });
  });
  return { broadcasts, events, header, perMessage, firstAt: sim.mFirst, lastAt: sim.mLast, linkBusy, linkHeld, nipBusy, stats, config: sim.cfg };
}
/** Message m's receive completion flag written (config.receiveFlagTicks after its last byte), ticks after queueing; NaN if undelivered. */
export function receiveComplete(r: TlmResult, m: number): number {
  return r.perMessage[m]!.last + r.config.receiveFlagTicks;
}
