// cfssl serve as the peer: the same CA, a default signing profile with the same usages and
// lifetime, on 127.0.0.1, driven through /api/v1/cfssl/sign. Two setups:
// - plain: plain HTTP, cfssl serve's usual mode (no client authentication, no storage);
// - stored: what plat has besides signing that cfssl serve can have: HTTPS, a client certificate
//   required (-mutual-tls-ca), and its certificate database (-db-config, sqlite3), where each
//   certificate is committed before the answer.
// Started with -loglevel 2 so that, like plat at -v 0, it logs nothing per certificate.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createCertificate, generateKeyPair } from '../../core/crypto/index.js';
import { ChildServer } from './child.js';
import { JsonClient } from './https-json.js';
import type { BenchCa, BenchCsr } from './inputs.js';
import { LIFETIME_HOURS, USAGES } from './options.js';

export const CFSSL_INSTALL = 'apt-get update && apt-get install -y golang-cfssl';
export const SQLITE3_INSTALL = 'apt-get update && apt-get install -y sqlite3';
const SIGN = '/api/v1/cfssl/sign';

export const CFSSL_MODES = ['plain', 'stored'] as const;
export type CfsslMode = (typeof CFSSL_MODES)[number];

/** cfssl runs but cannot sign with this CA (cfssl 1.2.0 has no Ed25519 CA keys): reported, not fatal. */
export class CfsslCannotSign extends Error {}
/** The stored setup cannot make its certificate database (no sqlite3): reported, not fatal. */
export class CfsslCannotStore extends Error {}

export type CfsslProbe = { readonly found: true; readonly version: string } | { readonly found: false; readonly reason: string };

export function probeCfssl(bin: string): CfsslProbe {
  if (!bin) return { found: false, reason: 'skipped (--cfssl "")' };
  const r = spawnSync(bin, ['version'], { encoding: 'utf8', timeout: 30_000 });
  if (r.error) {
    const missing = (r.error as NodeJS.ErrnoException).code === 'ENOENT';
    return { found: false, reason: missing ? `${bin} not found; install it with: ${CFSSL_INSTALL}` : `${bin} version: ${r.error.message}` };
  }
  const version = /Version:\s*(\S+)/.exec(r.stdout)?.[1];
  const runtime = /Runtime:\s*(\S+)/.exec(r.stdout)?.[1];
  if (r.status !== 0 || !version) return { found: false, reason: `${bin} version did not answer as cfssl does: ${(r.stdout + r.stderr).trim().slice(0, 200)}` };
  return { found: true, version: `cfssl ${version}${runtime ? ` (${runtime})` : ''}` };
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export interface CfsslTarget {
  readonly url: string;
  pid(): number | undefined;
  /** Signs `csr`; resolves with the certificate PEM. */
  sign(csr: BenchCsr): Promise<string>;
  /** stored: the certificates in its database (null for plain). */
  storedCount(): number | null;
  stop(): Promise<void>;
}

// cfssl 1.2.0's certdb schema (certdb/sqlite/migrations): cfssl inserts into it but never creates it.
const CERTDB_SCHEMA = `CREATE TABLE certificates (
  serial_number blob NOT NULL, authority_key_identifier blob NOT NULL, ca_label blob, status blob NOT NULL,
  reason int, expiry timestamp, revoked_at timestamp, pem blob NOT NULL,
  PRIMARY KEY(serial_number, authority_key_identifier));
CREATE TABLE ocsp_responses (
  serial_number blob NOT NULL, authority_key_identifier blob NOT NULL, body blob NOT NULL, expiry timestamp,
  PRIMARY KEY(serial_number, authority_key_identifier),
  FOREIGN KEY(serial_number, authority_key_identifier) REFERENCES certificates(serial_number, authority_key_identifier));
`;

function sqlite3(db: string, sql: string): string {
  const r = spawnSync('sqlite3', [db], { input: sql, encoding: 'utf8', timeout: 30_000 });
  if (r.error) {
    const missing = (r.error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new CfsslCannotStore(missing ? `sqlite3 (to create its certificate database) not found; install it with: ${SQLITE3_INSTALL}` : `sqlite3: ${r.error.message}`);
  }
  if (r.status !== 0) throw new Error(`sqlite3 ${db}: ${r.stderr.trim()}`);
  return r.stdout;
}

/** A P-256 TLS CA of the run, a serving certificate for 127.0.0.1 and a client certificate, as PEM. */
function tlsMaterial(): { ca: string; serving: { cert: string; key: string }; client: { cert: string; key: string } } {
  const now = Date.now();
  const validity = { notBefore: new Date(now - 5 * 60_000), notAfter: new Date(now + 86_400_000) };
  const caKey = generateKeyPair('ecdsa-p256');
  const ca = createCertificate({
    template: { subject: { commonName: 'plat-bench-cfssl-tls-ca' }, ...validity, isCA: true, keyUsage: ['digital signature', 'cert sign'] },
    publicKey: caKey.keyObject, signer: caKey.keyObject,
  }).certificatePem;
  const leaf = (commonName: string, extra: { extKeyUsage: string[]; ipAddresses?: string[] }) => {
    const key = generateKeyPair('ecdsa-p256');
    const cert = createCertificate({
      template: { subject: { commonName }, ...validity, keyUsage: ['digital signature'], ...extra },
      publicKey: key.keyObject, issuer: { certificatePem: ca, privateKey: caKey.keyObject }, signer: caKey.keyObject,
    }).certificatePem;
    return { cert, key: key.privateKeyPem };
  };
  return { ca, serving: leaf('127.0.0.1', { extKeyUsage: ['server auth'], ipAddresses: ['127.0.0.1'] }), client: leaf('plat-bench', { extKeyUsage: ['client auth'] }) };
}

export async function startCfssl(o: { bin: string; dir: string; ca: BenchCa; concurrency: number; probeCsr: BenchCsr; mode: CfsslMode }): Promise<CfsslTarget> {
  mkdirSync(o.dir, { recursive: true, mode: 0o700 });
  const file = (name: string, content: string, mode = 0o644) => {
    const f = path.join(o.dir, name);
    writeFileSync(f, content, { mode });
    return f;
  };
  const ca = file('ca.pem', o.ca.certificatePem);
  const caKey = file('ca-key.pem', o.ca.privateKeyPem, 0o600);
  const config = file('config.json', JSON.stringify({ signing: { default: { expiry: `${LIFETIME_HOURS}h`, usages: [...USAGES] } } }));
  const args = ['serve', '-address', '127.0.0.1', '-ca', ca, '-ca-key', caKey, '-config', config, '-loglevel', '2'];
  let db: string | undefined;
  let tls: ReturnType<typeof tlsMaterial> | undefined;
  if (o.mode === 'stored') {
    db = path.join(o.dir, 'certs.db');
    sqlite3(db, CERTDB_SCHEMA);
    tls = tlsMaterial();
    args.push(
      '-db-config', file('db-config.json', JSON.stringify({ driver: 'sqlite3', data_source: db })),
      '-tls-cert', file('tls.pem', tls.serving.cert), '-tls-key', file('tls-key.pem', tls.serving.key, 0o600),
      '-mutual-tls-ca', file('client-ca.pem', tls.ca),
    );
  }
  const port = await freePort();
  const server = new ChildServer('cfssl serve', o.bin, [...args, '-port', String(port)], { cwd: o.dir });
  const url = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  const client = new JsonClient(new URL(url), { sockets: o.concurrency, ...(tls ? { tls: { ca: tls.ca, cert: tls.client.cert, key: tls.client.key } } : {}) });
  const sign = async (csr: BenchCsr): Promise<string> => {
    const r = await client.request('POST', SIGN, { certificate_request: csr.pem });
    const cert = r.json?.result?.certificate;
    if (r.status !== 200 || r.json?.success !== true || typeof cert !== 'string') {
      if (r.status === 404) throw new CfsslCannotSign(`its sign endpoint is disabled: ${/couldn't initialize signer: .*/.exec(server.output)?.[0] ?? 'signer not initialized'}`);
      throw new Error(`cfssl sign ${csr.name}: HTTP ${r.status}: ${r.text.slice(0, 300)}`);
    }
    return cert;
  };
  const stop = async () => { client.close(); await server.stop(); };
  try {
    // Ready when it answers a signature request (it prints nothing at -loglevel 2); bounded.
    for (let attempt = 0; ; attempt++) {
      if (!server.running) throw new Error(`cfssl serve exited:\n${server.output}`);
      try {
        await sign(o.probeCsr);
        break;
      } catch (e) {
        const refused = (e as NodeJS.ErrnoException).code === 'ECONNREFUSED';
        if (!refused || attempt >= 300) throw e;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  } catch (e) {
    await stop();
    throw e;
  }
  const storedCount = () => (db ? Number(sqlite3(db, 'SELECT count(*) FROM certificates;').trim()) : null);
  return { url, pid: () => server.pid, sign, storedCount, stop };
}
