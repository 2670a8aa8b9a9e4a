// What a termination signal does to a `plat csr` command that watches or waits: as
// kubectl/pkg/util/interrupt's Handler with no final handler (how get -w and wait use it), SIGHUP,
// SIGINT, SIGTERM and SIGQUIT cancel the watch and end the command at once with exit 1, printing
// nothing. An interrupted watch did not see what it was asked to see, so it is not a success.

const TERMINATION_SIGNALS: readonly NodeJS.Signals[] = ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGQUIT'];

export class Interrupted extends Error {
  override readonly name = 'Interrupted';
  readonly exitCode = 1;
  constructor(readonly signal: NodeJS.Signals) { super(`interrupted by ${signal}`); }
}

/**
 * Runs `fn` with a signal that a termination signal aborts; it then rejects with Interrupted
 * without waiting for `fn` to notice (kubectl exits from its signal handler).
 */
export async function runInterruptible<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const stop = new AbortController();
  let onSignal: (s: NodeJS.Signals) => void = () => undefined;
  const interrupted = new Promise<never>((_, reject) => {
    onSignal = (s) => { stop.abort(); reject(new Interrupted(s)); };
  });
  for (const s of TERMINATION_SIGNALS) process.on(s, onSignal);
  try {
    return await Promise.race([fn(stop.signal), interrupted]);
  } finally {
    for (const s of TERMINATION_SIGNALS) process.removeListener(s, onSignal);
  }
}
