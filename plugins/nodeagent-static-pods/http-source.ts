// staticPodURL, fetched as upstream's URL source does (pkg/kubelet/config/http.go): GET with the
// staticPodURLHeader headers (a repeated name sent as repeated header lines), 10 s per fetch,
// redirects followed (at most 10; credentials dropped when the host changes, as Go's client does),
// at most 10 MiB read. A 200 with the same bytes as the last non-empty body changes nothing (even
// after an empty one, as upstream); an empty body means no pods; otherwise a Pod, else a PodList
// (one invalid item refuses the list). Any failure keeps the previous set, and is logged three
// times at full verbosity, then at -v=4 until a fetch works.
// A password in a URL is said as `user:***@`, as Go's client says it in its errors (stripPassword);
// upstream prints the configured URL of its own errors as written, plat masks those too.
import http from 'node:http';
import https from 'node:https';
import { goQuote } from '../../core/go-quote.js';
import { stripPassword } from '../../core/go-strip-password.js';
import type { Logger } from '../../core/log.js';
import type { FeatureGates } from '../../core/nodeagent/feature-gates.js';
import { tryDecodePodList, tryDecodeSinglePod } from './decode-pod.js';
import { MAX_CONFIG_LENGTH } from './file-source.js';
import { linkedTimeout } from '../../core/client/linked-abort.js';
import type { Obj } from './pod-defaults.js';

const FETCH_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 10;
const SENSITIVE_HEADERS = ['authorization', 'www-authenticate', 'cookie', 'cookie2'];
/** Bodies in error messages are cut here: a log line is no place for megabytes. */
const MAX_QUOTED_BODY = 4096;

interface Fetched { status: number; statusText: string; body: Buffer }

function get(url: URL, headers: Readonly<Record<string, readonly string[]>>, signal: AbortSignal, redirects = 0): Promise<Fetched> {
  const lib = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : undefined;
  if (!lib) return Promise.reject(new Error(`unsupported protocol scheme ${JSON.stringify(url.protocol.replace(/:$/, ''))}`));
  return new Promise((resolve, reject) => {
    let reading = false;
    const req = lib.request(url, { method: 'GET', signal, headers: headers as Record<string, string[]> }, (res) => {
      reading = true;
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if ([301, 302, 303, 307, 308].includes(status) && location) {
        res.resume();
        // Go names the Location header as sent, not the URL it resolves to.
        if (redirects >= MAX_REDIRECTS) { reject(new Error(`Get ${goQuote(stripPassword(location))}: stopped after ${MAX_REDIRECTS} redirects`)); return; }
        const next = new URL(location, url);
        const kept = next.host === url.host ? headers : Object.fromEntries(Object.entries(headers).filter(([k]) => !SENSITIVE_HEADERS.includes(k.toLowerCase())));
        get(next, kept, signal, redirects + 1).then(resolve, reject);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_CONFIG_LENGTH) { res.destroy(); reject(new Error('the read limit is reached')); return; }
        chunks.push(c);
      });
      res.on('error', (e) => reject(signal.aborted ? timedOut() : e));
      res.on('end', () => resolve({ status, statusText: res.statusMessage ?? '', body: Buffer.concat(chunks) }));
    });
    // Go's two timeouts: client.Do's url.Error before the headers, cancelTimerBody's while reading the body.
    const timedOut = () => new Error(reading ? 'context deadline exceeded (Client.Timeout or context cancellation while reading body)'
      : `Get ${goQuote(stripPassword(url.href))}: context deadline exceeded (Client.Timeout exceeded while awaiting headers)`);
    req.on('error', (e) => reject(signal.aborted ? timedOut() : e));
    req.end();
  });
}

export class HttpSource {
  #last: Buffer | undefined;
  #failures = 0;
  /** The URL as error texts say it. */
  readonly #shown: string;

  constructor(
    private readonly url: string,
    private readonly headers: Readonly<Record<string, readonly string[]>>,
    private readonly nodeName: string,
    private readonly gates: FeatureGates,
    private readonly log: Logger,
  ) {
    this.#shown = stripPassword(url);
  }

  /** One fetch: the pods to set, or undefined to keep the previous set. */
  async poll(signal?: AbortSignal): Promise<Obj[] | undefined> {
    try {
      const pods = await this.#extract(signal);
      if (this.#failures > 0) this.log.info('Successfully read pods from URL');
      this.#failures = 0;
      return pods;
    } catch (e) {
      const err = (e as Error).message;
      if (this.#failures < 3) this.log.info('Failed to read pods from URL', { err });
      else if (this.#failures === 3) this.log.info('Failed to read pods from URL. Dropping verbosity of this message to V(4)', { err });
      else this.log.v(4).info('Failed to read pods from URL', { err });
      this.#failures++;
      // An empty answer still tells what the source wants: no pods (upstream sends the empty set first).
      return (e as { empty?: boolean }).empty ? [] : undefined;
    }
  }

  async #extract(outer?: AbortSignal): Promise<Obj[] | undefined> {
    // Not AbortSignal.any: each poll would leave a record on the agent's signal (linked-abort.ts).
    const linked = outer ? linkedTimeout(outer, FETCH_TIMEOUT_MS) : undefined;
    let r: Awaited<ReturnType<typeof get>>;
    try {
      r = await get(new URL(this.url), this.headers, linked?.signal ?? AbortSignal.timeout(FETCH_TIMEOUT_MS));
    } finally {
      linked?.unlink();
    }
    if (r.status !== 200) throw new Error(`${this.#shown}: ${r.status} ${r.statusText}`);
    if (r.body.length === 0) {
      // Upstream returns here before remembering the data, so the body before the empty one still
      // counts as unchanged when it comes back: its pods stay gone until the content changes.
      throw Object.assign(new Error(`zero-length data received from ${this.#shown}`), { empty: true });
    }
    if (this.#last && r.body.equals(this.#last)) return undefined;
    this.#last = r.body;
    const data = r.body.toString('utf8');
    const source = { source: this.url, isFile: false, nodeName: this.nodeName };
    const single = tryDecodeSinglePod(data, source, this.gates);
    if (single.parsed) {
      if ('error' in single) throw new Error(single.error);
      return [single.value];
    }
    const many = tryDecodePodList(data, source, this.gates);
    if (many.parsed) {
      if ('error' in many) throw new Error(many.error);
      return many.value;
    }
    const quoted = data.length > MAX_QUOTED_BODY ? `${data.slice(0, MAX_QUOTED_BODY)}...` : data;
    throw new Error(`${this.#shown}: received '${quoted}', but couldn't parse as single (${single.error}) or multiple pods (${many.error})`);
  }
}
