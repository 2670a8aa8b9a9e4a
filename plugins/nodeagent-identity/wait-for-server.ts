// The legacy bootstrap's waitForServer: before its CSR, /healthz is asked with the bootstrap
// credentials (1 s per request) right away and then 2 s (up to 20% more) after each failure, for
// at most a minute, so a node started with its API server sends the CSR once that server answers
// rather than failing at once. Giving up is no error: the CSR is sent anyway, as upstream's.
import { sleep } from '../../core/abort-wait.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import { linkedTimeout } from '../../core/client/linked-abort.js';
import type { RestClient } from '../../core/client/rest-client.js';
import type { Logger } from '../../core/log.js';

export interface WaitForServerOptions {
  readonly deadlineMs?: number;
  readonly random?: () => number;
}

/** True once /healthz answered 2xx; false when the deadline passed or `signal` stopped it. */
export async function waitForServer(client: RestClient, log: Logger, signal: AbortSignal, o: WaitForServerOptions = {}): Promise<boolean> {
  // Not AbortSignal.any([signal, AbortSignal.timeout(...)]): on Node 20 a collection can take the
  // timeout signal held only there (nodejs/node#57736), and the wait then never ended.
  const deadline = linkedTimeout(signal, o.deadlineMs ?? 60_000);
  const random = o.random ?? Math.random;
  try {
    while (!deadline.signal.aborted) {
      try {
        await client.request('GET', '/healthz', { timeoutMs: 1000, signal: deadline.signal });
        return true;
      } catch (e) {
        if (deadline.signal.aborted) break;
        log.info('Failed to connect to apiserver', { err: goClientErrorText(e) });
      }
      // wait.JitterUntil(f, 2s, 0.2, sliding): the pause starts when the attempt ends.
      await sleep(2000 * (1 + 0.2 * random()), deadline.signal);
    }
  } finally {
    deadline.unlink();
  }
  if (!signal.aborted) log.info('Error waiting for apiserver to come up', { err: 'timed out waiting to connect to apiserver' });
  return false;
}
