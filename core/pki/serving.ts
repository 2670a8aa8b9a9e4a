// Serving certificates: the self-signed pair a component keeps in --cert-dir (any readable pair
// there is served, as upstream; only plat's own throw-away pair is ever replaced), and a pair
// issued by plat all's CA.
import { createCertificate, decodePemBlocks, generateKeyPair, parseCertificate, parseCertificateDer, type ParsedCertificate } from '../crypto/index.js';
import { servingPairProblem } from '../server/serving-pair.js';
import { coversHosts, DAY_MS, fresh, issuedBy, issueAndWrite, loadPair, pairFiles, PkiError, readIfExists, splitHosts, writePair, type CertKeyPair } from './pair.js';
import { makeDir } from '../make-dir.js';

const SERVING_VALIDITY_DAYS = 365;

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** What ensureSelfSignedServing did: made a pair, replaced its own (and why), or kept the one it found. */
export type SelfSignedOutcome = { readonly made: 'generated' } | { readonly made: 'renewed'; readonly reason: string } | { readonly made: 'kept'; readonly subject: string };

/**
 * Like kube-apiserver without --tls-cert-file (and the kubelet without tlsCertFile):
 * <certDir>/<baseName>.crt and .key. As upstream's CanReadCertAndKey, a pair is generated only when
 * neither file exists, half a pair is an error, and a pair that is there is served, whoever made it;
 * one that does not load (a key that does not match, a file that does not parse) is an error naming
 * both files, never replaced. Choice: plat's own pair (client-go's GenerateSelfSignedCertKey shape,
 * recognised by selfSignedShape) is replaced when it expires within a day or no longer names
 * every host, which upstream leaves to the operator; nobody else's pair has that shape.
 * As client-go, the serving certificate is issued by a throw-away self-signed CA whose certificate
 * follows it in the .crt file (so the file works as a CA bundle for clients) and whose key is never
 * stored. Hosts always include localhost and 127.0.0.1.
 */
export async function ensureSelfSignedServing(
  certDir: string,
  opts: { hosts: string[]; baseName?: string; publicAddress?: string; now?: Date },
): Promise<CertKeyPair & { readonly generated: boolean; readonly outcome: SelfSignedOutcome }> {
  const now = opts.now ?? new Date();
  const files = pairFiles(certDir, opts.baseName ?? 'apiserver');
  const [cert, key] = [await readIfExists(files.certFile), await readIfExists(files.keyFile)];
  let outcome: SelfSignedOutcome = { made: 'generated' };
  if (cert !== undefined || key !== undefined) {
    // certutil.CanReadCertAndKey's text for half a pair.
    if (cert === undefined || key === undefined) {
      throw new PkiError(`error reading ${cert === undefined ? files.certFile : files.keyFile}, certificate and key must be supplied as a pair`);
    }
    const problem = servingPairProblem({ cert, key });
    if (problem) {
      throw new PkiError(`${files.certFile} and ${files.keyFile}: ${problem.reason} (a pair plat did not make is never replaced: fix both files or remove them)`);
    }
    const chain = certificatesOf(cert);
    const leaf = chain[0];
    const reason = leaf && selfSignedShape(chain) ? staleReason(leaf, splitHosts([...opts.hosts, 'localhost', '127.0.0.1']), now) : undefined;
    if (reason === undefined) {
      return { certificatePem: cert, privateKeyPem: key, ...files, generated: false, outcome: { made: 'kept', subject: leaf ? subjectText(leaf) : 'a certificate plat cannot read' } };
    }
    outcome = { made: 'renewed', reason };
  }

  const { certificatePem, privateKeyPem } = generateSelfSignedServing({ hosts: opts.hosts, now, ...(opts.publicAddress ? { publicAddress: opts.publicAddress } : {}) });
  await makeDir(certDir, 0o700);
  await writePair(files, certificatePem, privateKeyPem);
  return { certificatePem, privateKeyPem, ...files, generated: true, outcome };
}

/** The lines a component logs for ensureSelfSignedServing's pair: upstream's when it made one, what it serves otherwise. */
export function selfSignedServingLines(pair: CertKeyPair & { readonly outcome: SelfSignedOutcome }): string[] {
  const generated = `Generated self-signed cert (${pair.certFile}, ${pair.keyFile})`;
  switch (pair.outcome.made) {
    case 'generated': return [generated];
    case 'renewed': return [`Replacing plat's own self-signed serving pair: ${pair.outcome.reason}`, generated];
    case 'kept': return [`Using serving cert/key pair (${pair.certFile}, ${pair.keyFile}) for ${pair.outcome.subject}`];
  }
}

/** The certificates of a PEM text, up to the first that does not parse. */
function certificatesOf(pem: string): ParsedCertificate[] {
  const out: ParsedCertificate[] = [];
  for (const b of decodePemBlocks(pem)) {
    if (b.label !== 'CERTIFICATE') continue;
    // A later certificate that does not parse only makes the chain too short to be plat's shape.
    try { out.push(parseCertificateDer(b.der)); } catch { break; }
  }
  return out;
}

/**
 * Exactly what generateSelfSignedServing (and client-go's GenerateSelfSignedCertKey) writes: a leaf
 * `<host>@<unix time>` of serial 2 and, after it, its issuer `<host>-ca@<same time>`, a self-signed
 * CA of serial 1, with only a CN in either name. A pair of any other shape is not plat's to replace.
 */
export function selfSignedShape(chain: readonly ParsedCertificate[]): boolean {
  if (chain.length !== 2) return false;
  const [leaf, ca] = chain as [ParsedCertificate, ParsedCertificate];
  const m = /^(.+)@(\d+)$/.exec(leaf.commonName);
  if (!m || ca.commonName !== `${m[1]}-ca@${m[2]}`) return false;
  const onlyCn = (c: ParsedCertificate) => c.subject.length === 1 && c.subject[0]!.length === 1;
  return onlyCn(leaf) && onlyCn(ca) && leaf.serialNumber === '02' && ca.serialNumber === '01' && ca.isCA && !leaf.isCA
    && issuedBy(ca, ca) && issuedBy(leaf, ca);
}

/** Why plat's own pair no longer serves: expiring within a day, or missing a host. */
function staleReason(leaf: ParsedCertificate, hosts: { dnsNames: string[]; ipAddresses: string[] }, now: Date): string | undefined {
  if (!fresh(leaf, now)) return `${leaf.commonName} expires ${leaf.notAfter.toISOString()}`;
  if (!coversHosts(leaf, hosts)) return `${leaf.commonName} does not name every host of ${[...hosts.dnsNames, ...hosts.ipAddresses].join(', ')}`;
  return undefined;
}

const subjectText = (c: ParsedCertificate): string => (c.commonName ? `CN=${c.commonName}` : 'a certificate without a CN');

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

/**
 * A serverAuth certificate for `hosts` issued by `ca`, written to <dir>/<baseName>.crt/.key and reused
 * while it fits; reissued when plat's CA (by its name) issued it and it no longer fits. A pair of
 * another issuer is the operator's: served as it is. One that does not load is an error.
 */
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
    // A pair whose issuer is not named as plat's CA (this one or an earlier one of the same name)
    // is an operator's, served as it is, never replaced (upstream's CanReadCertAndKey).
    if (!sameBytes(leaf.rawIssuer, caCert.rawSubject)) return loaded.pair;
  } else if (loaded !== 'missing') {
    throw new PkiError(`${files.certFile} and ${files.keyFile}: ${loaded.invalid} (a pair plat did not make is never replaced: fix both files or remove them)`);
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
