// The reflector's backoff (client-go wait.NewExponentialBackoffManager(800ms, 30s, 2m, 2.0, 1.0)),
// with its clock and random source injected: 800 ms doubling to a 30 s cap, each wait jittered
// up to twice itself, and a fresh start only after two minutes without a failure.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExponentialBackoff } from '../../core/controller/backoff.js';

describe('ExponentialBackoff (the reflector\'s)', () => {
  const run = (random: number, failuresAt: number[]): number[] => {
    let now = 0;
    const b = new ExponentialBackoff({ now: () => now, random: () => random });
    return failuresAt.map((t) => { now = t; return b.next(); });
  };
  const every = (n: number, stepMs: number): number[] => Array.from({ length: n }, (_, i) => i * stepMs);

  const table: { name: string; random: number; at: number[]; want: number[] }[] = [
    { name: 'no jitter: 800 ms doubling, capped at 30 s', random: 0, at: every(9, 1000),
      want: [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000] },
    { name: 'full jitter: each wait up to twice itself (just under)', random: 0.999, at: every(8, 1000),
      want: [1599, 3198, 6396, 12793, 25587, 51174, 59970, 59970] },
    { name: 'half jitter', random: 0.5, at: every(3, 1000), want: [1200, 2400, 4800] },
    { name: 'failures under two minutes apart keep growing', random: 0, at: [0, 119_000, 238_000], want: [800, 1600, 3200] },
    { name: 'two minutes without a failure start over', random: 0, at: [0, 1000, 2000, 122_001], want: [800, 1600, 3200, 800] },
  ];
  for (const c of table) {
    it(c.name, () => assert.deepEqual(run(c.random, c.at), c.want));
  }

  it('draws a fresh random number for every wait', () => {
    const draws = [0, 0.5, 0.25];
    let i = 0;
    const b = new ExponentialBackoff({ now: () => 0, random: () => draws[i++]! });
    assert.deepEqual([b.next(), b.next(), b.next()], [800, 2400, 4000]);
  });
});
