/**
 * Reverse stepping in the debugger REPL (harness/repl/engine.ts "time
 * travel"): `back n` restores the nearest automatic checkpoint at or before
 * now - n and replays the logged stimulus, so the state (state hash: every
 * register, wire and memory word) equals the one recorded when the model
 * first passed that cycle; history forks there. Also: named checkpoints,
 * `wave` (which replays too) leaves no trace, and the event recorder is
 * rebuilt consistently.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReplEngine } from '../../harness/repl/engine.ts';

async function ok(eng: ReplEngine, cmd: string): Promise<string> {
  const r = await eng.exec(cmd);
  expect(r.error, `${cmd} -> ${r.error}`).toBeUndefined();
  return r.lines.join('\n');
}

describe('REPL back (reverse step)', () => {
  for (const every of [1000, 10]) {
    it(`the state after back 10 equals the state recorded 10 cycles earlier (checkpoints every ${every} cycles)`, async () => {
      const eng = new ReplEngine({ preset: 'cube3', checkpointEvery: every });
      await ok(eng, 'send 0 7 100');
      await ok(eng, 'receive 7 0');
      await ok(eng, 'send 5 2 30');
      await ok(eng, 'step 40');
      const seen = new Map<number, string>();
      for (let k = 0; k < 80; k++) {
        seen.set(eng.cycle, eng.sim.stateHash());
        await ok(eng, 'step');
      }
      seen.set(eng.cycle, eng.sim.stateHash());
      expect(eng.cycle).toBe(120);
      const out = await ok(eng, 'back 10');
      expect(out).toMatch(new RegExp(`^cycle 110 \\(back 10 from 120: checkpoint at cycle ${every === 10 ? 110 : 0}, ${every === 10 ? 0 : 110} cycles replayed\\)$`));
      expect(eng.sim.stateHash()).toBe(seen.get(110));
      for (const n of [1, 7, 23, 3]) {
        const to = eng.cycle - n;
        await ok(eng, `back ${n}`);
        expect(eng.cycle).toBe(to);
        expect(eng.sim.stateHash(), `back ${n} to ${to}`).toBe(seen.get(to));
      }
      // forward again: the same states as the first time
      for (let k = 0; k < 30; k++) {
        await ok(eng, 'step');
        expect(eng.sim.stateHash(), `cycle ${eng.cycle}`).toBe(seen.get(eng.cycle));
      }
    });
  }

  it('a command typed at the target cycle is kept, later ones are forgotten (history forks)', async () => {
    const eng = new ReplEngine({ preset: 'cube2', checkpointEvery: 10 });
    await ok(eng, 'step 30');
    const h30 = eng.sim.stateHash();
    await ok(eng, 'poke node1.fcu2.busyCycles 1234'); // typed at cycle 30
    const h30poked = eng.sim.stateHash();
    expect(h30poked).not.toBe(h30);
    await ok(eng, 'step 15');
    await ok(eng, 'send 0 3 50'); // typed at cycle 45
    await ok(eng, 'run 200');
    expect(eng.driver.sent).toHaveLength(1);
    await ok(eng, 'back 215'); // to cycle 30
    expect(eng.cycle).toBe(30);
    expect(eng.sim.stateHash()).toBe(h30poked);
    expect(eng.driver.sent).toHaveLength(0);
    expect(await ok(eng, 'messages')).toMatch(/^no messages sent/);
    expect(await ok(eng, 'continue')).toMatch(/idle: nothing is moving and nothing is scheduled$/);
    expect(await ok(eng, 'print node1.fcu2.busyCycles')).toMatch(/= 1234 /);
    // the driver's memory is free again: a new message gets the forgotten one's buffer and block
    await ok(eng, 'send 0 3 50');
    expect(eng.driver.sent[0]!.buffer).toBe(0x100);
  });

  it('property: random sessions with stimulus, runs, backs and named checkpoints always come back to the recorded states', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            { weight: 2, arbitrary: fc.tuple(fc.nat(3), fc.nat(2), fc.integer({ min: 1, max: 120 })).map(([s, d, b]) => `send ${s} ${(s + 1 + d) % 4} ${b}`) },
            { weight: 1, arbitrary: fc.nat(3).map((x) => `receive ${x} any 200 any`) },
            { weight: 1, arbitrary: fc.tuple(fc.nat(3), fc.nat(99)).map(([x, v]) => `poke node${x}.fcu1.holdCycles ${v}`) },
            { weight: 4, arbitrary: fc.integer({ min: 1, max: 60 }).map((n) => `step ${n}`) },
            { weight: 3, arbitrary: fc.integer({ min: 1, max: 150 }).map((n) => `back* ${n}`) },
            { weight: 1, arbitrary: fc.constantFrom('checkpoint k', 'restore k') },
          ),
          { minLength: 5, maxLength: 30 },
        ),
        async (cmds) => {
          const eng = new ReplEngine({ preset: 'cube2', checkpointEvery: 16 });
          let timeline = new Map<number, string>([[0, eng.sim.stateHash()]]);
          let saved: Map<number, string> | undefined;
          for (const raw of cmds) {
            let cmd = raw;
            if (raw.startsWith('back*')) {
              const n = Math.min(Number(raw.slice(6)), eng.cycle);
              if (n === 0) continue;
              cmd = `back ${n}`;
            }
            if (cmd === 'restore k' && !saved) continue;
            if (cmd.startsWith('step ')) {
              // one cycle at a time, so that every cycle's state is on record
              for (let k = Number(cmd.slice(5)); k > 0; k--) {
                await ok(eng, 'step');
                timeline.set(eng.cycle, eng.sim.stateHash());
              }
              continue;
            }
            const before = eng.cycle;
            const r = await eng.exec(cmd);
            expect(r.error, `${cmd}: ${r.error}`).toBeUndefined();
            const now = eng.cycle;
            if (cmd.startsWith('back')) {
              // the cycle reached is exactly now − n, not merely some recorded state
              expect(now, `${cmd} from cycle ${before}`).toBe(before - Number(cmd.slice(5)));
              expect(eng.sim.stateHash(), `${cmd} to cycle ${now}`).toBe(timeline.get(now));
              timeline = new Map([...timeline].filter(([c]) => c <= now));
            } else if (cmd === 'restore k') {
              timeline = new Map(saved);
              expect(eng.sim.stateHash(), `restore k at cycle ${now}`).toBe(timeline.get(now));
            } else if (cmd === 'checkpoint k') {
              saved = new Map(timeline);
            }
            timeline.set(now, eng.sim.stateHash());
          }
        },
      ),
      { numRuns: 12, seed: 20240611 },
    );
  });

  it('wave replays the past but leaves the state, the recorder and the future untouched', async () => {
    const run = async (withWaves: boolean): Promise<{ hash: string; events: string; out: string }> => {
      const eng = new ReplEngine({ preset: 'cube2', checkpointEvery: 50 });
      await ok(eng, 'send 0 3 200');
      await ok(eng, 'receive 3 0');
      let out = '';
      for (let k = 0; k < 6; k++) {
        await ok(eng, 'step 37');
        if (withWaves) {
          const h = eng.sim.stateHash();
          out += await ok(eng, 'wave node1.pbu1.inBit node1.pbu1.inState node0.nop.state1 60');
          expect(eng.sim.stateHash()).toBe(h);
        }
      }
      await ok(eng, 'continue');
      return { hash: eng.sim.stateHash(), events: JSON.stringify(eng.rec.events), out };
    };
    const a = await run(false);
    const b = await run(true);
    expect(b.hash).toBe(a.hash);
    expect(b.events).toBe(a.events);
    expect(b.out).toMatch(/node1\.pbu1\.inBit \| .*\/.*\\/);
  });

  it('the event recorder rebuilt from the cycle-0 checkpoint gives the same events as a run without back', async () => {
    const plain = new ReplEngine({ preset: 'cube3' });
    const tt = new ReplEngine({ preset: 'cube3' });
    for (const eng of [plain, tt]) {
      await ok(eng, 'send 1 6 90');
      await ok(eng, 'receive 6 1');
    }
    await ok(plain, 'continue');
    await ok(tt, 'run 400');
    await ok(tt, 'back 250');
    await ok(tt, 'step 100');
    await ok(tt, 'back 3');
    await ok(tt, 'continue');
    expect(tt.sim.stateHash()).toBe(plain.sim.stateHash());
    expect(tt.rec.events).toEqual(plain.rec.events);
    expect(tt.rec.events.some((e) => e.kind === 'message-complete')).toBe(true);
    expect(tt.rec.anomalies).toEqual([]);
  });

  it('many checkpoints thin out (the interval doubles) and back still lands exactly', async () => {
    const eng = new ReplEngine({ preset: 'cube2', checkpointEvery: 10 });
    await ok(eng, 'send 0 3 3000');
    await ok(eng, 'receive 3 0');
    const seen = new Map<number, string>();
    for (let k = 0; k < 30; k++) {
      await ok(eng, 'step 50');
      seen.set(eng.cycle, eng.sim.stateHash());
    }
    const stats = await ok(eng, 'stats');
    const m = /checkpoints: (\d+) automatic \(every (\d+) cycles\)/.exec(stats)!;
    expect(Number(m[1])).toBeLessThanOrEqual(64);
    expect(Number(m[2])).toBeGreaterThan(10);
    await ok(eng, 'back 1450');
    expect(eng.cycle).toBe(50);
    expect(eng.sim.stateHash()).toBe(seen.get(50));
  });
});
