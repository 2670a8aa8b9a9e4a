// The worker-thread signing pool: certificates it issues verify under their CA and carry their
// request's key; requests that pile up go out in batches of one CA and policy; a bad request fails
// alone with upstream's words (parse, proof of possession, or signing); closing rejects what is left.
import assert from 'node:assert/strict';
import { X509Certificate, createPublicKey } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { createCsr, generateKeyPair, type IssuePolicy, type KeyType } from '../../core/crypto/index.js';
import { SigningPool, type PoolCa } from '../../core/signing-pool/pool.js';
import { oid, seq, setOf, tlv } from '../../core/crypto/der-write.js';
import { fixtures } from '../certificates/fixtures.js';
import { craftCsr, OIDS } from '../crypto/csr-craft.js';
import { makeCa } from '../helpers/certs.js';
import { repoRoot, tempDir } from '../helpers/plat.js';

const HOUR = 3600_000;

function poolCa(keyType: KeyType, id: string): { ca: PoolCa; cert: X509Certificate } {
  const c = makeCa({ commonName: `pool-${keyType}`, keyType });
  return { ca: { id, certificatePem: c.certificatePem, privateKeyPem: c.privateKeyPem }, cert: new X509Certificate(c.certificatePem) };
}

function request(cn: string) {
  const key = generateKeyPair('ecdsa-p256').keyObject;
  return { pem: createCsr({ subject: { commonName: cn }, privateKey: key }), publicKey: createPublicKey(key) };
}

/** A request whose CN is a T61String with a byte that is not UTF-8 on its own (Go parses it, then cannot marshal it). */
function t61Request(latin1: string): string {
  const cn = seq(setOf(seq(oid(OIDS.cn), tlv(0x14, Buffer.from(latin1, 'latin1')))));
  return craftCsr({ key: generateKeyPair('ecdsa-p256').keyObject, subject: cn });
}

const policy = (hours: number): IssuePolicy => {
  const now = Math.floor(Date.now() / 1000) * 1000;
  return { usages: ['digital signature', 'client auth'], notBefore: new Date(now - 300_000), notAfter: new Date(now + hours * HOUR) };
};

describe('SigningPool', () => {
  for (const keyType of ['ecdsa-p256', 'ecdsa-p384', 'rsa-2048', 'ed25519'] as const) {
    it(`issues under a ${keyType} CA`, async () => {
      const pool = new SigningPool({ size: 1 });
      try {
        const { ca, cert } = poolCa(keyType, keyType);
        const r = request('one');
        const pem = await pool.issue(r.pem, ca, policy(1));
        const x = new X509Certificate(pem);
        assert.ok(x.verify(cert.publicKey));
        assert.ok(x.publicKey.equals(r.publicKey));
        assert.equal(x.subject, 'CN=one');
      } finally {
        await pool.close();
      }
    });
  }

  it('batches requests that pile up, one CA and policy per batch, and loses none', async () => {
    const pool = new SigningPool({ size: 2, maxBatch: 64 });
    try {
      const { ca, cert } = poolCa('ecdsa-p256', 'batch');
      const short = policy(1);
      const long = policy(2);
      const reqs = Array.from({ length: 200 }, (_, i) => ({ ...request(`n${i}`), policy: i % 2 ? short : long }));
      const pems = await Promise.all(reqs.map((r) => pool.issue(r.pem, ca, r.policy)));
      const serials = new Set<string>();
      pems.forEach((pem, i) => {
        const x = new X509Certificate(pem);
        assert.ok(x.verify(cert.publicKey), `n${i}`);
        assert.ok(x.publicKey.equals(reqs[i]!.publicKey), `n${i}: its own key`);
        assert.equal(x.subject, `CN=n${i}`);
        assert.equal(Date.parse(x.validTo), reqs[i]!.policy.notAfter.getTime(), `n${i}: its own policy`);
        serials.add(x.serialNumber);
      });
      assert.equal(serials.size, 200, 'unique serials');
      // 128 random bits, as upstream: some serial has its top bit set (all 200 missing it: odds 2^-200).
      const magnitudes = [...serials].map((h) => h.replace(/^(00)+/, ''));
      assert.ok(magnitudes.every((h) => h.length <= 32), 'at most 128 bits');
      assert.ok(magnitudes.some((h) => h.length === 32 && parseInt(h[0]!, 16) >= 8), 'the full 128-bit range is used');
      const s = pool.stats;
      assert.equal(s.issued, 200);
      assert.ok(s.workersStarted <= 2);
      assert.ok(s.largestBatch > 1 && s.largestBatch <= 64, `largest batch ${s.largestBatch}`);
      assert.ok(s.batches < 200, `${s.batches} batches`);
    } finally {
      await pool.close();
    }
  });

  it('sends requests made in one turn together, to one worker until each share is minShare', async () => {
    const pool = new SigningPool({ size: 2 });
    try {
      const { ca } = poolCa('ecdsa-p256', 'turn');
      const p = policy(1);
      // What a signing controller worker does with a batch of approved CSRs: one issue() each, in one turn.
      await Promise.all(Array.from({ length: 16 }, (_, i) => pool.issue(request(`t${i}`).pem, ca, p)));
      // 16 are one worker's: waking a second for 8 of them costs more CPU than it saves.
      assert.deepEqual(pool.stats, { batches: 1, issued: 16, largestBatch: 16, workersStarted: 1 });
      // Requests made while a worker is busy wait for it (or go to it when it is free again).
      const first = pool.issue(request('first').pem, ca, p);
      await new Promise((r) => setImmediate(r));
      await Promise.all([first, ...Array.from({ length: 3 }, (_, i) => pool.issue(request(`later${i}`).pem, ca, p))]);
      assert.deepEqual(pool.stats, { batches: 3, issued: 20, largestBatch: 16, workersStarted: 1 });
      // 40 give each of two workers a share of at least 16.
      await Promise.all(Array.from({ length: 40 }, (_, i) => pool.issue(request(`s${i}`).pem, ca, p)));
      assert.deepEqual(pool.stats, { batches: 5, issued: 60, largestBatch: 20, workersStarted: 2 });
    } finally {
      await pool.close();
    }
  });

  it('does not hold a request for a worker busy with a large batch', async () => {
    const pool = new SigningPool({ size: 2, minShare: 100 });
    try {
      // 150 under an RSA CA are one worker's batch (150 < 2 x minShare) and hundreds of milliseconds of signing.
      const { ca } = poolCa('rsa-2048', 'large');
      const p = policy(1);
      const pile = Promise.all(Array.from({ length: 150 }, (_, i) => pool.issue(request(`p${i}`).pem, ca, p)));
      await new Promise((r) => setImmediate(r));
      await pool.issue(request('interactive').pem, ca, p);
      await pile;
      assert.deepEqual(pool.stats, { batches: 2, issued: 151, largestBatch: 150, workersStarted: 2 });
    } finally {
      await pool.close();
    }
  });

  it('fails a bad request alone, in upstream\'s words', async () => {
    const pool = new SigningPool({ size: 1 });
    try {
      const { ca } = poolCa('ecdsa-p256', 'bad');
      const p = policy(1);
      const results = await Promise.allSettled([
        pool.issue(request('good-1').pem, ca, p),
        pool.issue(fixtures().badSignatureCsrPem, ca, p),
        pool.issue('-----BEGIN CERTIFICATE REQUEST-----\nMAMCAQA=\n-----END CERTIFICATE REQUEST-----\n', ca, p),
        pool.issue(request('good-2').pem, ca, p),
        pool.issue(t61Request('al\xe9ce'), ca, p),
      ]);
      assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'rejected', 'fulfilled', 'rejected']);
      assert.equal((results[1] as PromiseRejectedResult).reason.message, 'unable to verify certificate request signature: x509: ECDSA verification failure');
      assert.match((results[2] as PromiseRejectedResult).reason.message, /^unable to parse certificate request: asn1: /);
      // Parsed and verified, then CreateCertificate's asn1.Marshal of the subject fails, its text unwrapped.
      assert.equal((results[4] as PromiseRejectedResult).reason.message, 'failed to sign certificate: asn1: string not valid UTF-8');
    } finally {
      await pool.close();
    }
  });

  it('rejects queued and new requests once closed', async () => {
    const pool = new SigningPool({ size: 1, maxBatch: 1 });
    const { ca } = poolCa('ecdsa-p256', 'close');
    const pending = Array.from({ length: 5 }, (_, i) => pool.issue(request(`c${i}`).pem, ca, policy(1)));
    const settled = Promise.allSettled(pending);
    await pool.close();
    const results = await settled;
    assert.ok(results.every((r) => r.status === 'rejected' && r.reason.message === 'signing pool is closed'));
    await assert.rejects(pool.issue(request('late').pem, ca, policy(1)), { message: 'signing pool is closed' });
  });

  it('closes, its promise settled, when a worker\'s answer crosses close()', () => {
    // In a process of its own, whose event loop ending shows a close() that never settles: the
    // answer of a batch in flight arrives after close() began terminating its worker, and used
    // to unref the worker then, so the loop could end before its exit was reported.
    const dist = (p: string) => JSON.stringify(pathToFileURL(path.join(repoRoot, 'dist', p)).href);
    const script = `
      import { SigningPool } from ${dist('core/signing-pool/pool.js')};
      import { makeCa } from ${dist('test/helpers/certs.js')};
      import { createCsr, generateKeyPair } from ${dist('core/crypto/index.js')};
      const c = makeCa({ commonName: 'pool-close' });
      const ca = { id: 'x', certificatePem: c.certificatePem, privateKeyPem: c.privateKeyPem };
      const now = Math.floor(Date.now() / 1000) * 1000;
      const policy = { usages: ['client auth'], notBefore: new Date(now - 300000), notAfter: new Date(now + 3600000) };
      const csr = () => createCsr({ subject: { commonName: 'x' }, privateKey: generateKeyPair('ecdsa-p256').keyObject });
      const pool = new SigningPool({ size: 1 });
      await pool.issue(csr(), ca, policy);
      const pending = pool.issue(csr(), ca, policy).catch((e) => e.message);
      await new Promise((r) => setImmediate(r));
      // Hold the thread so the worker's answer waits in its port, delivered after close() began.
      const until = Date.now() + 300; while (Date.now() < until);
      pool.close().then(async () => console.log('closed:', await pending));
    `;
    // A file, not --eval: the pool's workers inherit the process's execArgv.
    const file = path.join(tempDir(), 'close.mjs');
    writeFileSync(file, script);
    const r = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.stdout.trim(), 'closed: signing pool is closed', r.stderr);
  });
});

