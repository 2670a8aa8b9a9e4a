// A third-party signer: issues certificates for its signerName (default example.com/short-lived)
// from a CA of its own, never valid for more than an hour. It only taps hooks.sign.for(signerName);
// the controller manager's csrsigning controller hands it every approved CSR of that signer, puts
// the certificate it returns into status.certificate, and turns a `failed` answer into a Failed
// condition. A thrown error is retried with backoff.
//
// Options: {
//   signerName?: string,          default 'example.com/short-lived'
//   caDir?: string,               ca.crt and ca.key are read there, or made there (key 0600) if absent;
//                                 relative to the config file's directory (configDir), as the plugin's
//                                 own path is, not to wherever plat was started; without it a CA is
//                                 made in memory at every start
//   maxLifetimeSeconds?: number,  default 3600, at least 600
// }
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCertificate, generateKeyPair, issueCertificate, parseCertificate, parseCsr } from 'plat';

const PLUGIN_NAME = 'ShortLivedSigner';
const ALLOWED_USAGES = new Set(['digital signature', 'key encipherment', 'client auth', 'server auth']);
const BACKDATE_MS = 60_000;
const CA_DAYS = 365;

function makeCa(signerName) {
  const key = generateKeyPair('ecdsa-p256');
  const now = Date.now();
  const { certificatePem } = createCertificate({
    template: {
      subject: { commonName: `${signerName} CA` },
      notBefore: new Date(now - BACKDATE_MS),
      notAfter: new Date(now + CA_DAYS * 86_400_000),
      isCA: true,
      keyUsage: ['digital signature', 'cert sign', 'crl sign'],
    },
    publicKey: key.keyObject,
    signer: key.keyObject,
  });
  return { certificatePem, privateKey: key.privateKeyPem };
}

function loadOrMakeCa(signerName, caDir, log) {
  if (!caDir) {
    const ca = makeCa(signerName);
    log.info('made an in-memory CA; clients must be given its certificate to trust what it issues', { signer: signerName });
    return ca;
  }
  const certFile = path.join(caDir, 'ca.crt');
  const keyFile = path.join(caDir, 'ca.key');
  if (existsSync(certFile) || existsSync(keyFile)) {
    return { certificatePem: readFileSync(certFile, 'utf8'), privateKey: readFileSync(keyFile, 'utf8') };
  }
  const ca = makeCa(signerName);
  mkdirSync(caDir, { recursive: true, mode: 0o700 });
  writeFileSync(keyFile, ca.privateKey, { mode: 0o600 });
  writeFileSync(certFile, ca.certificatePem, { mode: 0o644 });
  log.info('made a CA', { signer: signerName, certFile });
  return ca;
}

export default function shortLivedSigner(options = {}) {
  const signerName = options.signerName ?? 'example.com/short-lived';
  const maxSeconds = options.maxLifetimeSeconds ?? 3600;
  if (!Number.isInteger(maxSeconds) || maxSeconds < 600) {
    throw new Error(`${PLUGIN_NAME}: maxLifetimeSeconds must be an integer of at least 600, not ${JSON.stringify(options.maxLifetimeSeconds)}`);
  }
  return {
    name: PLUGIN_NAME,
    apply(host) {
      const log = host.logger.child(PLUGIN_NAME);
      let ca;
      let caNotAfter;
      host.hooks.configure.tap(PLUGIN_NAME, ({ configDir }) => {
        const caDir = options.caDir && path.resolve(configDir ?? '', options.caDir);
        ca = loadOrMakeCa(signerName, caDir, log);
        caNotAfter = parseCertificate(ca.certificatePem).notAfter.getTime();
      });

      host.hooks.sign.for(signerName).tapPromise(PLUGIN_NAME, async (req) => {
        const fail = (message) => ({ failed: { reason: 'SignerValidationFailure', message } });
        const csr = parseCsr(req.requestPem);
        if (!csr.commonName) return fail('a subject common name is required');
        const bad = req.usages.find((u) => !ALLOWED_USAGES.has(u));
        if (bad !== undefined) return fail(`usage "${bad}" is not issued by ${signerName}`);

        const now = req.now.getTime();
        const seconds = Math.min(req.expirationSeconds ?? maxSeconds, maxSeconds);
        const notAfter = Math.min(now + seconds * 1000, caNotAfter);
        // An expired CA is the operator's to fix: throwing makes the controller retry, not fail the CSR.
        if (notAfter <= now) throw new Error(`the ${signerName} CA expired at ${new Date(caNotAfter).toISOString()}`);
        const { certificatePem } = issueCertificate(req.requestPem, ca, {
          usages: req.usages, notBefore: new Date(now - BACKDATE_MS), notAfter: new Date(notAfter),
        });
        return { certificatePem };
      });
    },
  };
}
