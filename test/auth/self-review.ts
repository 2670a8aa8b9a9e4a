// Who plat takes a client certificate for: a SelfSubjectReview over TLS that presents it, to a
// `plat all` that trusts a test CA for client certificates.
import { writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import path from 'node:path';
import { after, before } from 'node:test';
import type { TestCredential } from '../helpers/certs.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

const REVIEWS = '/apis/authentication.platform/v1/selfsubjectreviews';

export interface SelfReview {
  readonly status: number;
  /** The user, when the review was made (201). */
  readonly user?: { username: string; groups: string[] };
}

/**
 * A `plat all` with `root` as its --client-ca-file, started before the calling describe's tests and
 * stopped after them: what the returned function gives.
 */
export function platTrustingClientCa(root: TestCredential): () => RunningPlat {
  let plat: RunningPlat | undefined;
  before(async () => {
    const caFile = path.join(tempDir(), 'client-ca.crt');
    writeFileSync(caFile, root.certificatePem);
    plat = await startInProcess({ args: [`--client-ca-file=${caFile}`] });
  });
  after(() => plat?.stop());
  return () => plat!;
}

/** `ciphers` lowers this client's OpenSSL security level where a test presents what it would refuse. */
export function selfReviewAs(plat: RunningPlat, certificatePem: string, keyPem: string, o: { ciphers?: string } = {}): Promise<SelfReview> {
  const u = new URL(REVIEWS, plat.url);
  return new Promise((resolve, reject) => {
    const req = httpsRequest({
      method: 'POST', hostname: u.hostname, port: u.port, path: u.pathname, ca: plat.admin.creds.ca,
      cert: certificatePem, key: keyPem, ...(o.ciphers ? { ciphers: o.ciphers } : {}),
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        resolve(status === 201 ? { status, user: JSON.parse(Buffer.concat(chunks).toString('utf8')).status.userInfo } : { status });
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify({ apiVersion: 'authentication.platform/v1', kind: 'SelfSubjectReview' }));
  });
}

/** The username plat sees, or the status when it sees none. */
export async function seenAs(plat: RunningPlat, certificatePem: string, keyPem: string, o: { ciphers?: string } = {}): Promise<string | number> {
  const r = await selfReviewAs(plat, certificatePem, keyPem, o);
  return r.user?.username ?? r.status;
}
