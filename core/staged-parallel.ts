// A parallel hook whose taps run by stage: the taps of one stage run together, and the next stage
// starts once every tap of the lower ones has ended (resolved or failed). `shutdown` needs that
// order and nothing more: the parts that call the API server stop first, the API server then
// drains the requests they left, and what the request path uses (webhook clients, watched files,
// storage) goes last. A series hook would give the order but make independent taps wait on each
// other, and stop at the first error, leaving the rest (the storage) open; here a tap's error is
// reported only once every stage has ended.
import type * as tapable from 'tapable';

type AnyTap = tapable.Tap & { type: 'sync' | 'async' | 'promise'; fn: unknown };

interface Round {
  /** Per stage, the taps of it still running and what ends once none is. */
  readonly stages: Map<number, { running: number; ended: Promise<void>; end: () => void }>;
}

/** Makes `hook` (an AsyncParallelHook) start each stage's taps after the lower stages' taps have ended. */
export function runByStage(hook: tapable.AsyncParallelHook<[]>): void {
  let round: Round | undefined;
  hook.intercept({
    call: () => {
      const stages: Round['stages'] = new Map();
      for (const tap of hook.taps) {
        const stage = tap.stage ?? 0;
        const s = stages.get(stage);
        if (s) { s.running++; continue; }
        let end!: () => void;
        const ended = new Promise<void>((resolve) => { end = resolve; });
        stages.set(stage, { running: 1, ended, end });
      }
      round = { stages };
    },
    register: (tap) => {
      const t = tap as AnyTap;
      const stage = t.stage ?? 0;
      const run = runner(t);
      return {
        ...t, type: 'promise',
        fn: async () => {
          const { stages } = round!;
          await Promise.all([...stages].filter(([s]) => s < stage).map(([, s]) => s.ended));
          let failed: { error: unknown } | undefined;
          try {
            await run();
          } catch (error) {
            failed = { error };
          } finally {
            const mine = stages.get(stage)!;
            if (--mine.running === 0) mine.end();
          }
          // The hook rejects at its first failed tap, and its caller (the process) then ends: a
          // failure is held until every stage has run, so that the drain and the store's close
          // are not cut short by an earlier stage's error.
          if (failed) {
            await Promise.all([...stages.values()].map((s) => s.ended));
            throw failed.error;
          }
        },
      } as typeof tap;
    },
  });
}

/** The tap's own work as a promise, however it was tapped. */
function runner(tap: AnyTap): () => Promise<unknown> {
  const fn = tap.fn as (...args: unknown[]) => unknown;
  switch (tap.type) {
    case 'sync': return async () => fn();
    case 'promise': return () => fn() as Promise<unknown>;
    default: return () => new Promise((resolve, reject) => { fn((err: unknown) => (err ? reject(err) : resolve(undefined))); });
  }
}
