/**
 * Elaboration: turn a module tree into a flat netlist.
 *
 * 1. Name every module, signal and memory hierarchically; reject duplicates.
 * 2. Merge connected signals into nets (union-find) and find each net's one
 *    driver: a register, a comb process output, a constant tie, or (for the
 *    root module's inputs) the outside world. Reject nets with several drivers
 *    and module inputs with none.
 * 3. Lay the nets out in one state vector: wires [0, W), register current
 *    values [W, W+R), register next values [W+R, W+2R).
 * 4. Order the comb processes so each runs after the processes that drive what
 *    it reads (comb_order.ts); a cycle is a combinational loop and is reported as the ring of
 *    wire names.
 * 5. Build reader lists (slot -> processes) for activity-driven evaluation.
 */
import { combOrder, findCycle } from './comb_order.ts';
import { lateMems, type LateMems } from './late_mems.ts';
import { ElaborationError } from './errors.ts';
import { type GuardedReads, Memory, Module, type ProcessDecl, Signal } from './module.ts';

export type DriverKind = 'reg' | 'comb' | 'tie' | 'external' | 'none';

export interface Netlist {
  root: Module;
  modules: Module[];
  signals: Signal[];
  memories: Memory[];
  nWires: number;
  nRegs: number;
  /**
   * Register r's current value is in slot regBase + 2r and its next value
   * beside it, in regBase + 2r + 1 (one cache line for the pair the commit
   * compares and a process reads and writes: docs/kernel.md "Stop 20: state
   * layout").
   */
  regBase: number;
  /** Slot count including next values: nWires + 2 nRegs. */
  size: number;
  /**
   * Per slot: width mask (next-value slots too), canonical (driver) signal,
   * aliases, driver kind (current-value slots; a next-value slot has no
   * signal, no alias, driver kind 'none').
   */
  slotMask: Float64Array;
  slotSignal: Signal[];
  /** Built on first use (the REPL's `print`): not kept for every design. */
  readonly slotAliases: Signal[][];
  slotDriver: DriverKind[];
  /** Comb process that drives a slot, or -1. */
  slotCombDriver: Int32Array;
  /** Register index r -> its signal (slot regBase + 2r). */
  regSignals: Signal[];
  tieSlots: Int32Array;
  tieValues: Float64Array;
  comb: ProcessDecl[];
  seq: ProcessDecl[];
  /** Per seq process: the register range [seqRegLo, seqRegHi) of its module (register indices, not slots). */
  seqRegLo: Int32Array;
  seqRegHi: Int32Array;
  /**
   * What the commit visits when seq process p ran (register indices): its
   * declared `writes`, as a CSR list seqWriteList[seqWriteStart[p] ..
   * seqWriteStart[p+1]), or else its module's whole register range
   * [seqSweepLo[p], seqSweepHi[p]) (empty for a process with a list), swept
   * without a list. Processes of one module without declared writes share a
   * commit group (seqGroup), so a commit visits their range once however
   * many of them ran.
   */
  seqWriteStart: Int32Array;
  seqWriteList: Int32Array;
  seqSweepLo: Int32Array;
  seqSweepHi: Int32Array;
  seqGroup: Int32Array;
  nSeqGroups: number;
  /** CSR: comb process p writes slots combWrites[combWriteStart[p] .. combWriteStart[p+1]). */
  combWriteStart: Int32Array;
  combWrites: Int32Array;
  /** CSR over slots: readers of each slot (a next-value slot has none). */
  combReaderStart: Int32Array;
  combReaders: Int32Array;
  seqReaderStart: Int32Array;
  seqReaders: Int32Array;
  /**
   * Guarded readers (GuardedReads), CSR over slots: entry k of
   * slot x wakes process guardProc[k] when bit s[guardSlot[k]] of
   * guardMask[k] is set. Comb and seq readers in separate lists.
   */
  combGuardStart: Int32Array;
  combGuardProc: Int32Array;
  combGuardSlot: Int32Array;
  combGuardMask: Int32Array;
  /** 1: a `bits` guard (wake while s[guardSlot] & guardMask); 0: an `is` list (bit s[guardSlot] of guardMask). */
  combGuardBits: Uint8Array;
  seqGuardStart: Int32Array;
  seqGuardProc: Int32Array;
  seqGuardSlot: Int32Array;
  seqGuardMask: Int32Array;
  seqGuardBits: Uint8Array;
  /** Per memory: comb and seq readers. */
  memCombReaders: Int32Array[];
  memSeqReaders: Int32Array[];
  /**
   * Per memory: its comb readers at one address (CombOptions.readsAt), as
   * pairs (comb process, address slot); not in memCombReaders.
   */
  memAtReaders: Int32Array[];
  /** Late memory reads of seq processes (readsWhen `mems`; late_mems.ts). */
  lateMems: LateMems;
  /** Every signal and memory by hierarchical name; built on first use. */
  readonly byName: Map<string, Signal | Memory>;
  modulesByPath: Map<string, Module>;
}

export function elaborate(root: Module): Netlist {
  if (root.parent) throw new ElaborationError('bad-name', `elaborate the root module, not ${root.localPath()}`);
  if (root.elaborated) throw new ElaborationError('already-elaborated', `design ${root.name} is already elaborated`);

  // 1. names
  const modules: Module[] = [];
  const signals: Signal[] = [];
  const memories: Memory[] = [];
  const modulesByPath = new Map<string, Module>();
  const walk = (m: Module, path: string): void => {
    m.path = path;
    m.named = true;
    modules.push(m);
    modulesByPath.set(path, m);
    const seen = new Map<string, string>();
    const claim = (name: string, what: string): void => {
      const prev = seen.get(name);
      if (prev) {
        throw new ElaborationError('duplicate-name', `duplicate name '${name}' in ${path || root.name}: a ${prev} and a ${what}`);
      }
      seen.set(name, what);
    };
    const prefix = path ? path + '.' : '';
    for (const sig of m.signals) {
      claim(sig.name, KIND_WORDS[sig.kind]);
      signals.push(sig);
    }
    for (const mem of m.memories) {
      claim(mem.name, 'memory');
      mem.path = prefix + mem.name;
      memories.push(mem);
    }
    for (const c of m.children) {
      claim(c.name, 'module');
      walk(c, prefix + c.name);
    }
  };
  walk(root, '');

  // 2. nets. While elaborating, a signal's `i` holds its index in `signals`
  // (its slot from step 3 on), and per-signal tables are typed arrays: no
  // Map keyed by Signal objects or net roots (docs/kernel.md "Footprint").
  const nSig = signals.length;
  for (let k = 0; k < nSig; k++) signals[k]!.i = k;
  /** Index of a signal of this design, or -1 (a stray signal, or one of another design). */
  const indexOf = (sig: Signal): number => (sig.i >= 0 && sig.i < nSig && signals[sig.i] === sig ? sig.i : -1);
  const parent = new Int32Array(nSig);
  for (let k = 0; k < nSig; k++) parent[k] = k;
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  for (const c of root.connections) {
    const ia = indexOf(c.a);
    const ib = indexOf(c.b);
    if (ia < 0 || ib < 0) {
      const stray = ia < 0 ? c.a : c.b;
      throw new ElaborationError('bad-name', `connect in ${c.where.localPath()}: ${stray} is not part of design ${root.name}`);
    }
    parent[find(ia)] = find(ib);
  }

  const comb = modules.flatMap((m) => m.processes.filter((p) => p.kind === 'comb'));
  const seq = modules.flatMap((m) => m.processes.filter((p) => p.kind === 'seq'));

  // drivers per net root: the first one, and any further ones (an error below);
  // what a driver is, in words, only for that error
  type Drv = { kind: DriverKind; proc?: number; sig?: Signal; value?: number };
  const driverOf: (Drv | undefined)[] = new Array(nSig);
  const firstOrder = new Int32Array(nSig); // order in which nets got their first driver
  let nDriven = 0;
  const extra: { root: number; d: Drv }[] = [];
  const what = (d: Drv): string =>
    d.kind === 'reg' ? `register ${d.sig!.path}` : d.kind === 'external' ? `external input ${d.sig!.path}` : d.kind === 'comb' ? `comb ${comb[d.proc!]!.module.path ? comb[d.proc!]!.module.path + '.' : ''}${comb[d.proc!]!.name}` : `constant ${d.value}`;
  const addDriver = (sig: Signal, d: Drv): void => {
    const r = find(sig.i);
    if (driverOf[r] === undefined) {
      driverOf[r] = d;
      firstOrder[r] = nDriven++;
    } else extra.push({ root: r, d });
  };
  for (const sig of signals) {
    if (sig.kind === 'reg') addDriver(sig, { kind: 'reg', sig });
    if (sig.kind === 'in' && sig.module === root) addDriver(sig, { kind: 'external', sig });
  }
  comb.forEach((p, k) => {
    for (const w of p.writes) {
      if (indexOf(w) < 0) throw new ElaborationError('bad-process', `${p.module.path}.${p.name} writes ${w}, which is not in the design`);
      if (w.module !== p.module) {
        throw new ElaborationError('bad-process', `${p.module.path}.${p.name} writes ${w.path}, which belongs to another module`);
      }
      if (w.kind !== 'out' && w.kind !== 'wire') {
        throw new ElaborationError('bad-process', `${p.module.path}.${p.name} writes ${w.path}, a${w.kind === 'in' ? 'n input' : ' register'}; comb processes drive outputs and wires`);
      }
      addDriver(w, { kind: 'comb', proc: k, sig: w });
    }
  });
  for (const t of root.ties) {
    if (indexOf(t.sig) < 0) throw new ElaborationError('bad-name', `tie: ${t.sig} is not part of design ${root.name}`);
    addDriver(t.sig, { kind: 'tie', value: t.value });
  }
  if (extra.length) {
    // the net that got its first driver earliest, as when drivers were listed per net in a Map
    let r = extra[0]!.root;
    for (const e of extra) if (firstOrder[e.root]! < firstOrder[r]!) r = e.root;
    const list = [driverOf[r]!, ...extra.filter((e) => e.root === r).map((e) => e.d)];
    throw new ElaborationError('multiple-drivers', `multiple drivers on net ${netName(signals, find, r)}: ${list.map(what).join(', ')}`);
  }
  for (const sig of signals) {
    if (sig.kind === 'in' && sig.module !== root && driverOf[find(sig.i)] === undefined) {
      throw new ElaborationError('undriven-input', `undriven input: ${sig.path} (connect it, or tie it to a constant)`);
    }
  }
  for (const c of root.connections) {
    // width already checked at connect(); re-check in case signals were built by hand
    if (c.a.width !== c.b.width) throw new ElaborationError('width-mismatch', `width mismatch: ${c.a.path} is ${c.a.width} bits, ${c.b.path} is ${c.b.width} bits`);
  }

  // 3. slots: wire nets in the order of their first signal; register nets in
  // the order of their registers' declaration (the registers of one module
  // are then contiguous, so activity-mode commit can visit just the modules
  // whose seq processes ran), each register's next value beside its current
  // one (docs/kernel.md "Stop 20: state layout").
  const rootOf = new Int32Array(nSig);
  for (let k = 0; k < nSig; k++) rootOf[k] = find(k);
  const slotOfRoot = new Int32Array(nSig).fill(-1);
  let nWires = 0;
  for (let k = 0; k < nSig; k++) {
    const r = rootOf[k]!;
    if (slotOfRoot[r] === -1 && driverOf[r]?.kind !== 'reg') slotOfRoot[r] = nWires++;
  }
  const regBase = nWires;
  let nRegs = 0;
  for (let k = 0; k < nSig; k++) {
    const r = rootOf[k]!;
    if (driverOf[r]?.sig === signals[k] && signals[k]!.kind === 'reg') slotOfRoot[r] = regBase + 2 * nRegs++;
  }

  const nSlots = nWires + 2 * nRegs;
  const slotMask = new Float64Array(nSlots);
  const slotSignal: Signal[] = new Array(nSlots);
  const slotDriver: DriverKind[] = new Array(nSlots).fill('none');
  const slotCombDriver = new Int32Array(nSlots).fill(-1);
  const regSignals: Signal[] = new Array(nRegs);
  for (let k = 0; k < nSig; k++) {
    const sig = signals[k]!;
    const r = rootOf[k]!;
    const slot = slotOfRoot[r]!;
    if (slotSignal[slot] === undefined) {
      // The slot's driver names it; an undriven net its first signal.
      const d = driverOf[r];
      slotDriver[slot] = d ? d.kind : 'none';
      if (d?.kind === 'comb') slotCombDriver[slot] = d.proc!;
      slotSignal[slot] = d?.sig ?? sig;
    }
    slotMask[slot] = sig.mask;
    if (sig.kind === 'reg') {
      sig.n = slot + 1;
      slotMask[slot + 1] = sig.mask;
      regSignals[(slot - regBase) >> 1] = sig;
    }
  }
  // Slots last: until here a signal's `i` was its index (driverOf[r].sig is compared above).
  for (let k = 0; k < nSig; k++) signals[k]!.i = slotOfRoot[rootOf[k]!]!;
  const tieList = root.ties;
  const tieSlots = Int32Array.from(tieList.map((t) => t.sig.i));
  const tieValues = Float64Array.from(tieList.map((t) => t.value));

  // 4. process reads/writes as slots, and comb ordering
  const readSlots = (p: ProcessDecl): { slots: number[]; mems: Memory[] } => {
    const m = p.module;
    let reads = p.reads;
    if (p.readsWhen.length) {
      if (!reads) throw new ElaborationError('bad-process', `${m.path}.${p.name}: readsWhen needs an explicit reads list`);
      // A rise guard is no plain read: it wakes through its own guard entry (guards() below).
      reads = [...reads, ...p.readsWhen.filter((g) => !isRise(g)).map((g) => g.when)];
      for (const g of p.readsWhen) {
        // A register or a comb-driven signal of its module (docs/kernel.md
        // "Exact sensitivity": a guard's own change wakes the reader, so a
        // guard read before it settles is safe); not one its own comb writes.
        if (g.when.module !== m || g.when.width > ('bits' in g ? 32 : 5) || (p.kind === 'comb' && p.writes.includes(g.when))) {
          throw new ElaborationError('bad-process', `${m.path}.${p.name}: readsWhen guard ${g.when.path} must be a signal of its module that it does not write, at most ${'bits' in g ? 32 : 5} bits wide`);
        }
        if ('bits' in g && g.late === true && p.kind !== 'seq') {
          throw new ElaborationError('bad-process', `${m.path}.${p.name}: readsWhen late is for seq processes only`);
        }
        if ('bits' in g && g.and !== undefined && (g.late !== true || !g.reads.includes(g.and))) {
          throw new ElaborationError('bad-process', `${m.path}.${p.name}: readsWhen and ${g.and.path} needs late: true and must be one of the guard's reads`);
        }
        if ('is' in g && (g.is.length === 0 || g.is.some((v) => !(Number.isInteger(v) && v >= 0 && v <= g.when.mask)))) {
          throw new ElaborationError('bad-process', `${m.path}.${p.name}: readsWhen is [${g.is.join(', ')}] must name values of guard ${g.when.path} (0..${g.when.mask})`);
        }
        if ('bits' in g && !(Number.isInteger(g.bits) && g.bits !== 0 && g.bits >= 0 && g.bits <= g.when.mask)) {
          throw new ElaborationError('bad-process', `${m.path}.${p.name}: readsWhen bits ${String(g.bits)} must be a nonzero mask within guard ${g.when.path} (${g.when.width} bits)`);
        }
        for (const r of g.reads) {
          if (r.module !== m) throw new ElaborationError('bad-process', `${m.path}.${p.name} reads ${r.path}, which belongs to another module (a unit sees only its own ports)`);
        }
      }
    }
    if (!reads) {
      const own = new Set(p.kind === 'comb' ? p.writes : []);
      reads = [...m.signals.filter((s) => !own.has(s)), ...m.memories];
    }
    const slots: number[] = [];
    const mems: Memory[] = [];
    for (const r of reads) {
      if (r.module !== m) {
        throw new ElaborationError('bad-process', `${m.path}.${p.name} reads ${r.path}, which belongs to another module (a unit sees only its own ports)`);
      }
      if (r instanceof Memory) mems.push(r);
      else slots.push(r.i);
    }
    for (const { mem, addr } of p.readsAt ?? []) {
      // The address is a plain read (its change wakes the reader); the memory is not (its writes wake it by address).
      if (mem.module !== m || addr.module !== m || !slots.includes(addr.i) || mems.includes(mem)) {
        throw new ElaborationError('bad-process', `${m.path}.${p.name}: readsAt ${mem.path} at ${addr.path} needs a memory of its module that is not in its reads, and an address signal that is`);
      }
    }
    return { slots: [...new Set(slots)], mems };
  };
  const combReadSets = comb.map(readSlots);
  const seqReadSets = seq.map(readSlots);

  // edges: driver proc -> reader proc, through wire slots
  const nComb = comb.length;
  const succ: number[][] = Array.from({ length: nComb }, () => []);
  const indeg = new Int32Array(nComb);
  const via = new Map<string, number>(); // "q,p" -> slot, for loop reports
  // A guarded read orders its comb reader after the read's driver too, so
  // the reader sees the settled value; the guard is one of its reads (ordered
  // the same way), and a guard seen before it settles is safe, as its own
  // change wakes the reader (docs/kernel.md "Exact sensitivity").
  combReadSets.forEach(({ slots }, p) => {
    const guardedSlots = comb[p]!.readsWhen.flatMap((g) => [...g.reads.map((r) => r.i), ...(isRise(g) ? [g.when.i] : [])]);
    for (const slot of new Set([...slots, ...guardedSlots])) {
      const q = slotCombDriver[slot]!;
      if (q >= 0) {
        succ[q]!.push(p);
        indeg[p]!++;
        via.set(`${q},${p}`, slot);
      }
    }
  });
  const order = combOrder(nComb, succ, indeg);
  if (order === undefined) {
    const ring = findCycle(nComb, succ, indeg);
    const names = ring.map((q, k) => slotSignal[via.get(`${q},${ring[(k + 1) % ring.length]}`)!]!.path);
    throw new ElaborationError('comb-loop', `combinational loop: ${[...names, names[0]].join(' -> ')}`);
  }
  const combOrdered = order.map((p) => comb[p]!);
  const combReadsOrdered = order.map((p) => combReadSets[p]!);
  const rank = new Int32Array(nComb);
  order.forEach((p, k) => (rank[p] = k));
  for (let s = 0; s < nSlots; s++) if (slotCombDriver[s]! >= 0) slotCombDriver[s] = rank[slotCombDriver[s]!]!;

  const combWriteStart = new Int32Array(nComb + 1);
  const combWritesList: number[] = [];
  combOrdered.forEach((p, k) => {
    combWriteStart[k] = combWritesList.length;
    for (const w of p.writes) combWritesList.push(w.i);
  });
  combWriteStart[nComb] = combWritesList.length;

  // 5. readers
  const csr = (sets: { slots: number[] }[]): { start: Int32Array; list: Int32Array } => {
    const count = new Int32Array(nSlots + 1);
    sets.forEach(({ slots }) => slots.forEach((s) => count[s + 1]!++));
    for (let s = 0; s < nSlots; s++) count[s + 1]! += count[s]!;
    const list = new Int32Array(count[nSlots]!);
    const fill = count.slice();
    sets.forEach(({ slots }, p) => slots.forEach((s) => (list[fill[s]!++] = p)));
    return { start: count, list };
  };
  const seqRegLo = new Int32Array(seq.length);
  const seqRegHi = new Int32Array(seq.length);
  // Once per module, not per process (a module may have dozens of seq processes).
  const moduleRange = new Map<Module, [number, number]>();
  seq.forEach((p, k) => {
    let range = moduleRange.get(p.module);
    if (!range) {
      let lo = Infinity;
      let hi = -Infinity;
      let count = 0;
      for (const x of p.module.signals) {
        if (x.kind !== 'reg') continue;
        const r = (x.i - regBase) >> 1;
        if (r < lo) lo = r;
        if (r > hi) hi = r;
        count++;
      }
      range = count ? [lo, hi + 1] : [0, 0];
      if (count && hi + 1 - lo !== count) throw new Error(`internal: registers of ${p.module.path} are not contiguous`);
      moduleRange.set(p.module, range);
    }
    seqRegLo[k] = range[0];
    seqRegHi[k] = range[1];
  });
  const seqWriteStart = new Int32Array(seq.length + 1);
  const seqWriteArr: number[] = [];
  const seqSweepLo = new Int32Array(seq.length);
  const seqSweepHi = new Int32Array(seq.length);
  const seqGroup = new Int32Array(seq.length);
  const moduleGroup = new Map<Module, number>();
  let nSeqGroups = 0;
  seq.forEach((p, k) => {
    seqWriteStart[k] = seqWriteArr.length;
    if (p.tracked) {
      seqGroup[k] = nSeqGroups++; // commits what it recorded (Simulator.written), nothing by range
    } else if (p.writes.length) {
      for (const w of p.writes) {
        if (w.module !== p.module || w.kind !== 'reg') {
          throw new ElaborationError('bad-process', `${p.module.path}.${p.name} declares it writes ${w.path}, which is not a register of its module`);
        }
        seqWriteArr.push((w.i - regBase) >> 1);
      }
      seqGroup[k] = nSeqGroups++;
    } else {
      // The module's whole range, swept (no list: docs/kernel.md "Commit").
      seqSweepLo[k] = seqRegLo[k]!;
      seqSweepHi[k] = seqRegHi[k]!;
      let g = moduleGroup.get(p.module);
      if (g === undefined) moduleGroup.set(p.module, (g = nSeqGroups++));
      seqGroup[k] = g;
    }
  });
  seqWriteStart[seq.length] = seqWriteArr.length;
  const guards = (procs: ProcessDecl[]): { start: Int32Array; proc: Int32Array; slot: Int32Array; mask: Int32Array; bits: Uint8Array } => {
    const entries: [number, number, number, number, number][] = []; // slot, proc, guard slot, mask, bit form
    procs.forEach((p, k) => {
      for (const g of p.readsWhen) {
        let mask = 0;
        if ('bits' in g) mask = g.bits | 0;
        else for (const v of g.is) mask |= 1 << v;
        // The entry's form: 0 an `is` list, 1 `bits`, 2 `bits` looked at after the settle (late_guards.ts).
        for (const r of g.reads) entries.push([r.i, k, g.when.i, mask, 'bits' in g ? (g.late === true ? 2 : 1) : 0]);
        // Wake on rise: the guard guards itself; marking runs after the slot took its new value.
        // With a conjunction (`and`) the rise is late too: looked at the edge with the other half.
        if (isRise(g)) entries.push([g.when.i, k, g.when.i, mask, 'and' in g && g.and !== undefined ? 2 : 1]);
      }
    });
    entries.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const start = new Int32Array(nSlots + 1);
    for (const e of entries) start[e[0] + 1]!++;
    for (let x = 0; x < nSlots; x++) start[x + 1]! += start[x]!;
    return { start, proc: Int32Array.from(entries.map((e) => e[1])), slot: Int32Array.from(entries.map((e) => e[2])), mask: Int32Array.from(entries.map((e) => e[3])), bits: Uint8Array.from(entries.map((e) => e[4])) };
  };
  const cg = guards(combOrdered);
  const sg = guards(seq);
  const cr = csr(combReadsOrdered);
  const sr = csr(seqReadSets);
  memories.forEach((m, k) => (m.id = k));
  // One pass over the processes (not memories × processes: a 256-node cube has thousands of each).
  const memReaders = (sets: { mems: Memory[] }[]): Int32Array[] => {
    const lists: number[][] = memories.map(() => []);
    sets.forEach((r, p) => {
      for (const m of r.mems) if (lists[m.id]!.at(-1) !== p) lists[m.id]!.push(p);
    });
    return lists.map((l) => Int32Array.from(l));
  };
  const memCombReaders = memReaders(combReadsOrdered);
  const memSeqReaders = memReaders(seqReadSets);
  const atLists: number[][] = memories.map(() => []);
  combOrdered.forEach((p, k) => {
    for (const { mem, addr } of p.readsAt ?? []) atLists[mem.id]!.push(k, addr.i);
  });
  const memAtReaders = atLists.map((l) => Int32Array.from(l));

  const net: Netlist = {
    root,
    modules,
    signals,
    memories,
    nWires,
    nRegs,
    regBase,
    size: nSlots,
    slotMask,
    slotSignal,
    slotAliases: [],
    slotDriver,
    slotCombDriver,
    regSignals,
    tieSlots,
    tieValues,
    comb: combOrdered,
    seq,
    seqRegLo,
    seqRegHi,
    seqWriteStart,
    seqWriteList: Int32Array.from(seqWriteArr),
    seqSweepLo,
    seqSweepHi,
    seqGroup,
    nSeqGroups,
    combWriteStart,
    combWrites: Int32Array.from(combWritesList),
    combReaderStart: cr.start,
    combReaders: cr.list,
    seqReaderStart: sr.start,
    seqReaders: sr.list,
    combGuardStart: cg.start,
    combGuardProc: cg.proc,
    combGuardSlot: cg.slot,
    combGuardMask: cg.mask,
    combGuardBits: cg.bits,
    seqGuardStart: sg.start,
    seqGuardProc: sg.proc,
    seqGuardSlot: sg.slot,
    seqGuardMask: sg.mask,
    seqGuardBits: sg.bits,
    memCombReaders,
    memSeqReaders,
    memAtReaders,
    lateMems: lateMems(seq, memories),
    byName: new Map(),
    modulesByPath,
  };
  lazyAliases(net, signals, nSlots);
  lazyNames(net, modules);
  return net;
}

/**
 * Netlist.slotAliases, built on first use. A top-level function: a getter
 * defined inside elaborate() would keep its whole scope (the elaboration's
 * intermediate maps) alive.
 */
/**
 * Netlist.byName, built on first use (a name lookup: the REPL, a test, a
 * `--signals` glob): a map of every hierarchical name is a good part of a
 * large design's heap and most runs never look a name up. The order is the
 * elaboration's (per module in tree order: its signals, then its memories).
 */
/** A `bits` guard with `rise: true` (wake on rise, module.ts GuardedReads). */
function isRise(g: GuardedReads): boolean {
  return 'bits' in g && g.rise === true;
}

function lazyNames(net: Netlist, modules: readonly Module[]): void {
  let map: Map<string, Signal | Memory> | undefined;
  const build = (): Map<string, Signal | Memory> => {
    const m = new Map<string, Signal | Memory>();
    for (const mod of modules) {
      for (const sig of mod.signals) m.set(sig.path, sig);
      for (const mem of mod.memories) m.set(mem.path, mem);
    }
    return m;
  };
  Object.defineProperty(net, 'byName', { get: () => (map ??= build()), enumerable: true });
}

/** How a duplicate-name message calls a signal of each kind. */
const KIND_WORDS: Record<Signal['kind'], string> = { reg: 'register', wire: 'wire', in: 'input port', out: 'output port' };

function lazyAliases(net: Netlist, signals: readonly Signal[], nSlots: number): void {
  let lists: Signal[][] | undefined;
  Object.defineProperty(net, 'slotAliases', { get: () => (lists ??= aliasLists(signals, nSlots)), enumerable: true });
}

/** Per slot, the signals merged into it, in design order. */
function aliasLists(signals: readonly Signal[], nSlots: number): Signal[][] {
  const lists: Signal[][] = Array.from({ length: nSlots }, () => []);
  for (const sig of signals) lists[sig.i]!.push(sig);
  return lists;
}

function netName(signals: Signal[], find: (x: number) => number, r: number): string {
  const members = signals.filter((_, k) => find(k) === r).map((s) => s.path);
  return members.join(' = ');
}
