/**
 * How fast `icemu view` pages are made and opened (a measurement, not a
 * test): `npx tsx bench/view_open.ts out/main.jsonl` generates the page
 * in-process, opens it in headless Chromium (puppeteer-core, the system
 * `chromium`), and reports the time to the page's ready mark and the cost
 * of one frame (a seek: the state at a cycle computed and drawn), averaged
 * over 300 random seeks over the run and over 300 consecutive frames (playing).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import puppeteer from 'puppeteer-core';
import { loadModel } from '../harness/view/load.ts';
import { renderPage } from '../harness/view/html.ts';

const trace = process.argv[2] ?? 'out/main.jsonl';
const out = resolve(process.argv[3] ?? trace.replace(/\.jsonl$/, '') + '.bench.html');
const t0 = performance.now();
const m = loadModel(trace);
const t1 = performance.now();
const html = renderPage(m);
writeFileSync(out, html);
const t2 = performance.now();
console.log(`${trace}: ${m.nodes} nodes, ${m.tEnd + 1} cycles, ${m.pkt.msg.length} packets; load+model ${(t1 - t0).toFixed(0)} ms, page ${(t2 - t1).toFixed(0)} ms, ${(html.length / 1e6).toFixed(1)} MB`);
const browser = await puppeteer.launch({ executablePath: process.env.ICEMU_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const page = await browser.newPage();
await page.setViewport({ width: 1500, height: 900 });
const t3 = performance.now();
await page.goto(`file://${out}`);
await page.waitForSelector('body[data-ready="1"]', { timeout: 60_000 });
const t4 = performance.now();
const frame = await page.evaluate(async (tEnd: number) => {
  const field = document.getElementById('cycle') as HTMLInputElement;
  const k = 300;
  const a = performance.now();
  for (let i = 0; i < k; i++) {
    field.value = String(Math.floor(((i * 7919) % k) * (tEnd / k)));
    field.dispatchEvent(new Event('change'));
    document.body.getBoundingClientRect(); // force layout, as a frame would
  }
  return (performance.now() - a) / k;
}, m.tEnd);
// playing: 300 consecutive frames 100 cycles apart (1,000 cycles/s at 10 frames/s, or 6,000 at 60) from the middle of the run
const play = await page.evaluate(async (tEnd: number) => {
  const field = document.getElementById('cycle') as HTMLInputElement;
  const k = 300;
  const c0 = Math.floor(tEnd / 2);
  const a = performance.now();
  for (let i = 0; i < k; i++) {
    field.value = String(c0 + 100 * i);
    field.dispatchEvent(new Event('change'));
    document.body.getBoundingClientRect();
  }
  return (performance.now() - a) / k;
}, m.tEnd);
console.log(`open to ready: ${(t4 - t3).toFixed(0)} ms; one frame (state + draw + layout): ${frame.toFixed(2)} ms mean over 300 random seeks, ${play.toFixed(2)} ms over 300 consecutive frames 100 cycles apart`);
await browser.close();
