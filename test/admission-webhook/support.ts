// A real admission webhook for the tests: an HTTPS server on 127.0.0.1 with a serving certificate
// from a CA made here (its PEM is the configurations' caBundle). Each path has its own behaviour;
// every review received is kept so tests can check what plat sent.
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { makeCa, makeServingCert, type TestCredential } from '../helpers/certs.js';
import type { Client, RunningPlat } from '../helpers/plat.js';

export const VWC = '/apis/admissionregistration.platform/v1/validatingwebhookconfigurations';
export const MWC = '/apis/admissionregistration.platform/v1/mutatingwebhookconfigurations';
export const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

export interface Received { readonly path: string; readonly query: URLSearchParams; readonly headers: IncomingMessage['headers']; readonly review: any }
/**
 * What a path answers: a review answer, a raw HTTP answer, or nothing ever ('hang'). A string body
 * is sent as it is, as text/plain unless `contentType` says otherwise (null: no Content-Type).
 */
export type Answer = { status?: number; body: unknown; contentType?: string | null; headers?: Record<string, string> } | 'hang';
export type Behaviour = (review: any, received: Received) => Answer;

export class WebhookServer {
  readonly ca: TestCredential = makeCa({ commonName: 'webhook-test-ca' });
  readonly received: Received[] = [];
  readonly #behaviours = new Map<string, Behaviour>();
  readonly #hanging: ServerResponse[] = [];
  #server!: https.Server;
  port = 0;

  /** The caBundle field: base64 of the CA's PEM. */
  get caBundle(): string { return Buffer.from(this.ca.certificatePem).toString('base64'); }
  url(path: string): string { return `https://127.0.0.1:${this.port}${path}`; }
  on(path: string, behaviour: Behaviour): void { this.#behaviours.set(path, behaviour); }
  reviewsFor(path: string): any[] { return this.received.filter((r) => r.path === path).map((r) => r.review); }

  async start(): Promise<void> {
    const serving = makeServingCert(this.ca, ['localhost'], ['127.0.0.1']);
    this.#server = https.createServer({ cert: serving.certificatePem, key: serving.privateKeyPem }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const u = new URL(req.url ?? '/', 'https://x');
        let review: any;
        try { review = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { review = undefined; }
        const received = { path: u.pathname, query: u.searchParams, headers: req.headers, review };
        this.received.push(received);
        const behaviour = this.#behaviours.get(u.pathname);
        const answer: Answer = behaviour ? behaviour(review, received) : { status: 404, body: 'no such webhook' };
        if (answer === 'hang') { this.#hanging.push(res); return; }
        const type = answer.contentType === undefined ? (typeof answer.body === 'string' ? 'text/plain' : 'application/json') : answer.contentType;
        res.writeHead(answer.status ?? 200, { ...(type === null ? {} : { 'content-type': type }), ...answer.headers });
        res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((r) => this.#server.listen(0, '127.0.0.1', () => r()));
    this.port = (this.#server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const res of this.#hanging) res.destroy();
    this.#server.closeAllConnections();
    await new Promise<void>((r) => this.#server.close(() => r()));
  }
}

/** A v1 answer echoing the request's uid. */
export function answer(review: any, response: Record<string, unknown>): Answer {
  return { body: { apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, ...response } } };
}
export const allow = (review: any, extra: Record<string, unknown> = {}): Answer => answer(review, { allowed: true, ...extra });
export const deny = (review: any, status: Record<string, unknown>): Answer => answer(review, { allowed: false, status });
export const jsonPatch = (review: any, ops: unknown[]): Answer =>
  answer(review, { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });

export const CSR_RULE = { operations: ['CREATE'], apiGroups: ['certificates.platform'], apiVersions: ['v1'], resources: ['certificatesigningrequests'] };

/** A webhook entry calling `path` on the server, for CSR creates unless `overrides` say otherwise. */
export function webhook(server: WebhookServer, name: string, path: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name, clientConfig: { url: server.url(path), caBundle: server.caBundle }, rules: [CSR_RULE],
    sideEffects: 'None', admissionReviewVersions: ['v1'], timeoutSeconds: 5, ...overrides,
  };
}

export const configuration = (kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration', name: string, webhooks: unknown[]) =>
  ({ apiVersion: 'admissionregistration.platform/v1', kind, metadata: { name }, webhooks });

/** Creates a configuration, runs `fn`, and deletes the configuration whatever happened. */
export async function withConfiguration<T>(admin: Client, kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration',
  name: string, webhooks: unknown[], fn: () => Promise<T>): Promise<T> {
  const base = kind === 'ValidatingWebhookConfiguration' ? VWC : MWC;
  const r = await admin.post(base, configuration(kind, name, webhooks));
  if (r.status !== 201) throw new Error(`creating ${kind} ${name}: ${r.status} ${r.text}`);
  try {
    return await fn();
  } finally {
    const d = await admin.delete(`${base}/${name}`);
    if (d.status !== 200) throw new Error(`deleting ${kind} ${name}: ${d.status} ${d.text}`);
  }
}

export type { RunningPlat };
