/**
 * The icemu view page in headless Chromium (Debian's `chromium`, driven by
 * puppeteer-core; no browser is downloaded). Skipped, with a message, when
 * chromium is not installed (.ci/run installs it).
 *
 * The expected state at a cycle is computed here from the raw events, not
 * with harness/view/replay.ts: packets in flight on the link their head last
 * entered, link occupancy over the window, held links; a followed message's
 * path; a recorded deadlock's ring. C104 traces likewise (c104_expect.ts):
 * held links, full buffers, a T9000 message's packets, the REPL's ring.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'puppeteer-core';
import { main } from '../../harness/cli.ts';
import type { TraceEvent } from '../../traces/events/vocabulary.ts';
import { parseTrace } from '../../traces/events/vocabulary.ts';
import { deadlockedCube2, loadedCube3, recordC104Mesh, recordC104MeshHeld, recordReplRingDeadlock, type Recorded } from './traces.ts';
import { c104StatesAt, switchPackets, type Topo } from './c104_expect.ts';

function findChromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
    } catch {
      /* not this one */
    }
  }
  return undefined;
}
const chromium = process.env.ICEMU_CHROMIUM ?? findChromium();
if (!chromium) console.warn('browser.test.ts: chromium not on PATH (install the Debian package chromium): skipping the headless-browser tests of icemu view');

// ------------------------------------------------------------ independent expectations
const N3 = 3;
const W = 500; // the page's default occupancy window

function expectedPackets(events: readonly TraceEvent[], c: number, n: number): string[] {
  const pk = new Map<string, { start: number; end: number; link: number }>();
  for (const e of events) {
    if (e.packet === undefined || e.t > c) continue;
    const key = `${e.msg}.${e.packet}`;
    if ((e.kind === 'packet-injected' || e.kind === 'packet-forwarded') && e.port! > 0) {
      const q = pk.get(key);
      if (q) q.link = e.node * n + e.port! - 1;
      else pk.set(key, { start: e.t, end: Infinity, link: e.node * n + e.port! - 1 });
    }
    if (e.kind === 'head-arrives' && e.unit === 'nip') pk.get(key)!.end = e.t;
  }
  return [...pk].filter(([, q]) => q.start <= c && c < q.end).map(([k, q]) => `${k}@${q.link}`).sort();
}

/** Occupancy over the window and held links at cycle c, from the link events. */
function expectedLinks(events: readonly TraceEvent[], c: number, n: number, links: number): { occ: string[]; held: number[] } {
  const busy = new Array<number>(links).fill(0);
  const since = new Map<number, number>();
  const heldNow = new Set<number>();
  const lo = c - W + 1; // window (c - W, c]
  const add = (l: number, s: number, e: number): void => {
    busy[l]! += Math.max(0, Math.min(e, c + 1) - Math.max(s, lo));
  };
  for (const e of events) {
    if (e.t > c) break;
    const l = e.node * n + (e.port ?? 1) - 1;
    if (e.kind === 'link-busy') since.set(l, e.t);
    else if (e.kind === 'link-idle') {
      add(l, since.get(l)!, e.t);
      since.delete(l);
    } else if (e.kind === 'link-held') heldNow.add(l);
    else if (e.kind === 'link-released') heldNow.delete(l);
  }
  for (const [l, s] of since) add(l, s, c + 1);
  return { occ: busy.map((b) => (b / W).toFixed(3)), held: [...heldNow].sort((a, b) => a - b) };
}

// ------------------------------------------------------------ the pages
describe.skipIf(!chromium)('icemu view in headless Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'icemu-view-browser-'));
  let cube3: Recorded; // recorded in beforeAll: nothing runs when the tests are skipped
  let dead: Recorded;
  let browser: Browser;
  const errors: string[] = [];

  async function page(name: string, text: string): Promise<Page> {
    const trace = join(dir, `${name}.jsonl`);
    writeFileSync(trace, text);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const code = await main(['view', trace, '--out', join(dir, `${name}.html`)]);
    log.mockRestore();
    expect(code).toBe(0);
    const p = await browser.newPage();
    p.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warn') errors.push(`${name}: ${m.text()}`);
    });
    p.on('pageerror', (e) => errors.push(`${name}: ${String(e)}`));
    await p.goto(`file://${join(dir, `${name}.html`)}`);
    await p.waitForSelector('body[data-ready="1"]', { timeout: 30_000 });
    return p;
  }
  const seek = (p: Page, c: number): Promise<void> =>
    p.$eval(
      '#cycle',
      (el, v) => {
        (el as HTMLInputElement).value = String(v);
        el.dispatchEvent(new Event('change'));
      },
      c,
    );

  let p3: Page;
  beforeAll(async () => {
    const { default: puppeteer } = await import('puppeteer-core');
    cube3 = loadedCube3(12_000);
    dead = deadlockedCube2();
    browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox'] });
    p3 = await page('cube3', cube3.text);
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads a recorded 3-cube run without console errors: 8 nodes, 24 links, heat map and histogram', async () => {
    expect(await p3.$$eval('#net .node', (e) => e.length)).toBe(8);
    expect(await p3.$$eval('#net .link', (e) => e.length)).toBe(24);
    expect(await p3.$$eval('#heat rect', (e) => e.length)).toBe(24);
    expect(await p3.$$eval('#hist rect.bar', (e) => e.length)).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it('after seeking to a cycle, the packet marks and link colours match the trace at that cycle', async () => {
    const ev = cube3.rec.events;
    // cycles with many packets in flight (and one before anything happens)
    const counts = Array.from({ length: 24 }, (_, k) => 500 * k + 250).map((c) => [c, expectedPackets(ev, c, N3).length] as const);
    const busiest = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([c]) => c);
    expect(counts.find(([c]) => c === busiest[0])![1]).toBeGreaterThan(3);
    for (const c of [0, ...busiest, ev[ev.length - 1]!.t]) {
      await seek(p3, c);
      expect(await p3.evaluate(() => document.body.dataset.cycle)).toBe(String(c));
      const marks = await p3.$$eval('#net .pkt', (es) => es.map((e) => `${e.getAttribute('data-msg')}.${e.getAttribute('data-packet')}@${e.getAttribute('data-link')}`).sort());
      expect(marks, `packets at cycle ${c}`).toEqual(expectedPackets(ev, c, N3));
      const links = await p3.$$eval('#net .link', (es) =>
        es.map((e) => ({ l: Number(e.getAttribute('data-link')), occ: e.getAttribute('data-occ'), stroke: e.getAttribute('stroke'), held: e.classList.contains('held') })).sort((a, b) => a.l - b.l),
      );
      const want = expectedLinks(ev, c, N3, 24);
      expect(links.map((x) => x.occ), `occupancy at cycle ${c}`).toEqual(want.occ);
      expect(links.filter((x) => x.held).map((x) => x.l)).toEqual(want.held);
      // the colour follows the occupancy: idle links share one colour, busy ones differ from it
      const idle = links.filter((x) => x.occ === '0.000').map((x) => x.stroke);
      expect(new Set(idle).size).toBeLessThanOrEqual(1);
      for (const x of links) if (x.occ !== '0.000') expect(idle).not.toContain(x.stroke);
    }
    // stepping by event and by cycle, and playing
    const c0 = busiest[0]!;
    await seek(p3, c0);
    await p3.click('#nextev');
    expect(await p3.evaluate(() => document.body.dataset.cycle)).toBe(String(ev.find((e) => e.t > c0)!.t));
    await p3.click('#prevev');
    expect(await p3.evaluate(() => document.body.dataset.cycle)).toBe(String([...ev].reverse().find((e) => e.t < ev.find((x) => x.t > c0)!.t)!.t));
    await seek(p3, c0);
    await p3.click('#fwd');
    expect(await p3.evaluate(() => document.body.dataset.cycle)).toBe(String(c0 + 1));
    await p3.click('#play');
    await p3.waitForFunction((c: number) => Number(document.body.dataset.cycle) > c + 1, { timeout: 20_000 }, c0 + 1);
    await p3.click('#play');
    expect(await p3.$eval('#play', (e) => e.textContent)).toBe('play');
    expect(errors).toEqual([]);
  });

  it('following a message highlights exactly its path, by id and by clicking its mark', async () => {
    const ev = cube3.rec.events;
    const pathOf = (msg: number): number[] => [...new Set(ev.filter((e) => e.msg === msg && (e.kind === 'packet-injected' || e.kind === 'packet-forwarded') && e.port! > 0).map((e) => e.node * N3 + e.port! - 1))].sort((a, b) => a - b);
    const msgs = [...new Set(ev.filter((e) => e.kind === 'message-complete').map((e) => e.msg))];
    const long = msgs.find((m) => pathOf(m).length >= 2)!;
    await p3.$eval('#msg', (el, v) => {
      (el as HTMLInputElement).value = String(v);
      el.dispatchEvent(new Event('change'));
    }, long);
    const lit = async (): Promise<number[]> => (await p3.$$eval('#net .link.path', (es) => es.map((e) => Number(e.getAttribute('data-link'))))).sort((a, b) => a - b);
    expect(await lit()).toEqual(pathOf(long));
    expect(await p3.$eval('#info', (e) => e.textContent)).toContain(`message ${long}:`);
    // click a packet mark at a busy cycle
    const c = ev.find((e) => e.kind === 'packet-forwarded' && e.port! > 0)!.t;
    await seek(p3, c);
    const clicked = await p3.$eval('#net .pkt', (e) => {
      e.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      return Number(e.getAttribute('data-msg'));
    });
    expect(await p3.evaluate(() => document.body.dataset.follow)).toBe(String(clicked));
    expect(await lit()).toEqual(pathOf(clicked));
    // per-hop rows: one per node on packet 0's path
    const rows = await p3.$$eval('#info table.hops tr', (es) => es.length - 1);
    expect(rows).toBe(pathOf(clicked).length + 1);
  });

  it('clicking a link shows its counters (busy and held cycles as the trace says); clicking a node shows its units', async () => {
    const ev = cube3.rec.events;
    const end = ev[ev.length - 1]!.t + 1;
    const sum = (on: string, off: string, l: number): number => {
      let total = 0;
      let since = -1;
      for (const e of ev) {
        if (e.node * N3 + (e.port ?? 1) - 1 !== l) continue;
        if (e.kind === on) since = e.t;
        else if (e.kind === off && since >= 0) {
          total += e.t - since;
          since = -1;
        }
      }
      return since >= 0 ? total + end - since : total;
    };
    const l = ev.find((e) => e.kind === 'link-held')!;
    const id = l.node * N3 + l.port! - 1;
    await p3.$eval(`#net .link[data-link="${id}"]`, (e) => e.dispatchEvent(new MouseEvent('click', { bubbles: true })));
    const rows = await p3.$$eval('#info tr', (es) => Object.fromEntries(es.map((e) => [e.children[0]!.textContent, e.children[1]!.textContent])));
    expect(await p3.$eval('#info h3', (e) => e.textContent)).toBe(`link ${l.node} → ${l.node ^ (1 << (l.port! - 1))} (node ${l.node}, port ${l.port})`);
    expect(rows['busy cycles']).toBe(String(sum('link-busy', 'link-idle', id)));
    expect(rows['held cycles (flow control)']).toBe(String(sum('link-held', 'link-released', id)));
    await p3.$eval('#net .node[data-node="5"]', (e) => e.dispatchEvent(new MouseEvent('click', { bubbles: true })));
    expect(await p3.$eval('#info h3', (e) => e.textContent)).toBe('node 5');
    expect(await p3.$$eval('#info td:first-child', (es) => es.map((e) => e.textContent).filter((t) => t!.startsWith('pbu')))).toEqual(['pbu1', 'pbu2', 'pbu3']);
  });

  it('a recorded deadlock draws its ring of waiting units from the cycle it was found; held links and full buffers drawn', async () => {
    const d = dead.rec.events.find((e) => e.kind === 'deadlock')!;
    const pd = await page('deadlock', dead.text);
    await seek(pd, d.t - 1);
    expect(await pd.$$eval('#net .ring', (e) => e.length)).toBe(0);
    await seek(pd, d.t);
    expect(await pd.$$eval('#net .ring', (es) => es.map((e) => e.getAttribute('data-ring')))).toEqual([d.ring!.join(' ')]);
    expect(await pd.$$eval('#net .ring .ring-unit', (es) => es.map((e) => e.getAttribute('data-unit')))).toEqual(d.ring);
    expect(await pd.$eval('#status', (e) => e.textContent)).toContain('DEADLOCK: node0.pbu1 → node2.pbu2 → node3.pbu1 → node1.pbu2');
    // links held by flow control (the senders into the ring) are drawn held, as the trace says
    const want = expectedLinks(dead.rec.events, d.t, 2, 8);
    expect(want.held.length).toBeGreaterThan(0);
    const held = await pd.$$eval('#net .link.held', (es) => es.map((e) => Number(e.getAttribute('data-link'))).sort((a, b) => a - b));
    expect(held).toEqual(want.held);
    // the ring members are full buffers: their squares are shown
    const full = await pd.$$eval('#net rect.full[visibility="visible"]', (es) => es.map((e) => Number(e.getAttribute('data-pbu'))));
    for (const u of d.ring!) {
      const [, x, i] = /node(\d+)\.pbu(\d+)/.exec(u)!;
      expect(full).toContain(Number(x) * 2 + Number(i) - 1);
    }
    expect(errors).toEqual([]);
  });

  it('a recorded C104 2x2 mesh loads without console errors: 4 switches and 4 T9000s on a grid, 40 links; a forwarded packet is drawn on the switch output it took', async () => {
    const text = await recordC104Mesh(join(dir, 'mesh-run.jsonl'));
    const { events } = parseTrace(text);
    const pm = await page('mesh', text);
    expect(await pm.$$eval('#net .node.switch', (e) => e.length)).toBe(4);
    expect(await pm.$$eval('#net .node.endpoint', (e) => e.length)).toBe(4);
    // 4 cables (2 directed links each) + 4 endpoints × 4 links each way
    expect(await pm.$$eval('#net .link', (e) => e.length)).toBe(40);
    // the grid: c104_1_y right of c104_0_y, c104_x_1 above c104_x_0
    const at = await pm.$$eval('#net .node.switch rect', (es) => es.map((e) => [Number(e.getAttribute('x')), Number(e.getAttribute('y'))]));
    expect(at[2]![0]).toBeGreaterThan(at[0]![0]);
    expect(at[1]![1]).toBeLessThan(at[0]![1]);
    const fw = events.find((e) => e.kind === 'packet-forwarded' && e.t > events.find((x) => x.kind === 'packet-forwarded')!.t)!;
    const p = /\(packet (\d+)(?:: (?:data|ack))?\)/.exec(fw.unit!)![1];
    await seek(pm, fw.t);
    expect(await pm.$eval(`#net .pkt[data-msg="${p}"]`, (e) => e.getAttribute('data-link'))).toBe(String(fw.node * 32 + fw.port!));
    expect(errors).toEqual([]);
  });

  it('C104: clicking a packet follows its T9000 message: exactly the links of all its data packets and acks, a row per switch each crossed', async () => {
    const text = await recordC104MeshHeld(join(dir, 'mesh-held-run.jsonl'));
    const { header, events } = parseTrace(text);
    const topo = header.topology as unknown as Topo;
    const pk = switchPackets(events, topo);
    const pm = await page('mesh-held', text);
    // a forwarded data packet, at the cycle it left its first switch
    const fw = events.find((e) => e.kind === 'packet-forwarded' && /: data\)$/.test(e.unit ?? ''))!;
    const p = Number(/\(packet (\d+)/.exec(fw.unit!)![1]);
    await seek(pm, fw.t);
    const tm = await pm.$eval(`#net .pkt[data-msg="${p}"]`, (e) => {
      e.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      return Number(e.getAttribute('data-tmsg'));
    });
    expect(tm).toBe(fw.msg);
    expect(await pm.evaluate(() => document.body.dataset.followMessage)).toBe(String(fw.msg));
    const mine = [...pk.values()].filter((q) => q.link?.msg === fw.msg);
    expect(mine.some((q) => q.link!.ack)).toBe(true);
    const want = [...new Set(mine.flatMap((q) => q.hops.map(([, l]) => l)))].sort((a, b) => a - b);
    const lit = (await pm.$$eval('#net .link.path', (es) => es.map((e) => Number(e.getAttribute('data-link'))))).sort((a, b) => a - b);
    expect(lit).toEqual(want);
    expect(await pm.$eval('#info h3', (e) => e.textContent)).toMatch(new RegExp(`^T9000 message ${fw.msg}: `));
    const rows = await pm.$$eval('#info table.hops tr', (es) => es.slice(1).map((e) => e.children[0]!.textContent));
    expect(rows).toHaveLength(mine.reduce((a, q) => a + q.inputs.length, 0));
    expect(rows.filter((r) => r!.startsWith('ack')).length).toBe(mine.filter((q) => q.link!.ack).reduce((a, q) => a + q.inputs.length, 0));
    // held links and full buffers at a cycle where both occur, as the raw events say
    const c = events.find((e) => e.kind === 'buffer-full')!.t;
    await seek(pm, c);
    const st = c104StatesAt(events, topo, c);
    expect(st.full.length).toBeGreaterThan(0);
    expect((await pm.$$eval('#net .link.held', (es) => es.map((e) => Number(e.getAttribute('data-link'))))).sort((a, b) => a - b)).toEqual(st.held);
    expect((await pm.$$eval('#net rect.full[visibility="visible"]', (es) => es.map((e) => Number(e.getAttribute('data-pbu'))))).sort((a, b) => a - b)).toEqual(st.full);
    expect(errors).toEqual([]);
  });

  it('C104: a deadlock recorded from the REPL draws its ring of waiting links from the cycle it was found, with the held links and full buffers', async () => {
    const { text } = await recordReplRingDeadlock(dir);
    const { header, events } = parseTrace(text);
    const topo = header.topology as unknown as Topo;
    const d = events.find((e) => e.kind === 'deadlock')!;
    const pr = await page('ring', text);
    await seek(pr, d.t - 1);
    expect(await pr.$$eval('#net .ring', (e) => e.length)).toBe(0);
    await seek(pr, d.t);
    expect(await pr.$$eval('#net .ring', (es) => es.map((e) => e.getAttribute('data-ring')))).toEqual([d.ring!.join(' ')]);
    expect(await pr.$$eval('#net .ring .ring-unit', (es) => es.map((e) => e.getAttribute('data-unit')))).toEqual(d.ring);
    expect(await pr.$eval('#status', (e) => e.textContent)).toContain(`DEADLOCK: ${d.ring!.join(' → ')}`);
    const st = c104StatesAt(events, topo, d.t);
    expect((await pr.$$eval('#net .link.held', (es) => es.map((e) => Number(e.getAttribute('data-link'))))).sort((a, b) => a - b)).toEqual(st.held);
    expect((await pr.$$eval('#net rect.full[visibility="visible"]', (es) => es.map((e) => Number(e.getAttribute('data-pbu'))))).sort((a, b) => a - b)).toEqual(st.full);
    // every ring member is drawn on its link: the ring's corners sit on the waiting links
    for (const u of d.ring!.slice(0, -1)) {
      const [, s, j] = /^c104_(\d)\.link(\d+)$/.exec(u)!;
      expect(st.held).toContain(Number(s) * 32 + Number(j));
    }
    // clicking a switch lists its inputs' buffer-full cycles and counts, as the raw events sum them
    const end = events[events.length - 1]!.t + 1;
    const fullOf = (unit: string): [number, number] => {
      let total = 0;
      let times = 0;
      let since = -1;
      for (const e of events) {
        if (e.unit !== unit) continue;
        if (e.kind === 'buffer-full') [since, times] = [e.t, times + 1];
        else if (e.kind === 'buffer-free' && since >= 0) [total, since] = [total + e.t - since, -1];
      }
      return [since >= 0 ? total + end - since : total, times];
    };
    await pr.$eval('#net .node[data-switch="1"]', (e) => e.dispatchEvent(new MouseEvent('click', { bubbles: true })));
    const rows = await pr.$$eval('#info tr', (es) => es.filter((e) => /^in\d+$/.test(e.children[0]?.textContent ?? '')).map((e) => [...e.children].map((c) => c.textContent)));
    expect(rows.length).toBeGreaterThan(1);
    for (const [input, cycles, times] of rows) expect([Number(cycles), Number(times)], `c104_1.${input}`).toEqual(fullOf(`c104_1.${input}`));
    expect(rows.some(([, cycles]) => Number(cycles) > 0)).toBe(true);
    expect(errors).toEqual([]);
  });
});
