// Who plat takes a client certificate for: a SelfSubjectReview over TLS that presents it.
import { request as httpsRequest } from 'node:https';
import type { RunningPlat } from '../helpers/plat.js';

const REVIEWS = '/apis/authentication.platform/v1/selfsubjectreviews';

export interface SelfReview {
  readonly status: number;
  /** The user, when the review was made (201). */
  readonly user?: { username: string; groups: string[] };
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
