// A small PKI made with the openssl CLI (an implementation independent of the verifier under
// test), generated once per test process. Validity windows are relative to the moment of
// generation; tests never read the wall clock but derive their injected clocks from the
// certificates' own notBefore.
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Issued {
  readonly pem: string;
  readonly der: Buffer;
  readonly keyPem: string;
  readonly x509: X509Certificate;
}

export interface Pki {
  readonly dir: string;
  readonly root: Issued;
  readonly intermediate: Issued;
  /** Signed by root: CN=alice, O=dev, O=ops, EKU clientAuth. */
  readonly alice: Issued;
  /** Signed by intermediate: CN=bob, O=team. */
  readonly bob: Issued;
  /** Signed by root, valid one day only. */
  readonly shortLived: Issued;
  readonly foreignRoot: Issued;
  /** Signed by foreignRoot, CN=mallory. */
  readonly foreign: Issued;
  /** EKU serverAuth only. */
  readonly serverOnly: Issued;
  /** No extKeyUsage extension at all. */
  readonly noEku: Issued;
  /** Subject O=nocn, no CN. */
  readonly noCn: Issued;
  /** Signed by a CA:FALSE certificate (notCa) that is presented as intermediate. */
  readonly notCa: Issued;
  readonly underNotCa: Issued;
  /** intermediate (pathlen 0) → deepIntermediate → deepLeaf: one intermediate too many. */
  readonly deepIntermediate: Issued;
  readonly deepLeaf: Issued;
  /** Intermediate restricted to serverAuth, and a clientAuth leaf under it. */
  readonly serverIntermediate: Issued;
  readonly underServerIntermediate: Issued;
  /** Intermediate valid one day, leaf under it valid a year. */
  readonly shortIntermediate: Issued;
  readonly underShortIntermediate: Issued;
  /** A leaf with an unknown critical extension. */
  readonly unknownCritical: Issued;
  /** Self-signed clientAuth certificate, trusted directly by being in a bundle. */
  readonly selfSigned: Issued;
  /** Signed by root with ECDSA-SHA1. */
  readonly sha1: Issued;
  /** Server certificate for 127.0.0.1. */
  readonly server: Issued;
  /** Root and intermediate, plus a private key block that must be skipped. */
  readonly bundlePath: string;
  cleanup(): void;
}

const CONFIG = `
[req]
distinguished_name = dn
prompt = no
[dn]
CN = unused
[ca]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[ca_pathlen0]
basicConstraints = critical,CA:TRUE,pathlen:0
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ca_server]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ca_sub]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[client]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = clientAuth
authorityKeyIdentifier = keyid
[server]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1
[no_eku]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
[not_ca]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature,keyCertSign
[unknown_critical]
basicConstraints = critical,CA:FALSE
extendedKeyUsage = clientAuth
1.2.3.4 = critical,ASN1:UTF8String:surprise
`;

export function createPki(): Pki {
  const dir = mkdtempSync(join(tmpdir(), 'plat-auth-pki-'));
  writeFileSync(join(dir, 'openssl.cnf'), CONFIG);
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let serial = 1000;

  const load = (name: string): Issued => {
    const pem = readFileSync(join(dir, `${name}.crt`), 'utf8');
    const x509 = new X509Certificate(pem);
    return { pem, der: x509.raw, keyPem: readFileSync(join(dir, `${name}.key`), 'utf8'), x509 };
  };
  const key = (name: string) => run(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', `${name}.key`]);
  const selfSigned = (name: string, subj: string, ext: string, days = 3650): Issued => {
    key(name);
    run(['req', '-new', '-x509', '-config', 'openssl.cnf', '-key', `${name}.key`, '-subj', subj,
      '-days', String(days), '-extensions', ext, '-sha256', '-out', `${name}.crt`]);
    return load(name);
  };
  const issue = (name: string, subj: string, issuer: string, ext: string, days = 365, digest = '-sha256'): Issued => {
    key(name);
    run(['req', '-new', '-config', 'openssl.cnf', '-key', `${name}.key`, '-subj', subj, '-out', `${name}.csr`]);
    run(['x509', '-req', '-in', `${name}.csr`, '-CA', `${issuer}.crt`, '-CAkey', `${issuer}.key`,
      '-set_serial', String(serial++), '-days', String(days), digest,
      '-extfile', 'openssl.cnf', '-extensions', ext, '-out', `${name}.crt`]);
    return load(name);
  };

  const root = selfSigned('root', '/CN=test-root', 'ca');
  const intermediate = issue('intermediate', '/CN=test-intermediate', 'root', 'ca_pathlen0', 1825);
  const foreignRoot = selfSigned('foreign-root', '/CN=foreign-root', 'ca');
  const notCa = issue('not-ca', '/CN=not-a-ca', 'root', 'not_ca');
  const deepIntermediate = issue('deep-intermediate', '/CN=deep-intermediate', 'intermediate', 'ca_sub', 1000);
  const serverIntermediate = issue('server-intermediate', '/CN=server-intermediate', 'root', 'ca_server', 1000);
  const shortIntermediate = issue('short-intermediate', '/CN=short-intermediate', 'root', 'ca_sub', 1);
  const pki: Pki = {
    dir, root, intermediate, foreignRoot, notCa, deepIntermediate, serverIntermediate, shortIntermediate,
    alice: issue('alice', '/CN=alice/O=dev/O=ops', 'root', 'client'),
    bob: issue('bob', '/CN=bob/O=team', 'intermediate', 'client'),
    shortLived: issue('short-lived', '/CN=brief', 'root', 'client', 1),
    foreign: issue('foreign', '/CN=mallory/O=system:masters', 'foreign-root', 'client'),
    serverOnly: issue('server-only', '/CN=server-only', 'root', 'server'),
    noEku: issue('no-eku', '/CN=no-eku/O=legacy', 'root', 'no_eku'),
    noCn: issue('no-cn', '/O=nocn', 'root', 'client'),
    underNotCa: issue('under-not-ca', '/CN=under-not-ca', 'not-ca', 'client'),
    deepLeaf: issue('deep-leaf', '/CN=deep-leaf', 'deep-intermediate', 'client'),
    underServerIntermediate: issue('under-server-intermediate', '/CN=carol', 'server-intermediate', 'client'),
    underShortIntermediate: issue('under-short-intermediate', '/CN=dave', 'short-intermediate', 'client'),
    unknownCritical: issue('unknown-critical', '/CN=odd', 'root', 'unknown_critical'),
    selfSigned: selfSigned('self-signed', '/CN=self/O=solo', 'client'),
    sha1: issue('sha1', '/CN=old', 'root', 'client', 365, '-sha1'),
    server: issue('server', '/CN=plat-test-server', 'root', 'server'),
    bundlePath: join(dir, 'bundle.pem'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
  writeFileSync(pki.bundlePath, root.pem + readFileSync(join(dir, 'root.key'), 'utf8') + intermediate.pem);
  return pki;
}

/** A moment `days` after the certificate's notBefore (whole days keep messages predictable). */
export function daysAfterIssue(cert: Issued, days: number): Date {
  return new Date(new Date(cert.x509.validFrom).getTime() + days * 86_400_000);
}
