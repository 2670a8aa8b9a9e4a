// `plat ca sign`'s validity window is the signing controller's (PermissiveSigningPolicy.apply):
// backdated 5 minutes, a long lifetime (8h or more) gives the backdate back at its end, capped by
// the CA's notAfter, and never raised to the CA's notBefore (upstream has no such rule).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parseCertificate } from '../../core/crypto/index.js';
import { caInit, caSign } from '../../host/commands/ca.js';
import { tempDir } from '../helpers/plat.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T = Date.parse('2030-06-01T12:00:00Z');

describe('plat ca sign validity window', () => {
  const dir = tempDir();
  const csr = path.join(dir, 'leaf.csr');
  execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', path.join(dir, 'leaf.key'),
    '-subj', '/CN=leaf', '-out', csr], { stdio: 'ignore' });
  const cases: { name: string; caMadeAt: number; caDays: number; duration: string; notBefore: number; notAfter: number; capped: boolean }[] = [
    { name: '1h is short: notAfter = now + 1h', caMadeAt: T, caDays: 365, duration: '1h', notBefore: T - 5 * MIN, notAfter: T + HOUR, capped: false },
    { name: '24h is long: notAfter = now + 24h - 5m', caMadeAt: T, caDays: 365, duration: '24h', notBefore: T - 5 * MIN, notAfter: T + 24 * HOUR - 5 * MIN, capped: false },
    { name: '8h is long', caMadeAt: T, caDays: 365, duration: '8h', notBefore: T - 5 * MIN, notAfter: T + 8 * HOUR - 5 * MIN, capped: false },
    { name: 'capped at the CA\'s notAfter', caMadeAt: T, caDays: 1, duration: '48h', notBefore: T - 5 * MIN, notAfter: T + 24 * HOUR, capped: true },
    { name: 'a CA not yet valid: notBefore is not raised to the CA\'s', caMadeAt: T + HOUR, caDays: 365, duration: '1h', notBefore: T - 5 * MIN, notAfter: T + HOUR, capped: false },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const caDir = path.join(dir, c.name.replace(/\W+/g, '-'));
      await caInit(['--dir', caDir, '--days', String(c.caDays)], new Date(c.caMadeAt));
      const out = path.join(caDir, 'leaf.crt');
      const { stdout } = await caSign(['--ca-dir', caDir, '--csr', csr, '--duration', c.duration, '--out', out], new Date(T + 400));
      const cert = parseCertificate(readFileSync(out, 'utf8'));
      assert.deepEqual([cert.notBefore.toISOString(), cert.notAfter.toISOString()], [new Date(c.notBefore).toISOString(), new Date(c.notAfter).toISOString()]);
      assert.equal(stdout.includes('(capped at the CA\'s expiry; asked for'), c.capped, stdout);
    });
  }
});
