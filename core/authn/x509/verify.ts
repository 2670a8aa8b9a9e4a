// Client-certificate chain verification, mirroring Go's (*x509.Certificate).Verify with
// KeyUsages [ClientAuth], which is what the Kubernetes x509 authenticator calls. The TLS layer is
// configured with rejectUnauthorized:false, so this is the only place a client certificate is
// judged; every path that is not a complete, valid chain ends in an error (fail closed).
//
// Mirrored from Go: leaf checks come first and their errors are reported as is; chains are built
// depth-first, trust anchors before presented intermediates; the EKU is checked over the whole
// chain after building; at most 100 signature checks per verification. A leaf that is itself in
// the bundle is trusted as is. Error texts are Go's, so operators can search them.
import type { Certificate } from './certificate.js';
import { KEY_USAGE_CERT_SIGN, OID, displayName } from './certificate.js';
import { CryptoError } from '../../crypto/errors.js';
import { identifySignatureAlgorithm, verifySignature } from '../../crypto/signature.js';

export const MAX_SIGNATURE_CHECKS = 100;

const UNIMPLEMENTED = 'x509: cannot verify signature: algorithm unimplemented';

type CertType = 'leaf' | 'intermediate' | 'root';

/**
 * `from`..`until` (ms, inclusive): the times at which every validity comparison the verification
 * made comes out as it did at `now`, so that the whole verification, a pure function of the
 * certificates otherwise, would repeat itself step by step (verified-chains.ts relies on it).
 * `namesTime`: a validity comparison failed, and its text, which names `now`, may be the error.
 */
export type VerifyResult = { readonly from: number; readonly until: number } & (
  | { readonly ok: true; readonly chain: readonly Certificate[] }
  | { readonly ok: false; readonly error: string; readonly namesTime: boolean });

interface Search {
  readonly roots: readonly Certificate[];
  readonly intermediates: readonly Certificate[];
  readonly now: number;
  sigChecks: number;
  from: number;
  until: number;
  timeFailed: boolean;
}

export function verifyClientCertificate(
  leaf: Certificate,
  intermediates: readonly Certificate[],
  roots: readonly Certificate[],
  now: Date,
): VerifyResult {
  const search: Search = { roots, intermediates, now: now.getTime(), sigChecks: 0, from: -Infinity, until: Infinity, timeFailed: false };
  const failed = (error: string): VerifyResult => ({ ok: false, error, namesTime: search.timeFailed, from: search.from, until: search.until });
  const leafError = isValid(leaf, 'leaf', [], search);
  if (leafError) return failed(leafError);

  let candidates: Certificate[][];
  if (roots.some((r) => r.der.equals(leaf.der))) {
    candidates = [[leaf]];
  } else {
    const built = buildChains([leaf], search);
    if (built.error !== undefined) return failed(built.error);
    candidates = built.chains;
  }
  const chain = candidates.find(allowsClientAuth);
  if (!chain) return failed('x509: certificate specifies an incompatible key usage');
  return { ok: true, chain, from: search.from, until: search.until };
}

interface Built { chains: Certificate[][]; error: string | undefined }

/**
 * Go's buildChains, including its error bookkeeping: a bad signature only feeds the hint, while a
 * failed validity check of a candidate (or of a deeper level) becomes the error reported when no
 * chain is found; any complete chain clears the error.
 */
function buildChains(current: readonly Certificate[], search: Search): Built {
  const child = current[current.length - 1]!;
  const chains: Certificate[][] = [];
  let error: string | undefined;
  let hint: { error: string; cert: Certificate } | undefined;

  const consider = (candidate: Certificate, type: 'root' | 'intermediate'): void => {
    if (alreadyInChain(candidate, current)) return;
    if (++search.sigChecks > MAX_SIGNATURE_CHECKS) {
      error = 'x509: signature check attempts limit reached while verifying certificate chain';
      return;
    }
    const sigError = checkSignatureFrom(child, candidate);
    if (sigError) {
      hint ??= { error: sigError, cert: candidate };
      return;
    }
    error = isValid(candidate, type, current, search);
    if (error) {
      hint ??= { error, cert: candidate };
      return;
    }
    if (type === 'root') {
      chains.push([...current, candidate]);
    } else {
      const sub = buildChains([...current, candidate], search);
      chains.push(...sub.chains);
      error = sub.error;
    }
  };

  for (const root of potentialParents(child, search.roots)) consider(root, 'root');
  for (const intermediate of potentialParents(child, search.intermediates)) consider(intermediate, 'intermediate');

  if (chains.length > 0) error = undefined;
  else error ??= unknownAuthority(hint);
  return { chains, error };
}

/**
 * Go's findPotentialParents: subjects equal (byte for byte) to the child's issuer, matching key
 * identifiers first, then those where only one side has one, then mismatches.
 */
function potentialParents(child: Certificate, pool: readonly Certificate[]): Certificate[] {
  const rank = (c: Certificate): number => {
    if (c.subjectKeyId.equals(child.authorityKeyId)) return 0;
    if ((c.subjectKeyId.length === 0) !== (child.authorityKeyId.length === 0)) return 1;
    return 2;
  };
  return pool
    .filter((c) => c.rawSubject.equals(child.rawIssuer))
    .map((c, i) => ({ c, i, r: rank(c) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map(({ c }) => c);
}

function unknownAuthority(hint: { error: string; cert: Certificate } | undefined): string {
  const base = 'x509: certificate signed by unknown authority';
  if (!hint) return base;
  return `${base} (possibly because of ${JSON.stringify(hint.error)} while trying to verify candidate authority certificate ${JSON.stringify(displayName(hint.cert))})`;
}

/** Go's isValid: the checks on one certificate given the chain below it. */
function isValid(c: Certificate, type: CertType, below: readonly Certificate[], search: Search): string | undefined {
  if (c.unhandledCritical.length > 0) return 'x509: unhandled critical extension';
  if (c.unsupported.length > 0) return `x509: certificate uses extensions plat does not enforce (${c.unsupported.join(', ')})`;
  // Each comparison narrows the times that would compare alike; `now` is whole milliseconds.
  if (search.now < c.notBefore) {
    search.until = Math.min(search.until, c.notBefore - 1);
    search.timeFailed = true;
    return expired('before', search.now, c.notBefore);
  }
  search.from = Math.max(search.from, c.notBefore);
  if (search.now > c.notAfter) {
    search.from = Math.max(search.from, c.notAfter + 1);
    search.timeFailed = true;
    return expired('after', search.now, c.notAfter);
  }
  search.until = Math.min(search.until, c.notAfter);
  if (type === 'intermediate' && !c.basicConstraints?.isCA) return 'x509: certificate is not authorized to sign other certificates';
  const maxPathLen = c.basicConstraints?.maxPathLen;
  if (type !== 'leaf' && maxPathLen !== undefined && below.length - 1 > maxPathLen) {
    return 'x509: too many intermediates for path length constraint';
  }
  return undefined;
}

function expired(relation: 'before' | 'after', now: number, bound: number): string {
  return `x509: certificate has expired or is not yet valid: current time ${rfc3339(now)} is ${relation} ${rfc3339(bound)}`;
}

/** Go's time.RFC3339 in UTC: no fractional seconds. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Go's CheckSignatureFrom: the parent must be allowed to sign, and its signature must verify. */
function checkSignatureFrom(child: Certificate, parent: Certificate): string | undefined {
  const bc = parent.basicConstraints;
  if ((parent.version === 3 && !bc) || (bc && !bc.isCA) || (parent.keyUsage !== 0 && (parent.keyUsage & KEY_USAGE_CERT_SIGN) === 0)) {
    return 'x509: invalid signature: parent certificate cannot sign this kind of certificate';
  }
  if (parent.publicKey.algorithm === 'unknown') return UNIMPLEMENTED;
  // Issuer/subject names were matched byte for byte by potentialParents; X509Certificate's
  // checkIssued is not used because it adds an authority-key-id rule Go does not have.
  return signatureError(child, parent);
}

/**
 * Go's checkSignature with allowSHA1 = false, as certificates get it (core/crypto's verifier, which
 * is Go's for CSRs, allows SHA-1). X509Certificate.verify is not used: OpenSSL verifies with RSA
 * keys Go refuses (e = 1, where the padded digest is itself a valid signature, an even modulus,
 * keys under 1024 bits) and RSA-PSS with any parameters (SHA-1 among them). The answer is a pure
 * function of the two certificates, and returning clients bring the same parsed objects
 * (certificate-cache.ts), so each pair is checked once per process.
 */
const signatureChecks = new WeakMap<Certificate, WeakMap<Certificate, string | undefined>>();
function signatureError(child: Certificate, parent: Certificate): string | undefined {
  let byParent = signatureChecks.get(child);
  if (byParent?.has(parent)) return byParent.get(parent);
  const algorithm = identifySignatureAlgorithm(child.signatureAlgorithmIdentifier);
  let error: string | undefined;
  if (algorithm.details?.hash === 'sha1') {
    error = `x509: cannot verify signature: insecure algorithm ${algorithm.details.goName}`;
  } else {
    try {
      verifySignature(algorithm, child.rawTbs, child.signature, parent.publicKey);
    } catch (err) {
      if (!(err instanceof CryptoError)) throw err;
      error = err.message;
    }
  }
  if (!byParent) signatureChecks.set(child, (byParent = new WeakMap()));
  byParent.set(parent, error);
  return error;
}

/** Go's alreadyInChain: same subject, same key and same SANs is the same authority (loop guard). */
function alreadyInChain(candidate: Certificate, chain: readonly Certificate[]): boolean {
  return chain.some((c) =>
    c.rawSubject.equals(candidate.rawSubject) &&
    c.rawSpki.equals(candidate.rawSpki) &&
    (c.subjectAltName === undefined
      ? candidate.subjectAltName === undefined
      : candidate.subjectAltName !== undefined && c.subjectAltName.equals(candidate.subjectAltName)));
}

/**
 * Go's checkChainForKeyUsage for [ClientAuth]: every certificate that restricts its extended key
 * usages must allow clientAuth or any usage; one without the extension allows everything.
 */
function allowsClientAuth(chain: readonly Certificate[]): boolean {
  return chain.every((c) =>
    c.extKeyUsage.length === 0 || c.extKeyUsage.includes(OID.ekuAny) || c.extKeyUsage.includes(OID.ekuClientAuth));
}
