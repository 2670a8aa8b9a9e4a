// Requesting a certificate as client-go's RequestCertificate does (k8s-behaviour §5.1, §5.2, §5.5):
// a new key (ECDSA P-256 unless asked otherwise), a PKCS#10 request for the template, a CSR with
// generateName `csr-`; key encipherment is asked for only with RSA keys. A caller that names its
// CSR (the node agent's legacy bootstrap, §5.4 item 5) gets the one already there under that name
// when it is compatible (compatible.ts), so a client restarted while it waits sends no second one.
import type { KeyObject } from 'node:crypto';
import { CSR_RESOURCE, type Csr } from '../../certificates/csr-object.js';
import { createCsr, generateKeyPair, type KeyType } from '../../crypto/index.js';
import type { Logger } from '../../log.js';
import { isApiError, type RestClient } from '../rest-client.js';
import { ensureCompatible } from './compatible.js';
import { formatCsrError } from './format-error.js';

export interface CertificateTemplate {
  readonly commonName: string;
  readonly organizations: readonly string[];
  readonly dnsNames: readonly string[];
  readonly ipAddresses: readonly string[];
}

export type CertificateUse = 'client' | 'serving';

/** Upstream's usages for a client or serving certificate with this key (§5.2). */
export function usagesFor(use: CertificateUse, key: KeyObject): string[] {
  const rsa = key.asymmetricKeyType === 'rsa';
  return ['digital signature', ...(rsa ? ['key encipherment'] : []), use === 'client' ? 'client auth' : 'server auth'];
}

export interface CreatedRequest { readonly name: string; readonly uid: string; readonly key: KeyObject }

export async function requestCertificate(client: RestClient, o: {
  template: CertificateTemplate; signerName: string; use: CertificateUse; keyType?: KeyType; key?: KeyObject; expirationSeconds?: number; signal?: AbortSignal;
  /** metadata.name instead of generateName `csr-`; an existing compatible CSR of that name is reused. */
  name?: string; usages?: string[]; logger?: Logger; now?: () => Date;
}): Promise<CreatedRequest> {
  const key = o.key ?? generateKeyPair(o.keyType ?? 'ecdsa-p256').keyObject;
  const pem = createCsr({
    subject: { commonName: o.template.commonName, organizations: [...o.template.organizations] },
    dnsNames: [...o.template.dnsNames], ipAddresses: [...o.template.ipAddresses], privateKey: key,
  });
  const body: Csr = {
    apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest',
    metadata: o.name ? { name: o.name } : { generateName: 'csr-' },
    spec: {
      request: Buffer.from(pem).toString('base64'), signerName: o.signerName, usages: o.usages ?? usagesFor(o.use, key),
      ...(o.expirationSeconds !== undefined ? { expirationSeconds: Math.trunc(o.expirationSeconds) } : {}),
    },
  } as Csr;
  try {
    const created = await client.request<Csr>('POST', '/apis/certificates.platform/v1/certificatesigningrequests', { body, ...(o.signal ? { signal: o.signal } : {}) });
    return { name: created.metadata.name ?? '', uid: created.metadata.uid ?? '', key };
  } catch (e) {
    // The caller's abort is no failure to report.
    if (o.signal?.aborted) throw e;
    if (!o.name || !isApiError(e, 'AlreadyExists')) throw formatCsrError('cannot create certificate signing request', e, true);
  }
  o.logger?.info('csr for this node already exists, reusing');
  let found: Csr;
  try {
    found = await client.get<Csr>(CSR_RESOURCE, o.name, undefined, o.signal ? { signal: o.signal } : {});
  } catch (e) {
    if (o.signal?.aborted) throw e;
    throw formatCsrError('cannot retrieve certificate signing request', e, true);
  }
  try {
    ensureCompatible(found, { pem, signerName: o.signerName }, key, (o.now ?? (() => new Date()))());
  } catch (e) {
    throw new Error(`retrieved csr is not compatible: ${(e as Error).message}`);
  }
  o.logger?.info('csr for this node is still valid');
  return { name: found.metadata.name ?? '', uid: found.metadata.uid ?? '', key };
}

