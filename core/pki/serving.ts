// Serving certificates for the API server: reused across restarts while they still fit (same key,
// issuer, hosts, not expiring), regenerated otherwise.
import { createCertificate, generateKeyPair, parseCertificate } from '../crypto/index.js';
import { coversHosts, DAY_MS, fresh, issuedBy, issueAndWrite, loadPair, pairFiles, splitHosts, writePair, type CertKeyPair } from './pair.js';
import { makeDir } from '../make-dir.js';

const SERVING_VALIDITY_DAYS = 365;

/**
 * Like kube-apiserver without --tls-cert-file: <certDir>/<baseName>.crt and .key, made once and reused.
 * As client-go's GenerateSelfSignedCertKey, the serving certificate is issued by a throw-away
 * self-signed CA whose certificate follows it in the .crt file (so the file works as a CA bundle for
 * clients) and whose key is never stored. Hosts always include localhost and 127.0.0.1.
 */
export async function ensureSelfSignedServing(
  certDir: string,
  opts: { hosts: string[]; baseName?: string; publicAddress?: string; now?: Date },
): Promise<CertKeyPair & { readonly generated: boolean }> {
  const now = opts.now ?? new Date();
  const files = pairFiles(certDir, opts.baseName ?? 'apiserver');
  const hosts = splitHosts([...opts.hosts, 'localhost', '127.0.0.1']);
  const loaded = await loadPair(files.certFile, files.keyFile);
  if (loaded !== 'missing' && !('invalid' in loaded)) {
    const [leaf, ca] = [loaded.leaf, loaded.chain[1]];
    if (ca !== undefined && issuedBy(leaf, ca) && fresh(leaf, now) && coversHosts(leaf, hosts)) return { ...loaded.pair, generated: false };
  }

  const { certificatePem, privateKeyPem } = generateSelfSignedServing({ hosts: opts.hosts, now, ...(opts.publicAddress ? { publicAddress: opts.publicAddress } : {}) });
  await makeDir(certDir, 0o700);
  await writePair(files, certificatePem, privateKeyPem);
  return { certificatePem, privateKeyPem, ...files, generated: true };
}

/**
 * client-go's GenerateSelfSignedCertKey, in memory: a serving certificate for `hosts` (plus
 * localhost and 127.0.0.1) issued by a throw-away self-signed CA that follows it in the PEM. A
 * component without --cert-dir (the controller manager's default) serves with one of these.
 */
export function generateSelfSignedServing(opts: { hosts: readonly string[]; publicAddress?: string; now?: Date }): { certificatePem: string; privateKeyPem: string } {
  const now = opts.now ?? new Date();
  // client-go names both certificates after the caller's public address (the first host without one).
  const first = opts.publicAddress || (opts.hosts.find((h) => h !== '') ?? 'localhost');
  const hosts = splitHosts([first, ...opts.hosts, 'localhost', '127.0.0.1']);
  const stamp = Math.floor(now.getTime() / 1000);
  // Back-dated an hour, as client-go does, to tolerate clock skew between machines.
  const notBefore = new Date(now.getTime() - 60 * 60 * 1000);
  // A year from that hour, as client-go's validFrom.Add(maxAge).
  const notAfter = new Date(notBefore.getTime() + SERVING_VALIDITY_DAYS * DAY_MS);
  // Choice: P-256 keys where client-go makes RSA-2048 ones, smaller and made in a fraction of the time.
  const caKey = generateKeyPair('ecdsa-p256');
  const ca = createCertificate({
    // Serials 1 (CA) and 2 (leaf), as client-go's fixed ones.
    template: {
      subject: { commonName: `${first}-ca@${stamp}` }, serialNumber: new Uint8Array([1]), notBefore, notAfter, isCA: true,
      keyUsage: ['digital signature', 'key encipherment', 'cert sign'],
    },
    publicKey: caKey.keyObject,
    signer: caKey.keyObject,
  });
  const key = generateKeyPair('ecdsa-p256');
  const leaf = createCertificate({
    template: {
      subject: { commonName: `${first}@${stamp}` },
      serialNumber: new Uint8Array([2]),
      notBefore,
      notAfter,
      keyUsage: ['digital signature', 'key encipherment'],
      extKeyUsage: ['server auth'],
      ...hosts,
    },
    publicKey: key.keyObject,
    issuer: { certificatePem: ca.certificatePem, privateKey: caKey.keyObject },
    signer: caKey.keyObject,
  });
  return { certificatePem: leaf.certificatePem + ca.certificatePem, privateKeyPem: key.privateKeyPem };
}

/** A serverAuth certificate for `hosts` issued by `ca`, written to <dir>/<baseName>.crt/.key and reused while it fits. */
export async function ensureServingFromCa(
  ca: CertKeyPair,
  dir: string,
  opts: { hosts: string[]; baseName: string; validityDays?: number; now?: Date },
): Promise<CertKeyPair> {
  const now = opts.now ?? new Date();
  const files = pairFiles(dir, opts.baseName);
  const hosts = splitHosts(opts.hosts);
  const caCert = parseCertificate(ca.certificatePem);
  const loaded = await loadPair(files.certFile, files.keyFile);
  if (loaded !== 'missing' && !('invalid' in loaded)) {
    const { leaf } = loaded;
    if (issuedBy(leaf, caCert) && fresh(leaf, now) && coversHosts(leaf, hosts) && leaf.extKeyUsage.includes('server auth')) {
      return loaded.pair;
    }
  }
  return issueAndWrite(
    files,
    {
      subject: { commonName: hosts.dnsNames[0] ?? hosts.ipAddresses[0] ?? opts.baseName },
      notBefore: new Date(now.getTime() - 60 * 60 * 1000),
      notAfter: new Date(now.getTime() + (opts.validityDays ?? SERVING_VALIDITY_DAYS) * DAY_MS),
      keyUsage: ['digital signature', 'key encipherment'],
      extKeyUsage: ['server auth'],
      ...hosts,
    },
    ca,
  );
}
