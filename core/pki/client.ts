// Client certificates issued by the local CA (the admin credential of `plat all`, test clients).
import { parseCertificate } from '../crypto/index.js';
import { DAY_MS, fresh, issuedBy, issueAndWrite, loadPair, pairFiles, type CertKeyPair } from './pair.js';

// As multisets: Go's subject holds all O values in one RDN sorted by their encoding, not in the asked order.
const sameGroups = (a: readonly string[], b: readonly string[]): boolean => {
  const [x, y] = [[...a].sort(), [...b].sort()];
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/** A clientAuth certificate (CN = user, O = groups) issued by `ca`; reused while subject, issuer and validity still fit. */
export async function ensureClientCertificate(
  ca: CertKeyPair,
  dir: string,
  opts: { commonName: string; organizations: string[]; baseName: string; validityDays?: number; now?: Date },
): Promise<CertKeyPair> {
  const now = opts.now ?? new Date();
  const days = opts.validityDays ?? 365;
  if (!(days > 0)) throw new RangeError('validityDays must be positive');
  const files = pairFiles(dir, opts.baseName);
  const caCert = parseCertificate(ca.certificatePem);
  const loaded = await loadPair(files.certFile, files.keyFile);
  if (loaded !== 'missing' && !('invalid' in loaded)) {
    const { leaf } = loaded;
    if (
      issuedBy(leaf, caCert) &&
      fresh(leaf, now) &&
      leaf.commonName === opts.commonName &&
      sameGroups(leaf.organizations, opts.organizations) &&
      leaf.extKeyUsage.includes('client auth')
    ) {
      return loaded.pair;
    }
  }
  return issueAndWrite(
    files,
    {
      subject: { commonName: opts.commonName, organizations: [...opts.organizations] },
      notBefore: new Date(now.getTime() - 60 * 60 * 1000),
      notAfter: new Date(now.getTime() + days * DAY_MS),
      keyUsage: ['digital signature', 'key encipherment'],
      extKeyUsage: ['client auth'],
    },
    ca,
  );
}
