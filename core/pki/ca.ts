// The cluster CA of `plat all`: made once, then reused. An existing but unusable CA is an error, never
// silently replaced: replacing a trust anchor would invalidate every certificate it issued.
import { existsSync } from 'node:fs';
import { issueAndWrite, loadPair, pairFiles, PkiError, DAY_MS, type CertKeyPair } from './pair.js';

const CA_VALIDITY_DAYS = 3650;

/** Where ensureCa keeps the CA in `dir`. */
export const caFiles = (dir: string): { certFile: string; keyFile: string } => pairFiles(dir, 'ca');

export async function ensureCa(dir: string, commonName: string, opts: { now?: Date } = {}): Promise<CertKeyPair> {
  const now = opts.now ?? new Date();
  const files = caFiles(dir);
  const loaded = await loadPair(files.certFile, files.keyFile);
  if (loaded !== 'missing') {
    if ('invalid' in loaded) throw new PkiError(`cannot use the CA: ${loaded.invalid}; remove ${files.certFile} and ${files.keyFile} to make a new CA`);
    const { leaf } = loaded;
    if (!leaf.isCA) throw new PkiError(`${files.certFile} is not a CA certificate`);
    if (leaf.notAfter.getTime() <= now.getTime()) {
      throw new PkiError(`the CA in ${files.certFile} expired on ${leaf.notAfter.toISOString()}; remove it and ${files.keyFile} to make a new CA`);
    }
    return loaded.pair;
  }
  // The key may be the only copy of a CA whose certificate was lost or not yet restored: making a new
  // one in its place would cut off every certificate that key issued (plat ca init refuses alike).
  if (existsSync(files.keyFile)) {
    throw new PkiError(`${files.keyFile} exists without ${files.certFile}; restore ${files.certFile}, or remove ${files.keyFile} to make a new CA`);
  }
  return issueAndWrite(
    files,
    {
      subject: { commonName },
      notBefore: now,
      notAfter: new Date(now.getTime() + CA_VALIDITY_DAYS * DAY_MS),
      isCA: true,
      // As client-go's NewSelfSignedCACert.
      keyUsage: ['digital signature', 'key encipherment', 'cert sign'],
    },
    undefined,
  );
}
