// A file named by a flag that cannot be read stops start-up with Go's os error (`open F: no such
// file or directory`, `read F: is a directory`) inside the upstream component's own wrapper, not
// with Node's text (`ENOENT: no such file or directory, open 'F'`). One process per row, a few at
// once: the wrappers are the real start-up path's.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { freePort, tempDir } from '../helpers/plat.js';
import { runPlatAsync } from '../helpers/run-plat.js';

/** A readable signing key: without one an issuer is refused (validateTokenRequest) before the key files are read. */
const SIGNING_KEY = path.join(tempDir(), 'sa-signing.key');
writeFileSync(SIGNING_KEY, generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });

interface Row {
  readonly name: string;
  /** The flags naming `f`, the unreadable file. */
  readonly args: (f: string) => string[];
  /** The message for `f` and Go's os error text about it. */
  readonly message: (os: string, f: string) => string;
  readonly code?: number;
}

const bare = (os: string) => os;

const apiserverRows: readonly Row[] = [
  { name: '--client-ca-file', args: (f) => ['--client-ca-file', f], message: bare },
  { name: '--requestheader-client-ca-file', args: (f) => ['--requestheader-client-ca-file', f], message: bare },
  { name: '--tls-cert-file', args: (f) => ['--tls-cert-file', f, '--tls-private-key-file', f], message: bare },
  { name: '--tls-sni-cert-key', args: (f) => ['--tls-sni-cert-key', `${f},${f}`], message: (os) => `failed to load SNI cert and key: ${os}` },
  { name: '--token-auth-file', args: (f) => ['--token-auth-file', f], message: bare },
  { name: '--authorization-policy-file', args: (f) => ['--authorization-mode=ABAC', '--authorization-policy-file', f],
    message: (os, f) => `invalid authorization config: ${os.startsWith('read ') ? `error reading policy file ${f}: ${os}` : os}` },
  { name: '--authorization-config', args: (f) => ['--authorization-config', f], message: bare },
  { name: '--authentication-config', args: (f) => ['--authentication-config', f],
    message: (os, f) => `failed to load authentication configuration from file ${JSON.stringify(f)}: ${os}` },
  { name: '--admission-control-config-file', args: (f) => ['--admission-control-config-file', f],
    message: (os, f) => `failed to apply admission: failed to read plugin config: unable to read admission control configuration from ${JSON.stringify(f)} [${os}]` },
  { name: '--service-account-key-file', args: (f) => ['--service-account-issuer', 'https://a.example', '--service-account-key-file', f, '--service-account-signing-key-file', SIGNING_KEY], message: bare, code: 2 },
  { name: '--service-account-signing-key-file', args: (f) => ['--service-account-issuer', 'https://a.example', '--service-account-key-file', f, '--service-account-signing-key-file', f],
    message: (os) => `failed to parse service-account-issuer-key-file: ${os}`, code: 2 },
];

const controllerManagerRows: readonly Row[] = [
  { name: '--client-ca-file', args: (f) => ['--client-ca-file', f], message: (os) => `unable to load client CA provider: ${os}` },
  { name: '--requestheader-client-ca-file', args: (f) => ['--requestheader-client-ca-file', f], message: (os) => `unable to create request header authentication config: ${os}` },
  { name: '--tls-cert-file', args: (f) => ['--tls-cert-file', f, '--tls-private-key-file', f], message: bare },
];

/** The two ways a named file fails: not there, and a directory. */
function unreadable(): { what: string; file: string; os: string }[] {
  const dir = tempDir();
  const sub = path.join(dir, 'a-directory');
  mkdirSync(sub);
  const missing = path.join(dir, 'missing');
  return [
    { what: 'missing', file: missing, os: `open ${missing}: no such file or directory` },
    { what: 'a directory', file: sub, os: `read ${sub}: is a directory` },
  ];
}

function check(role: string, rows: readonly Row[], base: (port: number) => string[]): void {
  for (const row of rows) {
    for (const u of unreadable()) {
      it(`${row.name}: ${u.what}`, async () => {
        const r = await runPlatAsync([role, ...base(await freePort()), ...row.args(u.file)]);
        assert.equal(r.code, row.code ?? 1, r.stderr);
        const last = r.stderr.trimEnd().split('\n').at(-1);
        assert.equal(last, `plat ${role}: ${row.message(u.os, u.file)}`, r.stderr);
      });
    }
  }
}

describe('unreadable files named by flags: upstream wrappers around Go\'s os error', { concurrency: 3 }, () => {
  // --cert-dir of its own: the default, /var/run/platform, is the machine's, shared with any other
  // plat apiserver (another test file running beside this one writes its self-signed pair there).
  describe('apiserver', { concurrency: 3 }, () => check('apiserver', apiserverRows, () => ['--data-dir', tempDir(), '--cert-dir', tempDir(), '--secure-port', '0']));
  describe('controller-manager', { concurrency: 3 }, () => check('controller-manager', controllerManagerRows,
    (port) => ['--master', 'https://127.0.0.1:1', '--controllers', 'csrcleaner', '--leader-elect=false', '--secure-port', String(port)]));
});
