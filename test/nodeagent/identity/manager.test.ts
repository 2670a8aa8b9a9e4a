// The certificate manager's schedule against a fake API client, with the clock, the jitter and
// the sleeps injected (k8s-behaviour §5.7): once it has decided to rotate it retries 2, 4, 8 and
// 16 s apart (jitter 0.1) and then every 32 s without drawing the deadline again; a request whose
// template no longer holds is given up at once; an expired certificate is not put in force.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { whenAborted } from '../../../core/abort-wait.js';
import { CertificateManager } from '../../../core/client/certificate/manager.js';
import type { CertificateTemplate } from '../../../core/client/certificate/request.js';
import { FileStore, keyToPem } from '../../../core/client/certificate/store.js';
import { RestClient } from '../../../core/client/rest-client.js';
import { createCertificate, parseCsr } from '../../../core/crypto/index.js';
import { createLogger } from '../../../core/log.js';
import { tempDir } from '../../helpers/plat.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);

/** A store holding a certificate valid from T0 for an hour. */
function storeWithCertificate(): FileStore {
  const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
  const { certificatePem } = createCertificate({
    template: { subject: { commonName: 'system:node:n1', organizations: ['system:nodes'] }, notBefore: new Date(T0), notAfter: new Date(T0 + HOUR) },
    publicKey: key, signer: key,
  });
  const store = new FileStore({ dir: tempDir('plat-manager-'), prefix: 'nodeagent-client' });
  store.update(certificatePem, keyToPem(key));
  return store;
}

const template = (ip?: string): CertificateTemplate => ({ commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: [], ipAddresses: ip ? [ip] : [] });

function capture() {
  const lines: string[] = [];
  return { lines, logger: createLogger({ verbosity: 2, write: (l) => lines.push(l) }) };
}

/** A real client of a loopback port nothing listens on. */
/** A client of an address nothing listens at (port 1; not a port just freed, which a test file beside this one may take). */
function refusedClient(): { client: RestClient; hostPort: string } {
  const hostPort = '127.0.0.1:1';
  return { client: new RestClient({ server: new URL(`https://${hostPort}`), insecureSkipTlsVerify: true }, { qps: 0 }), hostPort };
}

const refused = { request: async () => { throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }); } } as unknown as RestClient;

/** A fake API client whose CSR is `status` once created; its watch stays open without events. */
function csrClient(status: object): RestClient {
  const csr = { metadata: { name: 'csr-1', uid: 'uid-1', resourceVersion: '1' }, status };
  return {
    request: async (method: string) => method === 'POST' ? csr : { items: [csr], metadata: { resourceVersion: '1' } },
    async *watch(_r: unknown, o: { signal: AbortSignal }) { await whenAborted(o.signal); },
  } as unknown as RestClient;
}

const CLIENT_SIGNER = 'platform/apiserver-client-nodeagent';
/** The HandleError line of a failed rotation: the signer name is the manager's name, as the kubelet sets none. */
const unhandled = (err: string) => `Unhandled Error err=${JSON.stringify(`${CLIENT_SIGNER}: ${err}`)}`;

/** One attempt of a manager with no certificate against `client`; its log lines. */
async function oneAttempt(client: RestClient, o: { waitTimeoutMs?: number } = {}): Promise<string[]> {
  const stop = new AbortController();
  const { lines, logger } = capture();
  const manager = new CertificateManager({
    store: new FileStore({ dir: tempDir('plat-manager-'), prefix: 'nodeagent-client' }), signerName: CLIENT_SIGNER, use: 'client', logger,
    template: () => template(), client: () => client, sleep: async () => { stop.abort(); }, ...o,
  });
  await manager.run(stop.signal);
  return lines;
}

describe('certificate manager schedule', () => {
  it('retries on upstream\'s backoff until it succeeds, never waiting for a newly drawn deadline', async () => {
    // 75% into the life: the first draw (0.7) is past; a later one (0.88) would be 13% of the life away.
    const draws = [0, 0.9];
    const random = () => draws.length > 1 ? draws.shift()! : draws[0]!;
    const stop = new AbortController();
    const sleeps: number[] = [];
    const { lines, logger } = capture();
    const { client, hostPort } = refusedClient();
    const manager = new CertificateManager({
      store: storeWithCertificate(), signerName: CLIENT_SIGNER, use: 'client', logger,
      template: () => template(), client: () => client, now: () => new Date(T0 + 0.75 * HOUR), random,
      sleep: async (ms) => { sleeps.push(Math.round(ms)); if (sleeps.length === 7) stop.abort(); },
    });
    await manager.run(stop.signal);
    assert.deepEqual(sleeps, [2180, 4360, 8720, 17440, 32000, 32000, 32000]);
    assert.ok(lines.some((l) => l.endsWith(`${CLIENT_SIGNER}: Certificate expiration is 2026-01-01 01:00:00 +0000 UTC, rotation deadline is 2026-01-01 00:42:00 +0000 UTC`)), lines.join('\n'));
    assert.equal(lines.filter((l) => l.includes('for next certificate rotation')).length, 0, 'no wait for a deadline that has passed');
    assert.equal(lines.filter((l) => l.endsWith(`] ${CLIENT_SIGNER}: Rotating certificates`)).length, 7, 'every attempt');
    const failure = unhandled(`Failed while requesting a signed certificate from the control plane: cannot create certificate signing request: Post "https://${hostPort}/apis/certificates.platform/v1/certificatesigningrequests": dial tcp ${hostPort}: connect: connection refused`);
    const failures = lines.filter((l) => l.startsWith('E') && l.endsWith(failure));
    assert.equal(failures.length, 7, lines.join('\n'));
    const limit = lines.findIndex((l) => l.startsWith('E') && l.endsWith(unhandled('Reached backoff limit, still unable to rotate certs: timed out waiting for the condition')));
    assert.equal(limit, lines.indexOf(failures[4]!) + 1, 'the limit is reported after the fifth failure');
  });

  it('a new certificate already past its deadline is rotated again a second later (wait.Until), not in a tight loop', async () => {
    // The agent's clock is 95% into every certificate's life (ahead of the signer's): each new one is due at once.
    const stop = new AbortController();
    const sleeps: number[] = [];
    const ca = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    let posts = 0;
    let csr: object | undefined;
    const client = {
      request: async (method: string, _path: string, o: { body?: { spec: { request: string } } }) => {
        if (method !== 'POST') return { items: [csr], metadata: { resourceVersion: String(posts) } };
        posts++;
        if (posts === 3) stop.abort();
        const request = parseCsr(Buffer.from(o.body!.spec.request, 'base64').toString());
        const { certificatePem } = createCertificate({
          template: { subject: { commonName: 'system:node:n1', organizations: ['system:nodes'] }, notBefore: new Date(T0), notAfter: new Date(T0 + HOUR) },
          publicKey: request.publicKey.spki, signer: ca,
        });
        csr = {
          metadata: { name: `csr-${posts}`, uid: `uid-${posts}`, resourceVersion: String(posts) },
          status: { conditions: [{ type: 'Approved', status: 'True' }], certificate: Buffer.from(certificatePem).toString('base64') },
        };
        return csr;
      },
      async *watch(_r: unknown, o: { signal: AbortSignal }) { await whenAborted(o.signal); },
    } as unknown as RestClient;
    const { lines, logger } = capture();
    const manager = new CertificateManager({
      store: storeWithCertificate(), signerName: CLIENT_SIGNER, use: 'client', logger,
      template: () => template(), client: () => client, now: () => new Date(T0 + 0.95 * HOUR), random: () => 0,
      sleep: async (ms) => { sleeps.push(ms); if (sleeps.length > 10) stop.abort(); },
    });
    await manager.run(stop.signal);
    assert.equal(lines.filter((l) => l.includes('Certificate rotation done')).length, 2, lines.join('\n'));
    assert.deepEqual(sleeps, [1000, 1000], 'a second after each rotation');
  });

  it('says when the certificate expires and how long it waits, in Go\'s time and duration texts', async () => {
    const stop = new AbortController();
    const { lines, logger } = capture();
    const manager = new CertificateManager({
      store: storeWithCertificate(), signerName: CLIENT_SIGNER, use: 'client', logger,
      template: () => template(), client: () => refused, now: () => new Date(T0 + 0.5 * HOUR), random: () => 0,
      sleep: async () => { stop.abort(); },
    });
    await manager.run(stop.signal);
    assert.deepEqual(lines.filter((l) => l.startsWith('I')).map((l) => l.replace(/^.*\] /, '')), [
      `${CLIENT_SIGNER}: Certificate expiration is 2026-01-01 01:00:00 +0000 UTC, rotation deadline is 2026-01-01 00:42:00 +0000 UTC`,
      `${CLIENT_SIGNER}: Waiting 12m0s for next certificate rotation`,
    ]);
  });

  it('words a request that is not signed as client-go\'s WaitForCertificate', async () => {
    const cases: [string, RestClient, { waitTimeoutMs?: number }, string][] = [
      ['denied', csrClient({ conditions: [{ type: 'Denied', reason: 'R', message: 'M' }] }), {},
        'certificate request was not signed: cannot watch on the certificate signing request: certificate signing request is denied, reason: R, message: M'],
      ['failed', csrClient({ conditions: [{ type: 'Failed', reason: 'F', message: 'G' }] }), {},
        'certificate request was not signed: cannot watch on the certificate signing request: certificate signing request failed, reason: F, message: G'],
      ['not issued in time', csrClient({}), { waitTimeoutMs: 50 }, 'certificate request was not signed: timed out waiting for the condition'],
    ];
    for (const [name, client, o, err] of cases) {
      const lines = await oneAttempt(client, o);
      assert.ok(lines.some((l) => l.startsWith('E') && l.endsWith(unhandled(err))), `${name}:\n${lines.join('\n')}`);
    }
  });

  it('gives up waiting for a request whose template no longer holds and asks for the new one', { timeout: 3000 }, async () => {
    let ip = '10.0.0.1';
    const posted: Buffer[] = [];
    const stop = new AbortController();
    const { lines, logger } = capture();
    const csr = (n: number) => ({ metadata: { name: `csr-${n}`, uid: `uid-${n}`, resourceVersion: '1' }, status: {} });
    const client = {
      request: async (method: string, _path: string, o: { body?: { spec: { request: string } } }) => {
        if (method === 'POST') {
          posted.push(Buffer.from(Buffer.from(o.body!.spec.request, 'base64').toString().replace(/-----[^-]+-----|\s/g, ''), 'base64'));
          if (posted.length === 2) stop.abort();
          return csr(posted.length);
        }
        return { items: [csr(posted.length)], metadata: { resourceVersion: '1' } };
      },
      async *watch(_r: unknown, o: { signal: AbortSignal }) { await whenAborted(o.signal); },
    } as unknown as RestClient;
    const manager = new CertificateManager({
      store: new FileStore({ dir: tempDir('plat-manager-'), prefix: 'nodeagent-server' }), signerName: 'platform/nodeagent-serving',
      use: 'serving', logger, template: () => template(ip), client: () => client, templateCheckMs: 5, sleep: async () => {},
    });
    const running = manager.run(stop.signal);
    while (posted.length === 0) await new Promise((r) => setTimeout(r, 5));
    ip = '10.0.0.2';
    await running;
    // The IP SAN as DER: [7] IMPLICIT OCTET STRING of four bytes.
    const san = (a: number) => Buffer.from([0x87, 4, 10, 0, 0, a]);
    assert.ok(posted[0]!.includes(san(1)) && posted[1]!.includes(san(2)), 'the second request is for the new address');
    // The wait's context is cancelled: wait.ErrWaitTimeout, as upstream's.
    assert.ok(lines.some((l) => l.endsWith('err="platform/nodeagent-serving: certificate request was not signed: timed out waiting for the condition"')), lines.join('\n'));
  });

  it('does not put an expired certificate in force', async () => {
    const stop = new AbortController();
    const inForce: unknown[] = [];
    const manager = new CertificateManager({
      store: storeWithCertificate(), signerName: CLIENT_SIGNER, use: 'client', logger: capture().logger,
      template: () => template(), client: () => refused, now: () => new Date(T0 + 2 * HOUR),
      onCurrent: (p) => inForce.push(p), sleep: async () => { stop.abort(); },
    });
    assert.equal(manager.current(), undefined);
    await manager.run(stop.signal);
    assert.deepEqual(inForce, []);
  });
});
