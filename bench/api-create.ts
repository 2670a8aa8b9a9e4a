// CSR creates through the whole API path, HTTP/1.1 keep-alive and HTTP/2 side by side against one
// in-process `plat all`: TLS, authentication, authorization, decode, PKCS#10 parse and proof of
// possession, validation, durable LMDB commit. Prints a table and the ratio.
//   node dist/bench/api-create.js [--requests N] [--concurrency C]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { boot } from '../core/boot.js';
import { createCsr, generateKeyPair } from '../core/crypto/index.js';
import { silentLogger } from '../core/log.js';
import { profiles } from '../host/profiles.js';
import { getApiServer } from '../plugins/apiserver/index.js';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const REQUESTS = arg('requests', 2000);
const CONCURRENCY = arg('concurrency', 16);
const P = '/apis/certificates.platform/v1/certificatesigningrequests';

type Send = (body: string) => Promise<number>;

async function run(label: string, send: Send, prefix: string): Promise<{ label: string; rps: number; p50: number; p99: number }> {
  const body = (i: number) => JSON.stringify({ ...template, metadata: { name: `${prefix}-${i}` } });
  for (let i = 0; i < 50; i++) await send(body(-i - 1)); // warm-up
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < REQUESTS) {
      const i = next++;
      const s = performance.now();
      const status = await send(body(i));
      if (status !== 201) throw new Error(`${label}: create ${i} answered ${status}`);
      latencies.push(performance.now() - s);
    }
  }));
  const secs = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return { label, rps: REQUESTS / secs, p50: latencies[Math.floor(latencies.length * 0.5)]!, p99: latencies[Math.floor(latencies.length * 0.99)]! };
}

const key = generateKeyPair('ecdsa-p256');
const template = {
  apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest',
  spec: {
    request: Buffer.from(createCsr({ subject: { commonName: 'bench', organizations: ['bench'] }, privateKey: key.keyObject })).toString('base64'),
    signerName: 'example.com/bench', usages: ['digital signature', 'client auth'],
  },
};

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'plat-bench-'));
const { host } = await boot({
  profile: profiles['all']!, argv: ['--data-dir', dataDir, '--secure-port', '0', '--store-compaction-interval', '0'],
  cwd: dataDir, logger: silentLogger, version: 'bench',
});
const api = getApiServer(host)!;
const url = new URL(api.url);
const pki = path.join(dataDir, 'pki');
const tls = { ca: readFileSync(path.join(pki, 'ca.crt')), cert: readFileSync(path.join(pki, 'admin.crt')), key: readFileSync(path.join(pki, 'admin.key')) };

const agent = new https.Agent({ keepAlive: true, maxSockets: CONCURRENCY, ...tls });
const h1: Send = (body) => new Promise((resolve, reject) => {
  const req = https.request({ agent, method: 'POST', hostname: url.hostname, port: url.port, path: P,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), accept: 'application/json' } }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.statusCode ?? 0));
  });
  req.on('error', reject);
  req.end(body);
});
const session = http2.connect(api.url, tls);
const h2: Send = (body) => new Promise((resolve, reject) => {
  const req = session.request({ ':method': 'POST', ':path': P, 'content-type': 'application/json', accept: 'application/json' });
  let status = 0;
  req.on('response', (h) => { status = Number(h[':status']); });
  req.on('data', () => {});
  req.on('end', () => resolve(status));
  req.on('error', reject);
  req.end(body);
});

// Alternate the order so neither protocol always runs on the warmer (or fuller) store.
const results: Awaited<ReturnType<typeof run>>[] = [];
results.push(await run('HTTP/1.1 keep-alive', h1, 'h1a'));
results.push(await run('HTTP/2', h2, 'h2a'));
results.push(await run('HTTP/2', h2, 'h2b'));
results.push(await run('HTTP/1.1 keep-alive', h1, 'h1b'));
session.close();
agent.destroy();
await host.hooks.shutdown.promise();
rmSync(dataDir, { recursive: true, force: true });

const by = (label: string) => results.filter((r) => r.label === label);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`plat bench api-create: ${REQUESTS} creates x 2 rounds each, concurrency ${CONCURRENCY}, node ${process.version}, ${os.cpus().length} cores`);
console.log('| transport | creates/s | p50 ms | p99 ms |');
console.log('|---|---|---|---|');
for (const label of ['HTTP/1.1 keep-alive', 'HTTP/2']) {
  const rs = by(label);
  console.log(`| ${label} | ${mean(rs.map((r) => r.rps)).toFixed(0)} | ${mean(rs.map((r) => r.p50)).toFixed(2)} | ${mean(rs.map((r) => r.p99)).toFixed(2)} |`);
}
console.log(`HTTP/2 / HTTP/1.1 throughput ratio: ${(mean(by('HTTP/2').map((r) => r.rps)) / mean(by('HTTP/1.1 keep-alive').map((r) => r.rps))).toFixed(2)}`);
