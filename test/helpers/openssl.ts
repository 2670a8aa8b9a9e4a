// Running the openssl CLI from tests: an independent implementation to make keys and CSRs with and to
// check what plat builds. Every call is synchronous and works in a throw-away directory.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface OpensslResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs openssl; never throws for a non-zero exit (see `openssl` for that). */
export function runOpenssl(args: string[], opts: { input?: string | Uint8Array; cwd?: string } = {}): OpensslResult {
  const r = spawnSync('openssl', args, { input: opts.input, cwd: opts.cwd, encoding: 'utf8' });
  if (r.error) throw r.error;
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Runs openssl and returns stdout as bytes (DER output); throws with stderr when it fails. */
export function opensslBytes(args: string[], opts: { input?: string | Uint8Array } = {}): Uint8Array {
  const r = spawnSync('openssl', args, { input: opts.input });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`openssl ${args.join(' ')} failed (${r.status}): ${r.stderr.toString()}`);
  return new Uint8Array(r.stdout);
}

/** Runs openssl and returns stdout; throws with stderr when it fails. */
export function openssl(args: string[], opts: { input?: string | Uint8Array; cwd?: string } = {}): string {
  const r = runOpenssl(args, opts);
  if (r.status !== 0) throw new Error(`openssl ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

export interface TempDir {
  dir: string;
  file(name: string): string;
  write(name: string, data: string | Uint8Array): string;
  read(name: string): string;
  cleanup(): void;
}

export function tempDir(prefix = 'plat-test-'): TempDir {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return {
    dir,
    file: (name) => path.join(dir, name),
    write: (name, data) => {
      const f = path.join(dir, name);
      writeFileSync(f, data);
      return f;
    },
    read: (name) => readFileSync(path.join(dir, name), 'utf8'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export type OpensslKeyType = 'rsa-512' | 'rsa-2048' | 'ec-p256' | 'ec-p384' | 'ec-p521' | 'ec-secp256k1' | 'ed25519' | 'ed448';

/** Generates a private key (PKCS#8 PEM) with `openssl genpkey`. */
export function opensslKey(type: OpensslKeyType): string {
  const args: Record<OpensslKeyType, string[]> = {
    'rsa-512': ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:512'],
    'rsa-2048': ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048'],
    'ec-p256': ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-pkeyopt', 'ec_param_enc:named_curve'],
    'ec-p384': ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-384', '-pkeyopt', 'ec_param_enc:named_curve'],
    'ec-p521': ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-521', '-pkeyopt', 'ec_param_enc:named_curve'],
    'ec-secp256k1': ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:secp256k1', '-pkeyopt', 'ec_param_enc:named_curve'],
    ed25519: ['-algorithm', 'ed25519'],
    ed448: ['-algorithm', 'ed448'],
  };
  return openssl(['genpkey', ...args[type]]);
}

export interface OpensslCsrOptions {
  keyType?: OpensslKeyType;
  /** An existing private key PEM instead of a new one. */
  keyPem?: string;
  /** openssl -subj syntax, e.g. '/CN=a+OU=b/O=x/O=y' ('+' makes a multi-valued RDN). */
  subject: string;
  /** subjectAltName entries in openssl syntax: 'DNS:a', 'IP:10.0.0.1', 'email:a@b', 'URI:spiffe://x'. */
  sans?: string[];
  /** Extra -addext values. */
  addext?: string[];
  /** Digest flag such as 'sha384' (ignored by Ed25519/Ed448). */
  digest?: string;
  /** -sigopt values, e.g. ['rsa_padding_mode:pss', 'rsa_pss_saltlen:digest']. */
  sigopt?: string[];
  /** Pass -utf8 so that the subject may contain non-ASCII. */
  utf8?: boolean;
  /** Extra config sections, e.g. a '[dir_sect]' that a 'dirName:dir_sect' SAN names. */
  configSections?: string;
}

/** Makes a CSR with `openssl req -new`; returns PEM of the request and its key. */
export function opensslCsr(opts: OpensslCsrOptions): { csrPem: string; keyPem: string } {
  const t = tempDir();
  try {
    const keyPem = opts.keyPem ?? opensslKey(opts.keyType ?? 'ec-p256');
    const keyFile = t.write('key.pem', keyPem);
    const args = ['req', '-new', '-key', keyFile, '-subj', opts.subject];
    if (opts.utf8) args.push('-utf8');
    if (opts.sans !== undefined && opts.sans.length > 0) args.push('-addext', `subjectAltName=${opts.sans.join(',')}`);
    for (const e of opts.addext ?? []) args.push('-addext', e);
    if (opts.digest !== undefined) args.push(`-${opts.digest}`);
    for (const s of opts.sigopt ?? []) args.push('-sigopt', s);
    // An empty config keeps the host's openssl.cnf (req_extensions, prompts) out of the result.
    args.push('-config', t.write('empty.cnf', `[req]\ndistinguished_name=dn\n[dn]\n${opts.configSections ?? ''}`));
    return { csrPem: openssl(args), keyPem };
  } finally {
    t.cleanup();
  }
}

/** `openssl req -verify`: true when openssl accepts the CSR's self-signature. */
export function opensslReqVerifies(csrPem: string): boolean {
  return runOpenssl(['req', '-verify', '-noout'], { input: csrPem }).status === 0;
}

/** `openssl req -noout -text`. */
export function opensslReqText(csrPem: string): string {
  return openssl(['req', '-noout', '-text'], { input: csrPem });
}

/** `openssl x509 -noout -text`. */
export function opensslCertText(certPem: string): string {
  return openssl(['x509', '-noout', '-text'], { input: certPem });
}

/** `openssl verify -CAfile <ca> [-untrusted <chain>] <cert>` with an optional purpose. */
export function opensslVerify(caPem: string, certPem: string, opts: { untrusted?: string; purpose?: string } = {}): OpensslResult {
  const t = tempDir();
  try {
    const args = ['verify', '-CAfile', t.write('ca.pem', caPem)];
    if (opts.untrusted !== undefined) args.push('-untrusted', t.write('chain.pem', opts.untrusted));
    if (opts.purpose !== undefined) args.push('-purpose', opts.purpose);
    args.push(t.write('cert.pem', certPem));
    return runOpenssl(args);
  } finally {
    t.cleanup();
  }
}

/** Self-signed CA made entirely by openssl (an independent issuer for tests). */
export function opensslCa(
  subject: string,
  keyType: OpensslKeyType = 'ec-p256',
  opts: { utf8?: boolean; /** subjectKeyIdentifier value, e.g. 'hash' or hex '0102...'; default none. */ ski?: string } = {},
): { certPem: string; keyPem: string } {
  const t = tempDir();
  try {
    const keyPem = opensslKey(keyType);
    const args = ['req', '-x509', '-new', '-key', t.write('key.pem', keyPem), '-subj', subject, '-days', '30'];
    if (opts.utf8) args.push('-utf8');
    args.push('-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign,digitalSignature');
    if (opts.ski !== undefined) args.push('-addext', `subjectKeyIdentifier=${opts.ski}`);
    args.push('-config', t.write('empty.cnf', '[req]\ndistinguished_name=dn\n[dn]\n'));
    return { certPem: openssl(args), keyPem };
  } finally {
    t.cleanup();
  }
}

/** `openssl x509 -req`: `csrPem` signed by `ca` for 2 days with serial `serial` and the `[v3]` extension lines `ext`. */
export function opensslSignCsr(ca: { certificatePem: string; privateKeyPem: string }, csrPem: string, ext: readonly string[], serial: number): string {
  const t = tempDir();
  try {
    return openssl(['x509', '-req', '-in', t.write('leaf.csr', csrPem), '-CA', t.write('ca.crt', ca.certificatePem), '-CAkey', t.write('ca.key', ca.privateKeyPem),
      '-set_serial', String(serial), '-days', '2', '-extfile', t.write('ext.cnf', ['[v3]', ...ext, ''].join('\n')), '-extensions', 'v3']);
  } finally {
    t.cleanup();
  }
}
