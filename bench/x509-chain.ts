// What verifying a keep-alive connection's client certificate costs each request, with and without
// remembered successes (core/authn/x509/verified-chains.ts): authenticateCertificateChain on the
// same chain array, as core/server/peer.ts hands it to every request of a connection. The two are
// timed in alternating rounds in one process, so load from other work falls on both alike.
//   node dist/bench/x509-chain.js [--requests N] [--rounds R]
import { performance } from 'node:perf_hooks';
import { createCertificate, generateKeyPair } from '../core/crypto/index.js';
import { authenticateCertificateChain, parseCaBundle } from '../core/authn/x509/index.js';
import { VerifiedChains } from '../core/authn/x509/verified-chains.js';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const REQUESTS = arg('requests', 20_000);
const ROUNDS = arg('rounds', 7);
const DAY = 86_400_000;
const now = new Date();

type Key = ReturnType<typeof generateKeyPair>;
function issue(commonName: string, key: Key, ca?: { pem: string; key: Key }): string {
  return createCertificate({
    template: {
      subject: { commonName, organizations: ca ? ['system:masters'] : [] },
      notBefore: new Date(now.getTime() - DAY), notAfter: new Date(now.getTime() + 365 * DAY),
      ...(ca ? { extKeyUsage: ['client auth'], keyUsage: ['digital signature'] } : { isCA: true, keyUsage: ['cert sign'] }),
    },
    publicKey: key.keyObject,
    signer: ca ? ca.key.keyObject : key.keyObject,
    ...(ca ? { issuer: { certificatePem: ca.pem, privateKey: ca.key.keyObject } } : {}),
  }).certificatePem;
}

const rootKey = generateKeyPair('ecdsa-p256');
const rootPem = issue('bench-root', rootKey);
const interKey = generateKeyPair('ecdsa-p256');
const interPem = createCertificate({
  template: { subject: { commonName: 'bench-intermediate' }, notBefore: new Date(now.getTime() - DAY), notAfter: new Date(now.getTime() + 365 * DAY), isCA: true, keyUsage: ['cert sign'] },
  publicKey: interKey.keyObject, signer: rootKey.keyObject, issuer: { certificatePem: rootPem, privateKey: rootKey.keyObject },
}).certificatePem;
const roots = parseCaBundle(rootPem, 'bench root');
const der = (pem: string) => parseCaBundle(pem, 'bench')[0]!.der;
const chains = {
  'leaf under the root': [der(issue('admin', generateKeyPair('ecdsa-p256'), { pem: rootPem, key: rootKey }))],
  'leaf + intermediate': [der(issue('admin', generateKeyPair('ecdsa-p256'), { pem: interPem, key: interKey })), der(interPem)],
};

/** µs per request for REQUESTS authentications of one connection's chain. */
function time(chain: readonly Buffer[], verified: VerifiedChains | null): number {
  const start = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    if (authenticateCertificateChain(chain, roots, now, true, verified).result !== 'user') throw new Error('the bench chain did not verify');
  }
  return ((performance.now() - start) * 1000) / REQUESTS;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${REQUESTS} requests a round, ${ROUNDS} rounds each, alternating; µs per request (median, min–max of the rounds)`);
for (const [label, chain] of Object.entries(chains)) {
  const every: number[] = [];
  const remembered: number[] = [];
  time(chain, null); // warm-up: JIT, and the parse and signature caches both paths share
  time(chain, new VerifiedChains(16));
  for (let r = 0; r < ROUNDS; r++) {
    every.push(time(chain, null));
    remembered.push(time(chain, new VerifiedChains(16)));
  }
  const show = (xs: number[]) => `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
  console.log(`${label}: verified every request ${show(every)}, remembered ${show(remembered)}, ratio ${(median(remembered) / median(every)).toFixed(2)}`);
}
