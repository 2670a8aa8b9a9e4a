// Issuing one certificate through plat's API, as a client and an approver would: POST the CSR,
// PUT it to /approval with an Approved condition (what `kubectl certificate approve` does), then
// wait for the watch to show status.certificate. One watch serves every waiting request; it also
// notes any CSR whose certificate changes after it was first set (issued twice).
import type { ApiObject } from '../../core/api/meta.js';
import type { ClientConnection } from '../../core/client/connection.js';
import { RestClient, type ResourceRef } from '../../core/client/rest-client.js';
import type { BenchCsr } from './inputs.js';
import { JsonClient } from './https-json.js';
import { SIGNER, USAGES } from './options.js';

const CSR_RESOURCE: ResourceRef = { group: 'certificates.platform', version: 'v1', plural: 'certificatesigningrequests' };
const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
/** With requests outstanding and no certificate for this long, the run fails instead of hanging. */
const STALL_MS = 60_000;

export interface CsrObject extends ApiObject {
  status?: { certificate?: string; conditions?: { type: string; reason?: string; message?: string }[] };
}

/** Where one certificate's time went, as the client saw it. */
export interface StageTimes {
  /** POST answered. */
  readonly createMs: number;
  /** PUT /approval answered. */
  readonly approveMs: number;
  /** From the approval's answer to the certificate on the watch: the controller's informer, queue, signing and status write, and the watch back. */
  readonly issueMs: number;
}

interface Waiter { resolve(): void; reject(e: Error): void }

export class PlatDriver {
  readonly #requests: JsonClient;
  readonly #watchClient: RestClient;
  readonly #stop = new AbortController();
  readonly #waiters = new Map<string, Waiter>();
  readonly #certificates = new Map<string, string>();
  readonly #failed = new Map<string, string>();
  readonly #watching: Promise<void>;
  readonly #stallTimer: NodeJS.Timeout;
  #lastProgress = Date.now();
  #error: Error | undefined;
  /** CSRs whose certificate was replaced after being set. */
  reissued = 0;

  private constructor(readonly connection: ClientConnection, concurrency: number, resourceVersion: string, watchClient: RestClient) {
    this.#requests = new JsonClient(connection.server, {
      sockets: concurrency,
      tls: { ...(connection.ca ? { ca: connection.ca } : {}), ...(connection.clientCert ? { cert: connection.clientCert } : {}), ...(connection.clientKey ? { key: connection.clientKey } : {}) },
    });
    this.#watchClient = watchClient;
    this.#watching = this.#watch(resourceVersion).catch((e: Error) => this.#fail(new Error(`watching CSRs failed: ${e.message}`)));
    this.#stallTimer = setInterval(() => {
      if (this.#waiters.size > 0 && Date.now() - this.#lastProgress > STALL_MS) {
        this.#fail(new Error(`no certificate issued for ${STALL_MS / 1000} s with ${this.#waiters.size} CSRs in flight`));
      }
    }, 1000);
  }

  /** Lists CSRs for a resourceVersion and starts watching from it. */
  static async open(connection: ClientConnection, concurrency: number): Promise<PlatDriver> {
    const watchClient = new RestClient(connection, { qps: 0, userAgent: 'plat-bench-issue' });
    const list = await watchClient.list(CSR_RESOURCE, { limit: 1 });
    return new PlatDriver(connection, concurrency, list.metadata.resourceVersion ?? '0', watchClient);
  }

  /** The certificate the watch saw for `name` (PEM). */
  certificate(name: string): string | undefined { return this.#certificates.get(name); }

  /** Creates, approves and waits for the certificate of `csr`; says how long each stage took. */
  async issue(csr: BenchCsr): Promise<StageTimes> {
    if (this.#error) throw this.#error;
    if (this.#waiters.size === 0) this.#lastProgress = Date.now();
    const issued = new Promise<void>((resolve, reject) => this.#waiters.set(csr.name, { resolve, reject }));
    issued.catch(() => {}); // Awaited below; a failure while create or approve is still running must not go unhandled.
    const t0 = performance.now();
    const created = await this.create(csr);
    const t1 = performance.now();
    await this.approve(created);
    const t2 = performance.now();
    await issued;
    return { createMs: t1 - t0, approveMs: t2 - t1, issueMs: performance.now() - t2 };
  }

  /** POSTs the CSR (signer platform/apiserver-client); the object as created. */
  async create(csr: BenchCsr): Promise<CsrObject> {
    const created = await this.#requests.request('POST', CSRS, {
      apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name: csr.name },
      spec: { request: Buffer.from(csr.pem).toString('base64'), signerName: SIGNER, usages: USAGES },
    });
    if (created.status !== 201) throw new Error(`create ${csr.name}: HTTP ${created.status}: ${created.text.slice(0, 500)}`);
    return created.json as CsrObject;
  }

  /** PUTs `created` to /approval with an Approved condition, as `kubectl certificate approve` does; the object as approved. */
  async approve(created: CsrObject): Promise<CsrObject> {
    const name = created.metadata.name ?? '';
    const obj: CsrObject = { ...created, status: { ...created.status, conditions: [{ type: 'Approved', status: 'True', reason: 'PlatBench', message: 'approved by plat bench issue' } as never] } };
    const approved = await this.#requests.request('PUT', `${CSRS}/${encodeURIComponent(name)}/approval`, obj);
    if (approved.status !== 200) throw new Error(`approve ${name}: HTTP ${approved.status}: ${approved.text.slice(0, 500)}`);
    return approved.json as CsrObject;
  }

  /** PUTs `approved` to /status with `certificatePem`, the write a signing controller makes. */
  async writeStatus(approved: CsrObject, certificatePem: string): Promise<void> {
    const name = approved.metadata.name ?? '';
    const obj: CsrObject = { ...approved, status: { ...approved.status, certificate: Buffer.from(certificatePem, 'utf8').toString('base64') } };
    const written = await this.#requests.request('PUT', `${CSRS}/${encodeURIComponent(name)}/status`, obj);
    if (written.status !== 200) throw new Error(`status ${name}: HTTP ${written.status}: ${written.text.slice(0, 500)}`);
  }

  /** Every CSR of the run as stored now, by name. */
  async stored(): Promise<Map<string, CsrObject>> {
    const out = new Map<string, CsrObject>();
    let cont: string | undefined;
    do {
      const page = await this.#watchClient.list<CsrObject>(CSR_RESOURCE, { limit: 500, continue: cont });
      for (const item of page.items) out.set(item.metadata.name ?? '', item);
      cont = page.metadata.continue || undefined;
    } while (cont);
    return out;
  }

  async close(): Promise<void> {
    clearInterval(this.#stallTimer);
    this.#stop.abort();
    await this.#watching;
    this.#requests.close();
    this.#watchClient.close();
  }

  async #watch(from: string): Promise<void> {
    let resourceVersion = from;
    // The server ends a watch after --min-request-timeout; carry on from the last version seen.
    while (!this.#stop.signal.aborted) {
      try {
        for await (const ev of this.#watchClient.watch<CsrObject>(CSR_RESOURCE, { resourceVersion, signal: this.#stop.signal })) {
          if (ev.type === 'ERROR') throw new Error(`watch error: ${JSON.stringify(ev.object)}`);
          resourceVersion = ev.object.metadata.resourceVersion ?? resourceVersion;
          if (ev.type === 'ADDED' || ev.type === 'MODIFIED') this.#observe(ev.object);
        }
      } catch (e) {
        if (this.#stop.signal.aborted) return;
        throw e;
      }
    }
  }

  #observe(csr: CsrObject): void {
    const name = csr.metadata.name ?? '';
    const failed = csr.status?.conditions?.find((c) => c.type === 'Failed');
    if (failed && !this.#failed.has(name)) {
      this.#failed.set(name, `${failed.reason ?? ''}: ${failed.message ?? ''}`);
      this.#waiters.get(name)?.reject(new Error(`${name}: the signer refused it (${failed.reason ?? ''}: ${failed.message ?? ''})`));
      this.#waiters.delete(name);
    }
    const b64 = csr.status?.certificate;
    if (!b64) return;
    const pem = Buffer.from(b64, 'base64').toString('utf8');
    const seen = this.#certificates.get(name);
    if (seen !== undefined) {
      if (seen !== pem) this.reissued++;
      return;
    }
    this.#certificates.set(name, pem);
    this.#lastProgress = Date.now();
    this.#waiters.get(name)?.resolve();
    this.#waiters.delete(name);
  }

  #fail(e: Error): void {
    this.#error ??= e;
    for (const w of this.#waiters.values()) w.reject(e);
    this.#waiters.clear();
  }
}
