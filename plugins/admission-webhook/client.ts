// One POST of an AdmissionReview to a webhook over HTTPS: the configuration's caBundle (else the
// system roots) verifies the server, the whole exchange is bounded by the call's deadline (the
// earlier of timeoutSeconds and the request's own), and the URL carries `?timeout=<n>s`, the time
// left, as upstream's dispatchers and REST client add it. Failures are returned as the
// reason texts upstream's client produces (`Post "<url>": context deadline exceeded`, ...), which
// the caller wraps into `failed calling webhook "<name>": failed to call webhook: <reason>`. An
// answer asking to be retried (429 or 5xx with Retry-After) is, as client-go's RESTClient does.
// The request's context (its signal) ends the call too: a client gone is `context canceled`.
import https from 'node:https';
import { rootCertificatesError } from '../../core/client/kubeconfig-tls.js';
import { goTransportReason as transportReason } from '../../core/client/go-url-error.js';
import { readAnswer } from '../../core/client/webhook-answer.js';
import { answerRetryWait, RetryAfter, withRetryAfter } from '../../core/client/request-retry.js';
import type { WebhookClientConfig } from './types.js';
import { checkServerIdentity } from '../../core/client/server-identity.js';
import { CANCELED } from '../../core/server/request-signal.js';

/** Bound on a webhook's answer: an AdmissionReview carries at most a patch of one object. */
const MAX_RESPONSE_BYTES = 6 * 1024 * 1024;
const MAX_AGENTS = 32;

export interface Endpoint {
  readonly url: URL;
  /** TLS server name (the service's DNS name for service references). */
  readonly servername: string;
  /** PEM bundle, or undefined for the system roots. */
  readonly ca: string | undefined;
}

/**
 * The call failed. `code`: the Status code of a webhook's non-2xx answer (client-go's StatusError);
 * `client` when no client could be made; none for a failure without an answer. The dispatchers
 * report it in the webhook metrics as upstream's ErrCallingWebhook.Status.
 */
export class CallFailure extends Error {
  /** `canceled`: the request's context was canceled (the client went away), which upstream's dispatchers count as no fail-open. */
  constructor(message: string, readonly code?: number | 'client', readonly canceled = false) { super(message); }
}

/** The endpoint of a validated clientConfig; throws CallFailure for one that cannot be used. */
export function endpointOf(cc: WebhookClientConfig): Endpoint {
  let ca: string | undefined;
  if (cc.caBundle) {
    const bundle = Buffer.from(cc.caBundle, 'base64');
    // client-go builds the transport before calling: a bundle it cannot use fails here, in its words.
    const problem = rootCertificatesError(bundle);
    if (problem) throw new CallFailure(`could not get REST client: ${problem}`, 'client');
    ca = bundle.toString('utf8');
  }
  if (cc.url !== undefined) {
    let url: URL;
    try { url = new URL(cc.url); } catch (e) { throw new CallFailure(`could not get REST client: ${(e as Error).message}`, 'client'); }
    return { url, servername: url.hostname.replace(/^\[|\]$/g, ''), ca };
  }
  const svc = cc.service ?? {};
  // No Services in plat: a service reference resolves through DNS to <name>.<namespace>.svc, as
  // upstream's default service resolver does.
  const host = `${svc.name ?? ''}.${svc.namespace ?? ''}.svc`;
  const path = svc.path ?? '';
  return { url: new URL(`https://${host}:${svc.port ?? 443}${path.startsWith('/') ? path : `/${path}`}`), servername: host, ca };
}

/** Keep-alive agents by CA bundle, the few most recently used. */
export class AgentPool {
  readonly #agents = new Map<string, https.Agent>();
  get(ca: string | undefined): https.Agent {
    const key = ca ?? '';
    let agent = this.#agents.get(key);
    if (agent) { this.#agents.delete(key); this.#agents.set(key, agent); return agent; }
    agent = new https.Agent({ keepAlive: true, ...(ca ? { ca } : {}), checkServerIdentity });
    this.#agents.set(key, agent);
    if (this.#agents.size > MAX_AGENTS) {
      const [oldestKey, oldest] = this.#agents.entries().next().value!;
      this.#agents.delete(oldestKey);
      oldest.destroy();
    }
    return agent;
  }
  close(): void { for (const a of this.#agents.values()) a.destroy(); this.#agents.clear(); }
}

/** POSTs `body`; resolves with the parsed JSON answer, rejects with CallFailure. */
export async function postReview(endpoint: Endpoint, body: string, deadline: number, agents: AgentPool, signal?: AbortSignal): Promise<unknown> {
  const url = new URL(endpoint.url);
  const remaining = deadline - Date.now();
  // The time left, rounded up to whole seconds, in Go's Duration text (r.Timeout), set once for
  // every attempt; none once past.
  if (remaining > 0) url.searchParams.set('timeout', `${Math.ceil(remaining / 1000)}s`);
  const shown = `Post ${JSON.stringify(url.toString())}`;
  if (remaining <= 0 || signal?.aborted) throw expired(shown, signal);
  // client-go's RESTClient retries an answer that asks for it (429 or 5xx with Retry-After in
  // whole seconds) up to 10 times, after that many seconds; the body is sent again each time.
  return withRetryAfter((mayRetry) => postOnce(endpoint, url, shown, body, deadline, agents, mayRetry, signal),
    { deadline, signal, expired: () => expired(shown, signal) });
}

/** ctx.Err()'s text once the request's context has ended. */
const contextEnd = (signal: AbortSignal | undefined): string | undefined =>
  signal?.aborted ? (signal.reason instanceof Error ? signal.reason.message : String(signal.reason)) : undefined;

/** The call's context is the request's with the call's deadline: whichever ended first names it. */
const expired = (shown: string, signal: AbortSignal | undefined) =>
  new CallFailure(`failed to call webhook: ${shown}: ${contextEnd(signal) ?? 'context deadline exceeded'}`, undefined, contextEnd(signal) === CANCELED);

function postOnce(endpoint: Endpoint, url: URL, shown: string, body: string, deadline: number, agents: AgentPool, mayRetry: boolean,
  signal: AbortSignal | undefined): Promise<unknown> {
  const remaining = deadline - Date.now();
  if (remaining <= 0 || signal?.aborted) return Promise.reject(expired(shown, signal));
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (reason: string, code?: number, canceled = false) => {
      if (!settled) { settled = true; clearTimeout(timer); reject(new CallFailure(`failed to call webhook: ${reason}`, code, canceled)); }
    };
    const onAbort = () => { const end = contextEnd(signal); fail(`${shown}: ${end}`, undefined, end === CANCELED); req.destroy(); };
    const req = https.request({
      method: 'POST', protocol: 'https:', hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port || 443,
      path: url.pathname + url.search, agent: agents.get(endpoint.ca),
      ...(endpoint.servername && !/^[\d.]+$|:/.test(endpoint.servername) ? { servername: endpoint.servername } : {}),
      headers: { 'content-type': 'application/json', accept: 'application/json, */*', 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_RESPONSE_BYTES) { fail(`${shown}: response body larger than ${MAX_RESPONSE_BYTES} bytes`); req.destroy(); return; }
        chunks.push(c);
      });
      res.on('error', (e) => fail(`${shown}: ${transportReason(e, url)}`));
      res.on('end', () => {
        if (settled) return;
        const wait = mayRetry ? answerRetryWait(res.statusCode ?? 0, res.headers) : undefined;
        if (wait !== undefined) {
          settled = true;
          clearTimeout(timer);
          return resolve(new RetryAfter(Math.max(0, wait)));
        }
        const answer = readAnswer(res.statusCode ?? 0, res.headers['content-type'], Buffer.concat(chunks));
        if (!answer.ok) return fail(answer.reason, answer.status?.code);
        settled = true;
        clearTimeout(timer);
        resolve(answer.value);
      });
    });
    const timer = setTimeout(() => { fail(`${shown}: context deadline exceeded`); req.destroy(); }, remaining);
    req.on('error', (e: NodeJS.ErrnoException) => fail(`${shown}: ${transportReason(e, url)}`));
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('close', () => signal?.removeEventListener('abort', onAbort));
    req.end(body);
  });
}
