// Signature algorithms: identifying them as Go does (including its narrow RSA-PSS profile), verifying
// with Go's exact failure messages, and signing for the builders. Backend: node:crypto, and
// @noble/post-quantum for ML-DSA (ml-dsa.ts).
import { sign as nodeSign, verify as nodeVerify, constants, type KeyObject } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { DerReader, TAG, decodeInt64 } from './der.js';
import { NULL, oid, seq } from './der-write.js';
import { CryptoError } from './errors.js';
import { mlDsaVerifyError } from './ml-dsa.js';
import { OID } from './oids.js';
import { rsaPublicKeyError } from './rsa-public-key-check.js';
import { publicKeyObject, readAlgorithmIdentifier, readSubjectPublicKeyInfo, type AlgorithmIdentifier, type PublicKeyInfo } from './public-key.js';

type Hash = 'md5' | 'sha1' | 'sha256' | 'sha384' | 'sha512';
/** Go's PublicKeyAlgorithm.String() of the key a signature algorithm needs. */
type KeyFamily = 'RSA' | 'ECDSA' | 'Ed25519' | 'DSA' | 'ML-DSA';

/** A signature algorithm Go knows, or `undefined` details for everything else. */
export interface SignatureAlgorithm {
  /** OpenSSL-style name ('sha256WithRSAEncryption', 'ecdsa-with-SHA256', 'Ed25519', 'ML-DSA-65', 'rsassa-pss'), else the dotted OID. */
  name: string;
  details?: { goName: string; hash: Hash | undefined; family: KeyFamily; pss: boolean };
}

const TABLE: Readonly<Record<string, { name: string; goName: string; hash: Hash | undefined; family: KeyFamily }>> = {
  '1.2.840.113549.1.1.2': { name: 'md2WithRSAEncryption', goName: 'MD2-RSA', hash: undefined, family: 'RSA' },
  [OID.md5WithRSA]: { name: 'md5WithRSAEncryption', goName: 'MD5-RSA', hash: 'md5', family: 'RSA' },
  [OID.sha1WithRSA]: { name: 'sha1WithRSAEncryption', goName: 'SHA1-RSA', hash: 'sha1', family: 'RSA' },
  '1.3.14.3.2.29': { name: 'sha1WithRSA', goName: 'SHA1-RSA', hash: 'sha1', family: 'RSA' },
  [OID.sha256WithRSA]: { name: 'sha256WithRSAEncryption', goName: 'SHA256-RSA', hash: 'sha256', family: 'RSA' },
  [OID.sha384WithRSA]: { name: 'sha384WithRSAEncryption', goName: 'SHA384-RSA', hash: 'sha384', family: 'RSA' },
  [OID.sha512WithRSA]: { name: 'sha512WithRSAEncryption', goName: 'SHA512-RSA', hash: 'sha512', family: 'RSA' },
  '1.2.840.10040.4.3': { name: 'dsaWithSHA1', goName: 'DSA-SHA1', hash: 'sha1', family: 'DSA' },
  '2.16.840.1.101.3.4.3.2': { name: 'dsa_with_SHA256', goName: 'DSA-SHA256', hash: 'sha256', family: 'DSA' },
  [OID.ecdsaWithSHA1]: { name: 'ecdsa-with-SHA1', goName: 'ECDSA-SHA1', hash: 'sha1', family: 'ECDSA' },
  [OID.ecdsaWithSHA256]: { name: 'ecdsa-with-SHA256', goName: 'ECDSA-SHA256', hash: 'sha256', family: 'ECDSA' },
  [OID.ecdsaWithSHA384]: { name: 'ecdsa-with-SHA384', goName: 'ECDSA-SHA384', hash: 'sha384', family: 'ECDSA' },
  [OID.ecdsaWithSHA512]: { name: 'ecdsa-with-SHA512', goName: 'ECDSA-SHA512', hash: 'sha512', family: 'ECDSA' },
  [OID.ed25519]: { name: 'Ed25519', goName: 'Ed25519', hash: undefined, family: 'Ed25519' },
  [OID.mlDsa44]: { name: 'ML-DSA-44', goName: 'ML-DSA-44', hash: undefined, family: 'ML-DSA' },
  [OID.mlDsa65]: { name: 'ML-DSA-65', goName: 'ML-DSA-65', hash: undefined, family: 'ML-DSA' },
  [OID.mlDsa87]: { name: 'ML-DSA-87', goName: 'ML-DSA-87', hash: undefined, family: 'ML-DSA' },
};

const OTHER_NAMES: Readonly<Record<string, string>> = { [OID.rsassaPss]: 'rsassa-pss', [OID.ed448]: 'Ed448' };

/** Go's getSignatureAlgorithmFromAI. */
export function identifySignatureAlgorithm(ai: AlgorithmIdentifier): SignatureAlgorithm {
  if (ai.oid === OID.rsassaPss) {
    const hash = pssHash(ai.params);
    const name = 'rsassa-pss';
    return hash === undefined ? { name } : { name, details: { goName: `${hash.toUpperCase()}-RSAPSS`, hash, family: 'RSA', pss: true } };
  }
  const known = TABLE[ai.oid];
  if (known === undefined) return { name: OTHER_NAMES[ai.oid] ?? ai.oid };
  // RFC 8410 §3 (Ed25519) and RFC 9881 §2 (ML-DSA): parameters MUST be absent; Go then treats the
  // algorithm as unknown.
  if ((known.family === 'Ed25519' || known.family === 'ML-DSA') && ai.params.length !== 0) return { name: known.name };
  return { name: known.name, details: { goName: known.goName, hash: known.hash, family: known.family, pss: false } };
}

const HASH_OIDS: Readonly<Record<string, 'sha256' | 'sha384' | 'sha512'>> = {
  [OID.sha256]: 'sha256',
  [OID.sha384]: 'sha384',
  [OID.sha512]: 'sha512',
};
const HASH_LEN = { sha256: 32, sha384: 48, sha512: 64 } as const;

/** The hash of a PSS profile Go accepts (MGF1 with the same hash, salt = hash length, trailer 1), else undefined. */
function pssHash(params: Uint8Array): 'sha256' | 'sha384' | 'sha512' | undefined {
  const nullOrAbsent = (p: Uint8Array): boolean => p.length === 0 || Buffer.from(p).equals(NULL);
  try {
    const outer = new DerReader(params);
    const body = outer.inner(outer.expect(TAG.SEQUENCE, 'pssParameters'));
    const field = (n: number): DerReader | undefined => {
      const t = body.optional(0xa0 | n);
      return t === undefined ? undefined : body.inner(t);
    };
    const hashR = field(0);
    const mgfR = field(1);
    const saltR = field(2);
    const trailerR = field(3);
    if (hashR === undefined || mgfR === undefined || saltR === undefined) return undefined;
    const hash = readAlgorithmIdentifier(hashR);
    const mgf = readAlgorithmIdentifier(mgfR);
    const salt = decodeInt64(saltR.content(saltR.expect(TAG.INTEGER, 'int')));
    const trailer = trailerR === undefined ? 1n : decodeInt64(trailerR.content(trailerR.expect(TAG.INTEGER, 'int')));
    const mgfHash = readAlgorithmIdentifier(new DerReader(mgf.params));
    const h = HASH_OIDS[hash.oid];
    if (
      h === undefined ||
      !nullOrAbsent(hash.params) ||
      mgf.oid !== OID.mgf1 ||
      mgfHash.oid !== hash.oid ||
      !nullOrAbsent(mgfHash.params) ||
      trailer !== 1n ||
      salt !== BigInt(HASH_LEN[h])
    ) {
      return undefined;
    }
    return h;
  } catch {
    return undefined;
  }
}

const UNIMPLEMENTED = 'x509: cannot verify signature: algorithm unimplemented';

const GO_KEY_TYPES: Partial<Record<PublicKeyInfo['algorithm'], { family: KeyFamily; goType: string }>> = {
  rsa: { family: 'RSA', goType: '*rsa.PublicKey' },
  ec: { family: 'ECDSA', goType: '*ecdsa.PublicKey' },
  ed25519: { family: 'Ed25519', goType: 'ed25519.PublicKey' },
  'ml-dsa': { family: 'ML-DSA', goType: '*mldsa.PublicKey' },
};

/** Go's checkSignature (allowSHA1 = true, as for CSRs). Throws CryptoError with Go's message. */
export function verifySignature(alg: SignatureAlgorithm, signed: Uint8Array, signature: Uint8Array, key: PublicKeyInfo): void {
  const d = alg.details;
  if (d === undefined || (d.hash === undefined && d.family !== 'Ed25519' && d.family !== 'ML-DSA')) throw new CryptoError(UNIMPLEMENTED);
  if (d.hash === 'md5') throw new CryptoError(`x509: cannot verify signature: insecure algorithm ${d.goName}`);
  const goKey = GO_KEY_TYPES[key.algorithm];
  if (goKey === undefined) throw new CryptoError(UNIMPLEMENTED);
  if (goKey.family !== d.family) {
    throw new CryptoError(`x509: signature algorithm specifies an ${d.family} public key, but have public key of type ${goKey.goType}`);
  }
  const data = Buffer.from(signed);
  const sig = Buffer.from(signature);
  switch (d.family) {
    case 'RSA': {
      const keyError = rsaPublicKeyError(key.spki, key.bits ?? 0);
      if (keyError !== undefined) throw new CryptoError(keyError);
      const padding = d.pss
        ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }
        : { padding: constants.RSA_PKCS1_PADDING };
      if (!tryVerify(d.hash ?? null, data, { key: publicKeyObject(key.spki), ...padding }, sig)) {
        throw new CryptoError('crypto/rsa: verification error');
      }
      return;
    }
    case 'ECDSA':
      if (!tryVerify(d.hash ?? null, data, { key: publicKeyObject(key.spki), dsaEncoding: 'der' }, sig)) {
        throw new CryptoError('x509: ECDSA verification failure');
      }
      return;
    case 'Ed25519':
      if (sig.length !== 64 || !tryVerify(null, data, { key: publicKeyObject(key.spki) }, sig)) {
        throw new CryptoError('x509: Ed25519 verification failure');
      }
      return;
    case 'ML-DSA': {
      const set = key.parameterSet!;
      if (set !== d.goName) {
        throw new CryptoError(
          `x509: signature algorithm specifies an ML-DSA public key with ${d.goName} parameters, but have a public key with ${set} parameters`,
        );
      }
      const error = mlDsaVerifyError(set, readSubjectPublicKeyInfo(new DerReader(key.spki)).key, signed, signature);
      if (error !== undefined) throw new CryptoError(`x509: ML-DSA verification failure: ${error}`);
      return;
    }
    default:
      throw new CryptoError(UNIMPLEMENTED);
  }
}

// node:crypto throws on malformed signatures (bad DER, wrong length); Go reports those as failures.
function tryVerify(hash: string | null, data: Buffer, key: Parameters<typeof nodeVerify>[2], sig: Buffer): boolean {
  try {
    return nodeVerify(hash, data, key, sig);
  } catch {
    return false;
  }
}

/** The algorithm Go would pick for a signing key: hash by curve for ECDSA, SHA-256 for RSA, pure Ed25519. */
function signingAlgorithm(privateKey: KeyObject): { hash: 'sha256' | 'sha384' | 'sha512' | null; oid: string; withNull: boolean } {
  if (privateKey.type !== 'private') throw new TypeError('signing needs a private key');
  switch (privateKey.asymmetricKeyType) {
    case 'ec': {
      const curve = privateKey.asymmetricKeyDetails?.namedCurve;
      if (curve === 'secp384r1') return { hash: 'sha384', oid: OID.ecdsaWithSHA384, withNull: false };
      if (curve === 'secp521r1') return { hash: 'sha512', oid: OID.ecdsaWithSHA512, withNull: false };
      return { hash: 'sha256', oid: OID.ecdsaWithSHA256, withNull: false };
    }
    case 'rsa':
      return { hash: 'sha256', oid: OID.sha256WithRSA, withNull: true };
    case 'ed25519':
      return { hash: null, oid: OID.ed25519, withNull: false };
    default:
      throw new CryptoError(`x509: unsupported signing key type ${String(privateKey.asymmetricKeyType)}`);
  }
}

/** The AlgorithmIdentifier DER that `signWithKey` will use (it goes inside the TBS too). */
export function signatureAlgorithmFor(privateKey: KeyObject): Uint8Array {
  const a = signingAlgorithm(privateKey);
  return a.withNull ? seq(oid(a.oid), NULL) : seq(oid(a.oid));
}

/** Signs `tbs` with the algorithm of `signatureAlgorithmFor(privateKey)`. Backend: node:crypto. */
export function signWithKey(privateKey: KeyObject, tbs: Uint8Array): Uint8Array {
  const a = signingAlgorithm(privateKey);
  const data = Buffer.from(tbs);
  const key =
    privateKey.asymmetricKeyType === 'ec'
      ? { key: privateKey, dsaEncoding: 'der' as const }
      : privateKey.asymmetricKeyType === 'rsa'
        ? { key: privateKey, padding: constants.RSA_PKCS1_PADDING }
        : privateKey;
  const sig = nodeSign(a.hash, data, key);
  return new Uint8Array(sig.buffer, sig.byteOffset, sig.byteLength);
}
