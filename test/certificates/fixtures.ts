// Real PKCS#10 requests and certificates made with the openssl CLI, so the tests exercise the
// crypto core against an independent implementation instead of against its own output. Generated
// once per process (key generation is the slow part).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Fixtures {
  /** EC P-256 request, CN=alice, O=dev. */
  readonly ecCsrPem: string;
  /** RSA 2048 request. */
  readonly rsaCsrPem: string;
  /** The EC request with one byte of its signature flipped. */
  readonly badSignatureCsrPem: string;
  /** Two unrelated self-signed certificates. */
  readonly certPem: string;
  readonly otherCertPem: string;
}

/** The base64 form in which byte fields travel on the wire. */
export const b64 = (data: string | Uint8Array): string =>
  (typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data)).toString('base64');

/** PEM armour, 64 columns, as openssl and Go write it. */
export function pem(type: string, der: Uint8Array, headers = ''): string {
  const body = Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN ${type}-----\n${headers}${body}\n-----END ${type}-----\n`;
}

/** The DER of the first PEM block (test inputs only; no validation). */
export function pemBody(text: string): Buffer {
  const m = /-----BEGIN [^-]+-----\n([\s\S]*?)-----END/.exec(text);
  if (!m) throw new Error('no PEM block');
  return Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64');
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

let cached: Fixtures | undefined;

export function fixtures(): Fixtures {
  if (cached) return cached;
  const dir = mkdtempSync(join(tmpdir(), 'plat-csr-fixtures-'));
  try {
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
    openssl(dir, ['req', '-new', ...ec, '-keyout', 'ec.key', '-subj', '/O=dev/CN=alice', '-out', 'ec.csr']);
    openssl(dir, ['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'rsa.key', '-subj', '/CN=bob', '-out', 'rsa.csr']);
    openssl(dir, ['req', '-x509', '-new', ...ec, '-keyout', 'c1.key', '-subj', '/CN=cert-one', '-days', '1', '-out', 'c1.pem']);
    openssl(dir, ['req', '-x509', '-new', ...ec, '-keyout', 'c2.key', '-subj', '/CN=cert-two', '-days', '1', '-out', 'c2.pem']);
    const read = (f: string): string => readFileSync(join(dir, f), 'utf8');
    const ecCsrPem = read('ec.csr');
    // The signature BIT STRING ends the DER, so the last byte belongs to the ECDSA `s` value.
    const der = pemBody(ecCsrPem);
    der.writeUInt8(der.readUInt8(der.length - 1) ^ 0x01, der.length - 1);
    cached = {
      ecCsrPem,
      rsaCsrPem: read('rsa.csr'),
      badSignatureCsrPem: pem('CERTIFICATE REQUEST', der),
      certPem: read('c1.pem'),
      otherCertPem: read('c2.pem'),
    };
    return cached;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const BASE_SIGNER = 'example.com/my-signer';

/** A valid CSR as a client would POST it (wire JSON). */
export function baseCsr(fx: Fixtures, name = 'test-csr'): any {
  return {
    apiVersion: 'certificates.platform/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name },
    spec: {
      request: b64(fx.ecCsrPem),
      signerName: BASE_SIGNER,
      usages: ['digital signature', 'key encipherment', 'client auth'],
    },
  };
}
