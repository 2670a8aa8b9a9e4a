// Shared by the admission tests: a plat with token users and (optionally) the SignerTable
// authorizer loaded from a config file, CSR objects with chosen subjects (made by openssl), and the
// admission.NewForbidden Status every refusal must be.
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../../core/log.js';
import { Client, startInProcess, tempDir, type Response, type RunningPlat } from '../helpers/plat.js';
import { opensslCsr } from '../helpers/openssl.js';
import { makeClientCert } from '../helpers/certs.js';
import { b64 } from '../certificates/fixtures.js';
import type { SignerTableOptions } from './signer-table-authorizer.js';

export const CSR_PATH = '/apis/certificates.platform/v1/certificatesigningrequests';
export const csrPath = (name: string, sub?: string): string => `${CSR_PATH}/${name}${sub ? `/${sub}` : ''}`;
export const QUALIFIED = 'certificatesigningrequests.certificates.platform';

export interface AdmissionPlat {
  readonly plat: RunningPlat;
  /** A client authenticated as the token user `name` (groups from `users`). */
  as(name: string): Client;
  /** Log lines written while it ran. */
  readonly logs: string[];
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Token users: name -> groups. */
  readonly users?: Readonly<Record<string, readonly string[]>>;
  /** Load the SignerTable authorizer with these options (ahead of the --authorization-mode chain). */
  readonly signerTable?: SignerTableOptions;
  readonly args?: readonly string[];
  /**
   * Start once with the defaults first and run this, so the data directory already holds the
   * namespaces plat creates at start-up (through admission, which AlwaysDeny would refuse) and
   * whatever objects the test needs; then start with `args` on the same data directory.
   */
  readonly seed?: (plat: RunningPlat) => Promise<void>;
}

const tokenOf = (name: string): string => `token-${Buffer.from(name).toString('hex')}`;

export async function startAdmissionPlat(opts: StartOptions = {}): Promise<AdmissionPlat> {
  const dir = tempDir('plat-admission-');
  const users = opts.users ?? {};
  const args = [...(opts.args ?? [])];
  if (Object.keys(users).length) {
    const rows = Object.entries(users).map(([name, groups], i) => `${tokenOf(name)},${name},uid-${i},"${groups.join(',')}"`);
    const file = path.join(dir, 'tokens.csv');
    writeFileSync(file, rows.join('\n') + '\n');
    args.push(`--token-auth-file=${file}`);
  }
  let configFile: string | undefined;
  if (opts.signerTable) {
    const module = fileURLToPath(new URL('./signer-table-authorizer.js', import.meta.url));
    configFile = path.join(dir, 'plat.config.json');
    writeFileSync(configFile, JSON.stringify({ plugins: [[module, opts.signerTable]] }));
  }
  const logs: string[] = [];
  const dataDir = path.join(dir, 'data');
  let plat: RunningPlat;
  try {
    if (opts.seed) {
      const seeding = await startInProcess({ dataDir });
      try { await opts.seed(seeding); } finally { await seeding.stop(); }
    }
    plat = await startInProcess({ args, dataDir, logger: createLogger({ write: (l) => logs.push(l) }), ...(configFile ? { configFile } : {}) });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    plat, logs,
    as: (name) => plat.admin.with({ token: tokenOf(name) }),
    stop: async () => { await plat.stop(); rmSync(dir, { recursive: true, force: true }); },
  };
}

/** A PEM CSR made by openssl, e.g. subject '/O=system:masters/CN=eve'. */
export function csrPem(subject: string): string {
  return opensslCsr({ subject }).csrPem;
}

/** A CSR object as a client POSTs it. */
export function csrObject(name: string, signerName: string, pemText: string, extra: { generateName?: string; usages?: string[] } = {}): any {
  return {
    apiVersion: 'certificates.platform/v1',
    kind: 'CertificateSigningRequest',
    metadata: extra.generateName ? { generateName: extra.generateName } : { name },
    spec: { request: b64(pemText), signerName, usages: extra.usages ?? ['digital signature', 'client auth'] },
  };
}

/** Appends a condition, as `kubectl certificate approve|deny` does. */
export function withCondition(obj: any, type: string, reason = 'Test'): any {
  const copy = structuredClone(obj);
  copy.status = { ...(copy.status ?? {}), conditions: [...(copy.status?.conditions ?? []), { type, status: 'True', reason, message: `${type} by a test` }] };
  return copy;
}

/** admission.NewForbidden's Status for a CSR: 403, reason Forbidden, details naming the resource. */
export function assertForbidden(res: Response, name: string, message: string): void {
  assert.equal(res.status, 403, res.text);
  assert.equal(res.json.kind, 'Status');
  assert.equal(res.json.status, 'Failure');
  assert.equal(res.json.reason, 'Forbidden');
  assert.equal(res.json.code, 403);
  assert.equal(res.json.message, `${QUALIFIED} "${name}" is forbidden: ${message}`);
  assert.deepEqual(res.json.details, { name, group: 'certificates.platform', kind: 'certificatesigningrequests' });
}

/** A client certificate from the plat's own CA (<data-dir>/pki), e.g. CN=system:node:n1, O=system:nodes. */
export function clientCertFromPlatCa(plat: RunningPlat, commonName: string, organizations: string[]): Client {
  const pki = path.join(plat.dataDir, 'pki');
  const certificatePem = readFileSync(path.join(pki, 'ca.crt'), 'utf8');
  const privateKeyPem = readFileSync(path.join(pki, 'ca.key'), 'utf8');
  const ca = { certificatePem, privateKeyPem, keyObject: createPrivateKey(privateKeyPem), der: new Uint8Array(0) };
  const leaf = makeClientCert(ca, commonName, organizations);
  return plat.admin.with({ cert: leaf.certificatePem, key: leaf.privateKeyPem });
}
