/**
 * The per-node line trace (harness/rtl/node_trace.ts): one line per cycle in
 * fixed columns, a packet visibly entering and leaving a node on the 31-cycle
 * head timing, and a legend that names every column and code.
 */
import { describe, expect, it } from 'vitest';
import { Simulator } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { type BuzzardConfig } from '../../rtl/buzzard/config.ts';
import { CubeDriver } from '../../harness/rtl/cube_driver.ts';
import { attachEvents } from '../../harness/rtl/events.ts';
import { attachNodeTrace, legend, nodeTraceHeaders, type NodeTrace } from '../../harness/rtl/node_trace.ts';
import { PBU_IN_STATES, PBU_OUT_STATES, PBU_TX_PHASES } from '../../rtl/buzzard/packet_buffer_unit.ts';
import { SLOT_STATES } from '../../rtl/buzzard/node_output_port.ts';
import { INPUT_STATES } from '../../rtl/buzzard/node_input_port.ts';

function setup(cfg: Partial<BuzzardConfig>, node: number, labels = true) {
  const cube = new BuzzardCube(cfg);
  const sim = new Simulator(cube);
  const drv = new CubeDriver(sim, cube);
  const rec = labels ? attachEvents(sim, cube, drv) : undefined;
  const tr = attachNodeTrace(sim, cube, node, { events: rec });
  return { cube, sim, drv, rec, tr };
}

/** Lines by cycle, split into trimmed cells (cells[0] = cycle). */
function table(tr: NodeTrace): Map<number, string[]> {
  const rows = new Map<number, string[]>();
  for (const l of tr.lines.slice(1)) {
    const cells = l.split(' | ');
    rows.set(Number(cells[0]), cells);
  }
  return rows;
}

/** The " i/o " cell of dimension d (1-based) in a links column value. */
function linkCell(links: string, d: number): { inBit: string; outBit: string; inBlocked: boolean; outBlocked: boolean } {
  const c = links.slice(5 * (d - 1), 5 * d);
  return { inBlocked: c[0] === '*', inBit: c[1]!, outBit: c[3]!, outBlocked: c[4] === '*' };
}

describe('node line trace', () => {
  it('prints one line per cycle with fixed columns', () => {
    const { sim, drv, tr } = setup({ n: 3, routing: 'e-cube' }, 1);
    drv.receive(7, 0, 64, 0);
    drv.send(0, 7, Array.from({ length: 40 }, (_, k) => k + 1), 10);
    sim.step(400); // activity mode with fast-forward: skipped cycles still get their lines
    expect(tr.lines).toHaveLength(1 + 400);
    expect(tr.lines[0]).toBe(tr.tracer.headerLine());
    expect(tr.headers).toEqual(nodeTraceHeaders(3));
    const cycles = tr.lines.slice(1).map((l) => Number(l.slice(0, 7)));
    expect(cycles).toEqual(Array.from({ length: 400 }, (_, k) => k + 1));
    const bars = (l: string): number[] => [...l].flatMap((ch, k) => (ch === '|' ? [k] : []));
    const ref = bars(tr.lines[0]!);
    expect(ref).toHaveLength(tr.headers.length); // cycle | h1 | ... | hN
    for (const l of tr.lines) {
      expect(l.length).toBe(tr.lines[0]!.length);
      expect(bars(l)).toEqual(ref);
    }
    // something happened in this window (the trace is not blank)
    expect(tr.lines.some((l) => l.includes('0→7#0'))).toBe(true);
  });

  it('shows a packet entering on link 1 and leaving on link 2 exactly 31 cycles later', () => {
    const { sim, drv, rec, tr } = setup({ n: 3, routing: 'e-cube' }, 1);
    drv.receive(7, 0, 64, 0);
    drv.send(0, 7, Array.from({ length: 20 }, (_, k) => k + 1), 10);
    expect(sim.runUntil(() => drv.allComplete(), 10_000).reached).toBe(true);
    const rows = table(tr);
    const col = (h: string): number => 1 + tr.headers.indexOf(h);
    const P1 = col('pbu1');
    const L = col('links');
    // c: the first cycle the S1 is on incoming link 1
    const c = [...rows.keys()].find((t) => linkCell(rows.get(t)![L]!, 1).inBit === '1')!;
    expect(c).toBeGreaterThan(10);
    // the event recorder agrees
    expect(rec!.events.find((e) => e.kind === 'head-arrives' && e.node === 1)!.t).toBe(c);
    const cell = (t: number, h: number): string => rows.get(t)![h]!;
    // before: PBU 1 idle, waiting for a start bit, 13 free rows
    expect(cell(c, P1).trim()).toBe('... d');
    // entering: start bit seen at c's edge, the packet labelled
    expect(cell(c + 1, P1)).toMatch(/^S\.\. d 0→7#0/);
    expect(cell(c + 2, P1)).toMatch(/^p\.\. /);
    expect(cell(c + 3, P1)).toMatch(/^p\.\. c 0→7#0/); // a row reserved at preheader bit 0
    expect(cell(c + 27, P1)).toMatch(/^C/); // camLoad
    // leaving: granted in c+30 (output controller still idle in that cycle), S1 on link 2 in c+31
    for (let t = c; t <= c + 30; t++) {
      expect(cell(t, P1)[1], `output controller at c+${t - c}`).toBe('.');
      expect(linkCell(cell(t, L), 2).outBit, `link 2 out at c+${t - c}`).toBe('0');
    }
    expect(cell(c + 31, P1)).toMatch(/^.BS c 0→7#0/);
    expect(linkCell(cell(c + 31, L), 2).outBit).toBe('1');
    expect(cell(c + 32, P1)).toMatch(/^..s /);
    // the packet never goes out on link 1 or 3 of this node
    for (const r of rows.values()) {
      expect(linkCell(r[L]!, 1).outBit).toBe('0');
      expect(linkCell(r[L]!, 3).outBit).toBe('0');
    }
    // and at the end it has left: output idle, all rows free again
    const last = Math.max(...rows.keys());
    expect(cell(last, P1).trim()).toBe('... d');
    const leftAt = [...rows.keys()].find((t) => t > c + 31 && cell(t, P1)[1] === '.')!;
    expect(cell(leftAt - 1, P1)).toMatch(/^.F/); // output step 6 at the last bit
    // while the output side forwards it (also after the input side has finished), the cell names the packet
    const forwarding = [...rows.keys()].filter((t) => cell(t, P1)[1] !== '.');
    expect(forwarding.some((t) => cell(t, P1)[0] === '.')).toBe(true);
    for (const t of forwarding) expect(cell(t, P1).slice(6).trim(), `label at c+${t - c}`).toBe('0→7#0');
    // the node's own units stay idle: no slot, nothing for the node input port
    const ws = (x: string): string => x.trim().replace(/\s+/g, ' ');
    expect([...rows.values()].every((r) => r[col('slots')]!.replace(/[ .]/g, '') === '' && ws(r[col('nip')]!) === '. 0')).toBe(true);
  });

  it('shows slots, node input port and control unit at the source and destination', () => {
    const cube = new BuzzardCube({ n: 2, routing: 'e-cube' });
    const sim = new Simulator(cube);
    const drv = new CubeDriver(sim, cube);
    const rec = attachEvents(sim, cube, drv);
    const src = attachNodeTrace(sim, cube, 0, { events: rec });
    const dst = attachNodeTrace(sim, cube, 1, { events: rec });
    drv.receive(1, 0, 64, 0);
    drv.send(0, 1, Array.from({ length: 20 }, (_, k) => k + 1), 10);
    expect(sim.runUntil(() => drv.allComplete(), 10_000).reached).toBe(true);
    const inj = rec.events.find((e) => e.kind === 'packet-injected')!.t;
    const s = table(src);
    const slots = 1 + src.headers.indexOf('slots');
    expect(s.get(inj - 1)![slots]).toMatch(/^a→1#0/); // arbitrating (granted in this cycle)
    expect(s.get(inj)![slots]).toMatch(/^S→1#0/); // S1 on link 1
    expect(linkCell(s.get(inj)![1 + src.headers.indexOf('links')]!, 1).outBit).toBe('1');
    const d = table(dst);
    const nip = 1 + dst.headers.indexOf('nip');
    const cu = 1 + dst.headers.indexOf('cu');
    const nipHead = rec.events.find((e) => e.kind === 'head-arrives' && e.unit === 'nip')!.t;
    const ws = (x: string): string => x.trim().replace(/\s+/g, ' ');
    expect(ws(d.get(nipHead)![nip]!)).toBe('. 0');
    expect(ws(d.get(nipHead + 1)![nip]!)).toBe('S 0');
    // words reach the FIFO and the control unit's receive task takes them
    expect([...d.values()].some((r) => /^w +[1-9]/.test(r[nip]!))).toBe(true);
    expect([...d.values()].some((r) => r[cu]!.trim() === 'R_DATA')).toBe(true);
    expect([...s.values()].some((r) => r[1 + src.headers.indexOf('cu')]!.trim() === 'I_SD_ENQ')).toBe(true);
  });

  it('has a legend that names every column and every state code', () => {
    const { sim, tr } = setup({ n: 3 }, 2);
    sim.step(3);
    const text = tr.legend();
    const heads = tr.lines[0]!.split('|').map((h) => h.trim());
    expect(heads).toEqual(['cycle', ...tr.headers]);
    for (const h of heads) expect(text, `legend entry for ${h}`).toMatch(new RegExp(`^${h} `, 'm'));
    for (const names of [PBU_IN_STATES, PBU_OUT_STATES, PBU_TX_PHASES, SLOT_STATES, INPUT_STATES]) {
      for (const nm of names) expect(text, `legend names state ${nm}`).toMatch(new RegExp(`(^|\\s)\\S ${nm}(\\s|$)`, 'm'));
    }
    expect(legend(6)).toMatch(/^pbu6 /m);
    expect(legend(6, false)).not.toMatch(/label/);
  });

  it('stays readable for n = 6 and narrower without labels', () => {
    const cube = new BuzzardCube({ n: 6 });
    const sim = new Simulator(cube);
    const drv = new CubeDriver(sim, cube);
    const rec = attachEvents(sim, cube, drv);
    const full = attachNodeTrace(sim, cube, 63, { events: rec });
    const bare = attachNodeTrace(sim, cube, 63);
    sim.step(2);
    expect(full.lines[1]!.length).toBeLessThanOrEqual(220);
    expect(bare.lines[1]!.length).toBeLessThanOrEqual(140);
    expect(bare.headers).toEqual(full.headers);
  });
});
