// `plat ca init` and `plat ca sign` on bad input: one line naming the file or flag at fault, exit 2
// for a flag and 1 for a file, never a stack trace; a CA key that is not the certificate's is
// blamed on the CA files, not on the CSR.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../helpers/plat.js';
import { runPlat } from '../helpers/run-plat.js';

describe('plat ca errors', () => {
  const dir = tempDir();
  const [caDir, otherDir] = [path.join(dir, 'ca'), path.join(dir, 'other')];
  assert.equal(runPlat(['ca', 'init', '--dir', caDir]).code, 0);
  assert.equal(runPlat(['ca', 'init', '--dir', otherDir]).code, 0);
  const csr = path.join(dir, 'leaf.csr');
  execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', path.join(dir, 'leaf.key'),
    '-subj', '/CN=leaf', '-out', csr], { stdio: 'ignore' });
  /** A CA directory holding these two files. */
  const caWith = (name: string, cert: string, key: string): string => {
    const d = path.join(dir, name);
    mkdirSync(d);
    writeFileSync(path.join(d, 'ca.crt'), cert);
    writeFileSync(path.join(d, 'ca.key'), key, { mode: 0o600 });
    return d;
  };
  const read = (d: string, f: string) => readFileSync(path.join(d, f), 'utf8');
  const existing = path.join(dir, 'existing.crt');
  writeFileSync(existing, 'kept\n');
  const caKeyBefore = read(caDir, 'ca.key');

  const cases: { name: string; args: () => string[]; code: number; stderr: (a: string[]) => string | RegExp; after?: () => void }[] = [
    {
      name: 'a --days past 9999-12-31 is a flag error, and no directory is made',
      args: () => ['ca', 'init', '--dir', path.join(dir, 'never'), '--days', '4000000'],
      code: 2,
      stderr: () => /^plat ca init: invalid argument "4000000" for "--days" flag: must be at most \d+ \(a certificate cannot be valid past 9999-12-31\)\n$/,
      after: () => assert.equal(existsSync(path.join(dir, 'never')), false),
    },
    {
      name: '--out into a missing directory names --out, as Go\'s open does',
      args: () => ['ca', 'sign', '--ca-dir', caDir, '--csr', csr, '--out', '/nonexistent/dir/x.crt'],
      code: 1,
      stderr: () => 'plat ca sign: open /nonexistent/dir/x.crt: no such file or directory\n',
    },
    {
      name: 'an unparsable ca.crt is named',
      args: () => ['ca', 'sign', '--ca-dir', caWith('badcert', 'not a certificate\n', read(caDir, 'ca.key')), '--csr', csr],
      code: 1,
      stderr: (a) => `plat ca sign: ${path.join(a[3]!, 'ca.crt')}: tls: failed to find any PEM data in certificate input\n`,
    },
    {
      name: 'an unparsable ca.key is named',
      args: () => ['ca', 'sign', '--ca-dir', caWith('badkey', read(caDir, 'ca.crt'), read(caDir, 'ca.crt')), '--csr', csr],
      code: 1,
      stderr: (a) => `plat ca sign: ${path.join(a[3]!, 'ca.key')}: tls: found a certificate rather than a key in the PEM for the private key\n`,
    },
    {
      name: 'a ca.key that is not ca.crt\'s names both CA files',
      args: () => ['ca', 'sign', '--ca-dir', caWith('mismatch', read(caDir, 'ca.crt'), read(otherDir, 'ca.key')), '--csr', csr],
      code: 1,
      stderr: (a) => `plat ca sign: ${path.join(a[3]!, 'ca.crt')} and ${path.join(a[3]!, 'ca.key')}: tls: private key does not match public key\n`,
    },
    {
      name: 'a CSR file that is not there is said as Go\'s open says it',
      args: () => ['ca', 'sign', '--ca-dir', caDir, '--csr', path.join(dir, 'missing.csr')],
      code: 1,
      stderr: () => `plat ca sign: open ${path.join(dir, 'missing.csr')}: no such file or directory\n`,
    },
    {
      name: 'an --out that exists is kept without --force',
      args: () => ['ca', 'sign', '--ca-dir', caDir, '--csr', csr, '--out', existing],
      code: 1,
      stderr: () => `plat ca sign: --out ${existing} already exists; use --force to replace it\n`,
      after: () => assert.equal(readFileSync(existing, 'utf8'), 'kept\n'),
    },
    {
      name: 'the CA key is never an --out, --force or not',
      args: () => ['ca', 'sign', '--ca-dir', caDir, '--csr', csr, '--out', path.join(caDir, 'ca.key'), '--force'],
      code: 1,
      stderr: () => `plat ca sign: --out ${path.join(caDir, 'ca.key')} is an input of this command; choose another file\n`,
      after: () => assert.equal(read(caDir, 'ca.key'), caKeyBefore),
    },
    {
      name: 'nor through a link to it',
      args: () => {
        const link = path.join(dir, 'link-to-key');
        symlinkSync(path.join(caDir, 'ca.key'), link);
        return ['ca', 'sign', '--ca-dir', caDir, '--csr', csr, '--out', link, '--force'];
      },
      code: 1,
      stderr: () => `plat ca sign: --out ${path.join(dir, 'link-to-key')} is an input of this command (through a link, ${path.join(caDir, 'ca.key')}); choose another file\n`,
      after: () => assert.equal(read(caDir, 'ca.key'), caKeyBefore),
    },
    {
      name: '--force replaces an --out that exists',
      args: () => ['ca', 'sign', '--ca-dir', caDir, '--csr', csr, '--out', existing, '--force'],
      code: 0,
      stderr: () => '',
      after: () => assert.match(readFileSync(existing, 'utf8'), /^-----BEGIN CERTIFICATE-----\n/),
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const args = c.args();
      const r = runPlat(args);
      assert.equal(r.code, c.code, r.stderr);
      const want = c.stderr(args);
      if (want instanceof RegExp) assert.match(r.stderr, want);
      else assert.equal(r.stderr, want);
      c.after?.();
    });
  }
});
