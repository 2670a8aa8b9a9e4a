// client-go's certificate manager (k8s-behaviour §5.7): keeps one certificate current in a FileStore.
// It rotates at a jittered point of the certificate's life (NotBefore + [0.7, 0.9) x lifetime), at
// once when there is no certificate or the current one no longer satisfies the template (checked
// every `templateCheckMs`, also while a request is waited for: one that no longer fits is given
// up), and answers current() with nothing once the certificate has expired; a holder that keeps the
// pair (a TLS server) is told through onExpired, since nothing else changes at NotAfter.
// Once it has decided to rotate it keeps trying until it succeeds, as upstream's
// wait.ExponentialBackoff({2s, x2, jitter 0.1, 5 steps}) then wait.PollInfinite(32s): five attempts
// 2, 4, 8 and 16 s apart (each up to 10% longer), then one every 32 s; the deadline is not drawn
// again between attempts, since a new draw could put the next attempt off by a fifth of the life.
import type { X509Certificate } from 'node:crypto';
import { parseCertificate, type ParsedCertificate } from '../../crypto/index.js';
import type { Logger } from '../../log.js';
import { sleep } from '../../abort-wait.js';
import { formatDuration } from '../../flags/duration.js';
import { goTime } from '../../go-time-text.js';
import { ApiError, type RestClient } from '../rest-client.js';
import { waitForCertificate, waitLogHooks } from './wait.js';
import { requestCertificate, type CertificateTemplate, type CertificateUse, type CreatedRequest } from './request.js';
import { keyToPem, NoCertKeyError, type FileStore, type StoredPair } from './store.js';

export interface CertificateManagerOptions {
  readonly store: FileStore;
  readonly signerName: string;
  readonly use: CertificateUse;
  /** What the certificate must say; undefined while it cannot be known yet (a node with no IP). */
  template(): CertificateTemplate | undefined;
  /** The client that sends the CSR (bootstrap credentials while there is no current certificate). */
  client(): RestClient | Promise<RestClient>;
  readonly logger: Logger;
  /** Called with the pair in force (unexpired) at start and after every rotation. */
  onCurrent?(pair: StoredPair): void;
  /** Called, within `templateCheckMs`, when the pair in force passes NotAfter and no new one has replaced it. */
  onExpired?(pair: StoredPair): void;
  /**
   * Upstream's "server healthy": true after a rotation and after a CSR create refused with 401, 403
   * or 404 (the API server works and says no), false after any other failure to create one. A CSR
   * that is denied, failed or never issued says nothing about the server.
   */
  onServerHealth?(healthy: boolean): void;
  /** Upstream's CertificateRenewFailure: counts every failed rotation attempt, whatever step failed. */
  readonly renewFailures?: { inc(): void };
  /** Upstream's CertificateRotation: the seconds a replaced certificate had lived since its NotBefore. */
  readonly rotationAge?: { observe(seconds: number): void };
  /** A certificate that came from bootstrap credentials is replaced at once. */
  readonly forceInitialRotation?: boolean;
  readonly now?: () => Date;
  /** Uniform in [0, 1): the rotation jitter. */
  readonly random?: () => number;
  readonly waitTimeoutMs?: number;
  readonly templateCheckMs?: number;
  /** Test seam: the waits between attempts and until the deadline. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const WAIT_TIMEOUT_MS = 15 * 60_000;
/** The waits after the first four failures; the fifth failure ends the exponential part. */
const BACKOFF_MS = [2_000, 4_000, 8_000, 16_000];
const POLL_MS = 32_000;
/** Start's wait.Until period between one rotation's end and the next look at the deadline. */
const UNTIL_PERIOD_MS = 1_000;

/** The rotation deadline of a certificate (§5.7). */
export function rotationDeadline(notBefore: Date, notAfter: Date, random: number): Date {
  const total = notAfter.getTime() - notBefore.getTime();
  return new Date(notBefore.getTime() + Math.round(total * (0.7 + 0.2 * random)));
}

/** Go's `%v` of a sorted string set's List(): `[a b]`. */
const goList = (items: readonly string[]): string => `[${[...new Set(items)].sort().join(' ')}]`;

/**
 * Why the certificate no longer fits the template, in certSatisfiesTemplateLocked's words and
 * order (CN, then missing DNS names, IPs, organizations); undefined when it fits.
 */
// Checked every second for as long as a pair is in force: it is parsed once.
const parsedLeaves = new WeakMap<X509Certificate, ParsedCertificate>();
function parsedLeaf(leaf: X509Certificate): ParsedCertificate {
  let p = parsedLeaves.get(leaf);
  if (!p) parsedLeaves.set(leaf, (p = parseCertificate(leaf.raw)));
  return p;
}

export function templateMismatch(pair: StoredPair, t: CertificateTemplate): string | undefined {
  // The subject as Go's pkix.Name reads it: node:crypto's text joins the values of a multi-valued
  // RDN (`O=a + O=b`), which Go's CreateCertificate writes for several organizations.
  const subject = parsedLeaf(pair.leaf);
  const cn = subject.commonName;
  if (cn !== t.commonName) return `Current certificate CN (${cn}) does not match requested CN (${t.commonName})`;
  const sans = (pair.leaf.subjectAltName ?? '').split(', ');
  const dns = t.dnsNames.filter((d) => !sans.includes(`DNS:${d}`));
  if (dns.length > 0) return `Current certificate is missing requested DNS names ${goList(dns)}`;
  const ips = t.ipAddresses.filter((ip) => !sans.some((s) => s.startsWith('IP Address:') && sameIp(s.slice(11), ip)));
  if (ips.length > 0) return `Current certificate is missing requested IP addresses ${goList(ips)}`;
  const missingOrgs = t.organizations.filter((o) => !subject.organizations.includes(o));
  if (missingOrgs.length > 0) return `Current certificate is missing requested orgs ${goList(missingOrgs)}`;
  return undefined;
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
const sameTemplate = (a: CertificateTemplate, b: CertificateTemplate): boolean => a.commonName === b.commonName
  && sameList(a.organizations, b.organizations) && sameList(a.dnsNames, b.dnsNames) && sameList(a.ipAddresses, b.ipAddresses);

const sameIp = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase() || expandV6(a) === expandV6(b);
function expandV6(ip: string): string {
  if (!ip.includes(':')) return ip;
  const [head, tail] = ip.toLowerCase().split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - h.length - t.length).fill('0');
  return [...h, ...fill, ...t].map((x) => x.padStart(4, '0')).join(':');
}

/** One failed attempt: upstream's message for the step that failed, and the error. */
interface Failure { readonly message: string; readonly error: unknown; readonly healthy?: boolean }

export class CertificateManager {
  #current: StoredPair | undefined;
  /** The pair last given to onCurrent, until it expires. */
  #inForce: StoredPair | undefined;
  #bootstrapped: boolean;
  /** The prefix of its log lines: upstream's Config.Name, which the kubelet leaves to default to the signer name. */
  readonly #name: string;
  readonly #now: () => Date;
  readonly #random: () => number;
  readonly #sleep: (ms: number, signal: AbortSignal) => Promise<void>;

  constructor(private readonly o: CertificateManagerOptions) {
    this.#now = o.now ?? (() => new Date());
    this.#random = o.random ?? Math.random;
    this.#sleep = o.sleep ?? sleep;
    this.#bootstrapped = o.forceInitialRotation ?? false;
    this.#name = o.signerName;
    try {
      this.#current = o.store.current();
    } catch (e) {
      // getCurrentCertificateOrBootstrap: only "no cert/key files" means "request one"; anything
      // else stops start-up (as the kubelet's NewManager error does) instead of sending a new CSR
      // at every retry that then cannot be stored.
      if (!(e instanceof NoCertKeyError)) {
        throw new Error(`failed to initialize ${o.use === 'client' ? 'client ' : ''}certificate manager: ${(e as Error).message}`);
      }
    }
  }

  /** The pair in force; nothing once it has expired (§5.7). */
  current(): StoredPair | undefined {
    const c = this.#current;
    return c && this.#now().getTime() < c.notAfter.getTime() ? c : undefined;
  }

  /** upstream's m.logf: klog.V(2).Infof with the manager's name first. */
  #logf(text: string): void {
    this.o.logger.v(2).info(`${this.#name}: ${text}`);
  }

  /** utilruntime.HandleError(fmt.Errorf("<name>: <text>")). */
  #handleError(text: string): void {
    this.o.logger.error('Unhandled Error', { err: `${this.#name}: ${text}` });
  }

  /** Whether the manager must rotate now rather than at the deadline (V(2) says why the template does not hold). */
  #mustRotateNow(): boolean {
    const c = this.#current;
    if (!c || this.#bootstrapped) return true;
    const t = this.o.template();
    const m = t && templateMismatch(c, t);
    if (m) this.#logf(m);
    return Boolean(m);
  }

  async run(signal: AbortSignal): Promise<void> {
    // An expired certificate is not in force: its holder keeps what it had (a self-signed pair, no client).
    const initial = this.current();
    if (initial) this.#putInForce(initial);
    const checkMs = this.o.templateCheckMs ?? 1000;
    // A rotation can still be failing or waiting for approval at NotAfter.
    const expiry = this.o.onExpired ? setInterval(() => this.#checkExpiry(), checkMs) : undefined;
    try {
      await this.#loop(checkMs, signal);
    } finally {
      clearInterval(expiry);
    }
  }

  #putInForce(pair: StoredPair): void {
    this.#inForce = pair;
    this.o.onCurrent?.(pair);
  }

  #checkExpiry(): void {
    const pair = this.#inForce;
    if (!pair || this.#now().getTime() < pair.notAfter.getTime()) return;
    this.#inForce = undefined;
    this.o.onExpired?.(pair);
  }

  async #loop(checkMs: number, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      if (!this.#mustRotateNow()) {
        const c = this.#current!;
        const deadline = rotationDeadline(c.notBefore, c.notAfter, this.#random());
        this.#logf(`Certificate expiration is ${goTime(c.notAfter)}, rotation deadline is ${goTime(deadline)}`);
        const sleepMs = deadline.getTime() - this.#now().getTime();
        if (sleepMs > 0) this.#logf(`Waiting ${formatDuration(sleepMs)} for next certificate rotation`);
        // Sleep until the deadline, waking every templateCheckMs to look at the template again.
        let now = false;
        while (!signal.aborted && !now && this.#now().getTime() < deadline.getTime()) {
          await this.#sleep(Math.min(checkMs, deadline.getTime() - this.#now().getTime()), signal);
          now = this.#mustRotateNow();
        }
        if (signal.aborted) return;
        if (now) this.#logf('Certificate template changed, rotating');
      }
      // Upstream does not start the backoff without a template (a node with no IP yet).
      if (!this.o.template()) { await this.#sleep(checkMs, signal); continue; }
      await this.#rotateUntilDone(signal);
      // wait.Until(..., time.Second): a certificate whose deadline has already passed (a clock
      // ahead of the signer's, a lifetime shorter than the backdate) is rotated again a second later, not at once.
      if (!signal.aborted) await this.#sleep(UNTIL_PERIOD_MS, signal);
    }
  }

  async #rotateUntilDone(signal: AbortSignal): Promise<void> {
    for (let failures = 0; !signal.aborted; failures++) {
      this.#logf('Rotating certificates');
      const failure = await this.#attempt(signal);
      if (!failure || signal.aborted) return;
      this.o.renewFailures?.inc();
      const exponential = failures < BACKOFF_MS.length;
      const wait = exponential ? BACKOFF_MS[failures]! * (1 + 0.1 * this.#random()) : POLL_MS;
      const error = failure.error instanceof Error ? failure.error.message : String(failure.error);
      this.#handleError(`${failure.message}: ${error}`);
      // wait.ExponentialBackoff's own error once its five steps are spent.
      if (failures === BACKOFF_MS.length) this.#handleError('Reached backoff limit, still unable to rotate certs: timed out waiting for the condition');
      if (failure.healthy !== undefined) this.o.onServerHealth?.(failure.healthy);
      await this.#sleep(wait, signal);
    }
  }

  /** One rotateCerts: undefined when the new certificate is in force. */
  async #attempt(signal: AbortSignal): Promise<Failure | undefined> {
    const template = this.o.template();
    if (!template) return { message: 'Unable to generate a certificate signing request', error: `${this.#name}: unable to create a csr, no template available` };
    let client: RestClient;
    try { client = await this.o.client(); } catch (error) {
      if (signal.aborted) return undefined;
      return { message: 'Unable to load a client to request certificates', error };
    }
    let req: CreatedRequest;
    try {
      req = await requestCertificate(client, { template, signerName: this.o.signerName, use: this.o.use, signal });
    } catch (error) {
      if (signal.aborted) return undefined;
      return { message: 'Failed while requesting a signed certificate from the control plane', error, healthy: error instanceof ApiError && [401, 403, 404].includes(error.code) };
    }
    if (signal.aborted) return undefined;
    this.o.logger.info('Certificate signing request created', { name: this.#name, csr: req.name });
    // A request for a template that no longer holds is not waited for (upstream's lastRequestCancel).
    const stale = new AbortController();
    const onAbort = () => stale.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const check = setInterval(() => {
      const now = this.o.template();
      if (!now || sameTemplate(now, template)) return;
      const c = this.#current;
      if (!c || templateMismatch(c, now)) stale.abort();
    }, this.o.templateCheckMs ?? 1000);
    let certPem: Buffer;
    try {
      // Retrying refusals too: ending the wait would send a new CSR at the next attempt, one per
      // backoff step, each approved and issued for nothing while the identity cannot list its own.
      certPem = await waitForCertificate(client, req.name, {
        uid: req.uid, timeoutMs: this.o.waitTimeoutMs ?? WAIT_TIMEOUT_MS, signal: stale.signal, refusals: 'retry',
        ...waitLogHooks(this.o.logger, { name: this.#name, csr: req.name }),
      });
    } catch (error) {
      if (signal.aborted) return undefined;
      return { message: 'certificate request was not signed', error };
    } finally {
      clearInterval(check);
      signal.removeEventListener('abort', onAbort);
    }
    let pair: StoredPair;
    try {
      pair = this.o.store.update(certPem.toString('utf8'), keyToPem(req.key), this.#now());
    } catch (error) {
      return { message: 'Unable to store the new cert/key pair', error };
    }
    // The one replaced, expired or not, as upstream's updateCached returns it.
    const old = this.#current;
    if (old) this.o.rotationAge?.observe((this.#now().getTime() - old.notBefore.getTime()) / 1000);
    this.#current = pair;
    this.#bootstrapped = false;
    this.o.onServerHealth?.(true);
    this.o.logger.info('Certificate rotation done', { name: this.#name, csr: req.name, expiration: pair.notAfter.toISOString() });
    this.#putInForce(pair);
    return undefined;
  }
}
