// Waiting for a CSR's outcome as the node agent's WaitForCertificate does (k8s-behaviour §5.6):
// list it by name, then watch from the list's version (re-watching when the server ends a watch,
// re-listing when the version is compacted). Issued (Approved and a certificate) ends the wait
// with the issued CSR (or its certificate); a Denied or Failed condition, a deletion or another UID ends it with
// upstream's error. Until the first list succeeds it is tried again every second (WaitForCertificate's
// own loop); after it, failures are an informer's (UntilWithSync's reflector): a watch that cannot
// be opened for now (connection refused, 429) is tried again from the same version, anything else
// lists again, each after the reflector's backoff (0.8 s doubling to 30 s, jittered), so agents cut
// off from a restarting API server neither log every second nor come back all at once. What a
// refusal (a 4xx list or watch) does is the caller's choice (WaitOptions.refusals).
import { isApiError, type ApiError, resourcePath, type List, type RestClient } from '../client/rest-client.js';
import { formatDuration } from '../flags/duration.js';
import { sleep } from '../abort-wait.js';
import { setLongTimeout } from '../long-timeout.js';
import { ExponentialBackoff } from '../controller/backoff.js';
import { isWatchErrorRetriable, statusError } from '../controller/informer.js';
import { CSR_RESOURCE, hasCertificate, type Csr } from './csr-object.js';
import { escapeFieldValue } from '../api/selectors/field-selector.js';

/** The wait ended without a certificate: denied, failed, deleted, replaced, timed out or stopped. */
export class CertificateWaitError extends Error {
  constructor(message: string, readonly timedOut = false) { super(message); }
}

export interface WaitOptions {
  /** The UID the CSR had when created (or first read); another one means it was replaced. */
  readonly uid?: string | undefined;
  readonly timeoutMs: number;
  /** The words for a wait that timed out, when the caller's timeout began before this wait (default: timedOutText of timeoutMs). */
  readonly timeoutText?: string;
  /** Called once when the CSR is seen approved but not yet issued. */
  onApproved?(): void;
  /** Ends the wait early (the caller is stopping). */
  readonly signal?: AbortSignal;
  /**
   * A refused list or watch (401, 403, 400...; not 410 Gone or 429): 'retry' as upstream's
   * WaitForCertificate, whose informer retries until the context ends, so an identity that may
   * create CSRs but not yet list them waits for its one CSR rather than sending more; 'fail' ends
   * the wait with it at once (an operator's command: its user should hear that it cannot list).
   */
  readonly refusals: 'retry' | 'fail';
  /**
   * Each error that is retried, before the pause: `list` for the first list's (retried every
   * second), then the informer's, backed off: `relist` for a failed list, `watch` for a failed watch.
   */
  onRetry?(error: unknown, during: 'list' | 'relist' | 'watch'): void;
  /** A watch that could not be opened for now (isWatchErrorRetriable), watched again after the backoff. */
  onBackoff?(error: unknown, retryInMs: number): void;
  /**
   * A watch ended by an ERROR event (not 410), the event's Status as the error (apierrors.FromObject):
   * a 429 is watched again from the same version after the backoff, anything else listed again, as
   * the reflector's watch loop does (it warns `watch of ... ended with: ...`, no error handler).
   */
  onWatchEnded?(error: ApiError): void;
}

/** The reflector's handleWatch result for an ERROR event: its Status as an API error. */
class WatchEnded extends Error {
  constructor(readonly error: ApiError) { super(error.message); }
}

const RETRY_MS = 1000;

/** The CSR if it is issued, or undefined to keep waiting; throws on a final failure. */
export function issued(csr: Csr, name: string, uid: string | undefined): Csr | undefined {
  if (uid !== undefined && csr.metadata.uid !== uid) throw new CertificateWaitError(`csr "${name}" changed UIDs`);
  let approved = false;
  for (const c of csr.status?.conditions ?? []) {
    if (c.type === 'Denied') throw new CertificateWaitError(`certificate signing request is denied, reason: ${c.reason ?? ''}, message: ${c.message ?? ''}`);
    if (c.type === 'Failed') throw new CertificateWaitError(`certificate signing request failed, reason: ${c.reason ?? ''}, message: ${c.message ?? ''}`);
    if (c.type === 'Approved') approved = true;
  }
  return approved && hasCertificate(csr) ? csr : undefined;
}

const isRefusal = (e: unknown): boolean => isApiError(e) && e.code >= 400 && e.code < 500 && e.code !== 410 && e.code !== 429;

async function follow(client: RestClient, name: string, o: WaitOptions, signal: AbortSignal): Promise<Csr> {
  // fields.OneTermEqualSelector: a name may carry `,` `=` or `\`, which the selector escapes.
  const fieldSelector = `metadata.name=${escapeFieldValue(name)}`;
  let uid = o.uid;
  let toldApproved = false;
  const check = (csr: Csr): Csr | undefined => {
    uid ??= csr.metadata.uid;
    const done = issued(csr, name, uid);
    if (!done && !toldApproved && (csr.status?.conditions ?? []).some((c) => c.type === 'Approved')) { toldApproved = true; o.onApproved?.(); }
    return done;
  };
  let rv: string | undefined;
  let listed = false;
  const backoff = new ExponentialBackoff();
  while (!signal.aborted) {
    let during: 'list' | 'relist' | 'watch' = listed ? 'watch' : 'list';
    try {
      if (rv === undefined) {
        if (listed) during = 'relist';
        const list = await client.request<List<Csr>>('GET', resourcePath(CSR_RESOURCE), { query: { fieldSelector }, signal });
        const csr = list.items[0];
        if (!csr) throw new CertificateWaitError(`csr "${name}" was deleted`);
        const done = check(csr);
        if (done) return done;
        rv = list.metadata.resourceVersion ?? '';
        listed = true;
        during = 'watch';
      }
      const timeoutSeconds = Math.floor(300 * (1 + Math.random()));
      for await (const ev of client.watch<Csr>(CSR_RESOURCE, { resourceVersion: rv, fieldSelector, timeoutSeconds, signal })) {
        if (ev.type === 'ERROR') {
          const error = statusError(ev.object);
          if (error.code === 410) { rv = undefined; break; }
          if (o.refusals === 'fail') throw new CertificateWaitError(`watch failed: ${error.message}`);
          throw new WatchEnded(error);
        }
        rv = ev.object.metadata.resourceVersion ?? rv;
        if (ev.type === 'BOOKMARK') continue;
        if (ev.type === 'DELETED') throw new CertificateWaitError(`csr "${name}" was deleted`);
        const done = check(ev.object);
        if (done) return done;
      }
    } catch (e) {
      if (signal.aborted) break;
      if (e instanceof CertificateWaitError || (o.refusals === 'fail' && isRefusal(e))) throw e;
      if (e instanceof WatchEnded) {
        o.onWatchEnded?.(e.error);
        if (e.error.code !== 429) rv = undefined;
        await sleep(backoff.next(), signal);
        continue;
      }
      if (!listed) {
        o.onRetry?.(e, 'list');
        await sleep(RETRY_MS, signal);
        continue;
      }
      if (rv !== undefined && isWatchErrorRetriable(e)) {
        const retryInMs = backoff.next();
        o.onBackoff?.(e, retryInMs);
        await sleep(retryInMs, signal);
        continue;
      }
      // The reflector's ListAndWatch ends with the error and starts over with a list.
      rv = undefined;
      o.onRetry?.(e, during);
      await sleep(backoff.next(), signal);
    }
  }
  throw new CertificateWaitError('the wait was stopped');
}

export const timedOutText = (timeoutMs: number, name: string): string =>
  `timed out after ${formatDuration(timeoutMs)} waiting for certificate signing request "${name}" to be issued`;

/** Waits at most `timeoutMs` for `name` to be issued; resolves with the issued CSR. */
export async function waitForIssued(client: RestClient, name: string, o: WaitOptions): Promise<Csr> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  let cancelDeadline: (() => void) | undefined;
  // `plat csr wait --timeout=1000h` must wait 1000h: a plain setTimeout would give up after 1 ms.
  const deadline = new Promise<never>((_, reject) => {
    cancelDeadline = setLongTimeout(() => {
      reject(new CertificateWaitError(o.timeoutText ?? timedOutText(o.timeoutMs, name), true));
      stop.abort();
    }, o.timeoutMs);
  });
  try {
    return await Promise.race([follow(client, name, o, stop.signal), deadline]);
  } finally {
    cancelDeadline?.();
    o.signal?.removeEventListener('abort', onAbort);
    stop.abort();
  }
}
