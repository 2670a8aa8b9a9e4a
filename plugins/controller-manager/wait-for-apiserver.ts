// Before building its controllers the controller manager waits for the API server's /healthz, as
// upstream's CreateControllerContext calls controller-manager's WaitForAPIServer(10s): a server
// started at the same moment gets time to come up, and one that never answers 200 (nothing
// listening, wrong credentials, unhealthy) ends the process instead of leaving it retrying lists
// for ever with no one the wiser.
import type { RestClient } from '../../core/client/rest-client.js';
import { sleep } from '../../core/abort-wait.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import { linkedTimeout } from '../../core/client/linked-abort.js';
import type { Logger } from '../../core/log.js';

/** Upstream's timeout and poll interval (wait.PollImmediate(time.Second, 10*time.Second, ...)). */
export const WAIT_FOR_APISERVER_MS = 10_000;
const POLL_MS = 1_000;

/** The controller manager cannot set up its controllers: the process exits 1 with this message. */
export class ControllerContextError extends Error {
  override readonly name = 'ControllerContextError';
}

/**
 * Resolves once GET /healthz answers 200; throws a ControllerContextError with upstream's text
 * ("failed to wait for apiserver being healthy: timed out waiting for the condition: <last error>")
 * when `timeoutMs` passes first. Returns quietly when `signal` aborts.
 */
export async function waitForApiServer(client: RestClient, log: Logger, signal: AbortSignal, timeoutMs = WAIT_FOR_APISERVER_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastErr = '';
  for (;;) {
    const left = deadline - Date.now();
    try {
      // A server that accepts and never answers is a failed poll: no request outlives the wait by
      // more than a poll interval (the last poll, at the deadline, still gets its interval).
      const linked = linkedTimeout(signal, Math.max(left, POLL_MS));
      try {
        await client.request('GET', '/healthz', { signal: linked.signal });
      } finally {
        linked.unlink();
      }
      return;
    } catch (e) {
      if (signal.aborted) return;
      lastErr = `failed to get apiserver /healthz status: ${goClientErrorText(e)}`;
      log.v(2).info("APIServer isn't healthy yet, waiting a little while", { err: lastErr });
    }
    // wait.PollImmediate(1s, 10s): a poll a second, the last one when the time is up.
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    await sleep(Math.min(POLL_MS, remaining), signal);
    if (signal.aborted) return;
  }
  throw new ControllerContextError(`failed to wait for apiserver being healthy: timed out waiting for the condition: ${lastErr}`);
}
