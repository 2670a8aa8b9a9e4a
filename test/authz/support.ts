// Test pieces for the authorizers: a real SubjectAccessReview webhook over HTTPS on loopback (its
// CA and serving certificate made in the test), kubeconfig files pointing to it, a token file of
// users, and a client certificate for a node signed by a running plat's CA.
import { createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Attributes } from '../../core/authz/attributes.js';
import { makeCa, makeClientCert, makeServingCert, type TestCredential } from '../helpers/certs.js';
import type { Client, RunningPlat } from '../helpers/plat.js';

export interface SarCall {
  readonly path: string;
  readonly apiVersion: string;
  readonly spec: any;
}

/** What the webhook answers a review with: a SubjectAccessReview status, an HTTP failure, or silence. */
export type Answer = { readonly status: Record<string, unknown> } | { readonly http: number; readonly body?: string } | 'hang';

const caCache: { ca?: TestCredential; serving?: TestCredential } = {};
function webhookPki(): { ca: TestCredential; serving: TestCredential } {
  caCache.ca ??= makeCa({ commonName: 'authz-webhook-ca' });
  caCache.serving ??= makeServingCert(caCache.ca, ['localhost'], ['127.0.0.1']);
  return { ca: caCache.ca, serving: caCache.serving };
}

export class SarWebhook {
  readonly calls: SarCall[] = [];
  /** Decides each review; the default has no opinion about anything. */
  answer: (call: SarCall) => Answer = () => ({ status: { allowed: false } });
  #server: https.Server | undefined;
  #port = 0;

  get url(): string { return `https://127.0.0.1:${this.#port}/authorize`; }
  get caPem(): string { return webhookPki().ca.certificatePem; }

  callsFor(user: string): SarCall[] { return this.calls.filter((c) => c.spec?.user === user); }

  async start(): Promise<void> {
    const { serving } = webhookPki();
    this.#server = https.createServer({ cert: serving.certificatePem, key: serving.privateKeyPem }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let review: any;
        try { review = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { review = {}; }
        const call: SarCall = { path: req.url ?? '', apiVersion: review.apiVersion, spec: review.spec };
        this.calls.push(call);
        const a = this.answer(call);
        if (a === 'hang') return;
        if ('http' in a) {
          res.writeHead(a.http, { 'content-type': 'application/json' });
          res.end(a.body ?? '{}');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status: a.status }));
      });
    });
    // The same port across restarts, so a kubeconfig written once stays valid.
    await new Promise<void>((r) => this.#server!.listen(this.#port, '127.0.0.1', () => r()));
    this.#port = (this.#server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    if (!this.#server) return;
    this.#server.closeAllConnections();
    await new Promise<void>((r) => this.#server!.close(() => r()));
    this.#server = undefined;
  }
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

let files = 0;

/** A kubeconfig naming `url` as the webhook, trusting `caPem` through certificate-authority-data. */
export function writeKubeconfig(dir: string, url: string, caPem: string): string {
  const file = join(dir, `authz-webhook-${files++}.kubeconfig`);
  writeFileSync(file, [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: authorizer',
    '  cluster:',
    `    server: ${url}`,
    `    certificate-authority-data: ${Buffer.from(caPem).toString('base64')}`,
    'users:',
    '- name: plat',
    '  user: {}',
    'contexts:',
    '- name: authz',
    '  context: {cluster: authorizer, user: plat}',
    'current-context: authz',
    '',
  ].join('\n'));
  return file;
}

/** A static token file: each user's token is `<name>-token`. */
export function writeTokenFile(dir: string, users: Record<string, readonly string[]>): string {
  const file = join(dir, 'tokens.csv');
  writeFileSync(file, Object.entries(users).map(([name, groups]) => `${name}-token,${name},uid-${name},"${groups.join(',')}"`).join('\n') + '\n');
  return file;
}

export const as = (plat: RunningPlat, user: string): Client => plat.admin.with({ token: `${user}-token` });

/** A client with a certificate CN=<name>, O=<groups> signed by the plat's own CA (<dataDir>/pki). */
export function withClientCert(plat: RunningPlat, name: string, groups: string[]): Client {
  const dir = join(plat.dataDir, 'pki');
  const ca: TestCredential = {
    certificatePem: readFileSync(join(dir, 'ca.crt'), 'utf8'),
    privateKeyPem: readFileSync(join(dir, 'ca.key'), 'utf8'),
    keyObject: createPrivateKey(readFileSync(join(dir, 'ca.key'))),
    der: new Uint8Array(),
  };
  const cred = makeClientCert(ca, name, groups);
  return plat.admin.with({ cert: cred.certificatePem, key: cred.privateKeyPem });
}

/** Attributes of a resource request, with defaults for what a case does not care about. */
export function resourceAttrs(user: { name: string; groups?: string[]; uid?: string; extra?: Record<string, string[]> }, over: Partial<Attributes> = {}): Attributes {
  return {
    user: { name: user.name, groups: user.groups ?? [], ...(user.uid ? { uid: user.uid } : {}), ...(user.extra ? { extra: user.extra } : {}) },
    verb: 'get', isResourceRequest: true, path: '/apis/certificates.platform/v1/certificatesigningrequests',
    apiGroup: 'certificates.platform', apiVersion: 'v1', resource: 'certificatesigningrequests', subresource: '', namespace: '', name: '',
    ...over,
  };
}

export function pathAttrs(user: { name: string; groups?: string[] }, path: string, verb = 'get'): Attributes {
  return {
    user: { name: user.name, groups: user.groups ?? [] }, verb, isResourceRequest: false, path,
    apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '',
  };
}
