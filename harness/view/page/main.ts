/// <reference lib="dom" />
/**
 * The page's entry point (bundled and inlined by html.ts): decode the model,
 * draw, and run the timeline — play/pause, speed, step by cycle and by
 * event, a cycle field that jumps, the occupancy window. Each frame asks
 * replay.ts for the state at the current cycle (binary searches and one
 * alive bucket), so seeking anywhere in a long run costs the same as a step.
 */
import type { ViewModel } from '../model.ts';
import { nextEventTime, pathOf, pathOfMessage, prevEventTime, stateAt } from '../replay.ts';
import { revive } from './decode.ts';
import { NetworkPicture } from './draw.ts';
import { heatMap, latencyHistogram, linkInfo, messageInfo, nodeInfo, t9000MessageInfo } from './panels.ts';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

function start(): void {
  const m = JSON.parse($('icemu-data').textContent ?? '', revive) as ViewModel & { sub: number };
  const info = $('info');
  const show = (html: string): void => {
    info.innerHTML = html;
  };
  const follow = (msg: number): void => {
    pic.highlight(msg >= 0 ? pathOf(m, msg) : []);
    document.body.dataset.follow = String(msg);
    if (msg >= 0) show(messageInfo(m, msg));
  };
  /** C104: follow a T9000 message: every one of its packets (data and acks), their paths and per-switch times. */
  const followMessage = (id: number, clicked = -1): void => {
    pic.highlight(id >= 0 ? pathOfMessage(m, id) : []);
    document.body.dataset.follow = '-1';
    document.body.dataset.followMessage = String(id);
    if (id >= 0) show(t9000MessageInfo(m, id, clicked));
  };
  const pic = new NetworkPicture(m, $('stage'), { link: (l) => show(linkInfo(m, l)), node: (x) => show(nodeInfo(m, x)), packet: follow, message: followMessage }, m.sub);
  heatMap(m, $('heatbox'), (l) => show(linkInfo(m, l)));
  latencyHistogram(m, $('histbox'));
  const t = m.c104;
  $('title').textContent = t
    ? `${m.title}: C104 network${t.grid ? ` (${t.grid.w}×${t.grid.h} mesh)` : ''}, ${t.switches.length} switches, ${t.endpoints.length} T9000s, ${m.tEnd + 1} ${m.unit}; packets are switch-level (data and acks)${m.messages ? ', each linked to its T9000 message' : ', followed by their number'}`
    : `${m.title}: Buzzard ${m.n}-cube, ${m.nodes} nodes, ${m.tEnd + 1} ${m.unit}${m.n > 6 ? ` (sub-cube ${m.sub} of dimensions 1..6 drawn)` : ''}`;

  const slider = $<HTMLInputElement>('slider');
  const field = $<HTMLInputElement>('cycle');
  const speed = $<HTMLSelectElement>('speed');
  const win = $<HTMLSelectElement>('window');
  const play = $<HTMLButtonElement>('play');
  slider.max = String(m.tEnd);
  let cycle = 0;
  let playing = false;
  let acc = 0;
  let lastT = 0;

  const render = (): void => {
    const s = stateAt(m, cycle, Number(win.value));
    pic.update(s);
    slider.value = String(cycle);
    field.value = String(cycle);
    $('status').textContent = `${s.packets.length} packets in flight, ${s.held.reduce((a, b) => a + b, 0)} links held, ${s.full.reduce((a, b) => a + b, 0)} buffers full${s.rings.length ? `, DEADLOCK: ${s.rings[s.rings.length - 1]!.join(' → ')}` : ''}`;
    document.body.dataset.cycle = String(cycle);
  };
  const seek = (c: number): void => {
    cycle = Math.max(0, Math.min(m.tEnd, Math.round(c)));
    render();
  };
  const setPlaying = (on: boolean): void => {
    playing = on;
    play.textContent = on ? 'pause' : 'play';
    lastT = performance.now();
    acc = 0;
    if (on) requestAnimationFrame(tick);
  };
  const tick = (now: number): void => {
    if (!playing) return;
    acc += ((now - lastT) / 1000) * Number(speed.value);
    lastT = now;
    if (acc >= 1) {
      const step = Math.floor(acc);
      acc -= step;
      seek(cycle + step);
      if (cycle >= m.tEnd) setPlaying(false);
    }
    if (playing) requestAnimationFrame(tick);
  };
  play.addEventListener('click', () => setPlaying(!playing));
  slider.addEventListener('input', () => seek(Number(slider.value)));
  field.addEventListener('change', () => seek(Number(field.value)));
  win.addEventListener('change', render);
  $('back').addEventListener('click', () => seek(cycle - 1));
  $('fwd').addEventListener('click', () => seek(cycle + 1));
  $('prevev').addEventListener('click', () => seek(prevEventTime(m, cycle)));
  $('nextev').addEventListener('click', () => seek(nextEventTime(m, cycle)));
  $<HTMLInputElement>('msg').addEventListener('change', (ev) => {
    const v = (ev.target as HTMLInputElement).value.trim();
    follow(v === '' ? -1 : Number(v));
  });
  $<HTMLInputElement>('tmsg')?.addEventListener('change', (ev) => {
    const v = (ev.target as HTMLInputElement).value.trim();
    followMessage(v === '' ? -1 : Number(v));
  });
  if (m.deadlocks.length) $('deadlocks').innerHTML = m.deadlocks.map((d) => `<button data-t="${d.t}">deadlock at ${d.t}</button>`).join(' ');
  $('deadlocks').addEventListener('click', (ev) => {
    const t = (ev.target as HTMLElement).dataset.t;
    if (t) seek(Number(t));
  });
  render();
  document.body.dataset.ready = '1';
}

start();
