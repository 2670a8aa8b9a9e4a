// Compact JWS (RFC 7515) as service-account and OIDC tokens use it: decode, check the signature
// with node:crypto, sign. Only the algorithms of RFC 7518 §3.1 that Kubernetes accepts exist here,
// so `alg: none` and HMAC algorithms are refused by construction, and a key only verifies with the
// algorithm family of its own type (an RSA public key is never tried as an HMAC secret).
import { createHash, sign as nodeSign, verify as nodeVerify, constants, createPublicKey, type KeyObject, type JsonWebKey } from 'node:crypto';
import { rsaPublicKeyError } from '../crypto/rsa-public-key-check.js';

export const JOSE_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'] as const;
export type JoseAlgorithm = (typeof JOSE_ALGORITHMS)[number];

/** Upper bound on a token we are willing to decode; larger ones are not JWTs we issued or trust. */
export const MAX_JWT_BYTES = 64 * 1024;

export class JwtError extends Error {
  override readonly name = 'JwtError';
}

export interface DecodedJwt {
  readonly header: Readonly<Record<string, unknown>>;
  readonly payload: Readonly<Record<string, unknown>>;
  /** `base64url(header) "." base64url(payload)`: the bytes the signature covers. */
  readonly signingInput: Buffer;
  readonly signature: Buffer;
}

const B64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Go's base64.RawURLEncoding.DecodeString: CR and LF anywhere are skipped, padding is an illegal
 * character, unused trailing bits are ignored (the encoding is not Strict).
 */
function goRawUrlDecode(part: string, what: string): Buffer {
  const text = part.replace(/[\r\n]/g, '');
  if (!B64URL.test(text) || text.length % 4 === 1) throw new JwtError(`malformed JWT: ${what} is not base64url`);
  return Buffer.from(text, 'base64url');
}

/** Go's unicode.IsSpace, which go-jose's stripWhitespace removes (JS's \s differs: U+FEFF, U+0085). */
const GO_SPACE = /[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]/g;

/** go-jose v2's base64URLDecode: trailing '=' padding is stripped first, so a padded part decodes. */
function joseDecode(part: string, what: string): Buffer {
  return goRawUrlDecode(part.replace(/=+$/, ''), what);
}

function jsonObject(bytes: Buffer, what: string): Record<string, unknown> {
  let v: unknown;
  try { v = JSON.parse(bytes.toString('utf8')); } catch { throw new JwtError(`malformed JWT: ${what} is not JSON`); }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new JwtError(`malformed JWT: ${what} is not a JSON object`);
  return v as Record<string, unknown>;
}

/**
 * Splits and decodes a compact JWS as go-jose v2's ParseSigned does (Kubernetes 1.32 verifies both
 * service-account and OIDC tokens with it): whitespace anywhere is dropped and each part may carry
 * '=' padding. The signed bytes are the parts re-encoded unpadded (go-jose's computeAuthData), not
 * the token's own text. The payload is further held to the unpadded form by the issuer routing
 * (peekPayload), which both upstream authenticators run first.
 */
export function decodeJwt(token: string): DecodedJwt {
  if (token.length > MAX_JWT_BYTES) throw new JwtError(`malformed JWT: longer than ${MAX_JWT_BYTES} bytes`);
  const parts = token.replace(GO_SPACE, '').split('.');
  if (parts.length !== 3) throw new JwtError('malformed JWT: expected three dot-separated parts');
  const [h, p, s] = parts as [string, string, string];
  const headerBytes = joseDecode(h, 'header');
  const payloadBytes = joseDecode(p, 'payload');
  const header = jsonObject(headerBytes, 'header');
  const payload = jsonObject(payloadBytes, 'payload');
  const signingInput = Buffer.from(`${headerBytes.toString('base64url')}.${payloadBytes.toString('base64url')}`, 'ascii');
  return { header, payload, signingInput, signature: joseDecode(s, 'signature') };
}

/**
 * The `iss` claim of something shaped like a JWT, read without verifying anything: used only to
 * route a token to the one authenticator that owns its issuer. Never throws.
 */
export function peekIssuer(token: string): string | undefined {
  const payload = peekPayload(token);
  return typeof payload?.['iss'] === 'string' ? payload['iss'] : undefined;
}

/**
 * The payload of something shaped like a JWT, unverified, for routing only. Never throws. Decoded
 * as upstream's hasCorrectIssuer and untrustedIssuer do (base64.RawURLEncoding on the raw token's
 * second part): no whitespace stripping and no padding, so a padded payload is no one's token.
 */
export function peekPayload(token: string): DecodedJwt['payload'] | undefined {
  if (token.length > MAX_JWT_BYTES) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    return jsonObject(goRawUrlDecode(parts[1]!, 'payload'), 'payload');
  } catch {
    return undefined;
  }
}

export function isJoseAlgorithm(alg: unknown): alg is JoseAlgorithm {
  return typeof alg === 'string' && (JOSE_ALGORITHMS as readonly string[]).includes(alg);
}

const HASH: Record<string, string> = { '256': 'sha256', '384': 'sha384', '512': 'sha512' };
const CURVE_OF_ES: Record<string, string> = { ES256: 'prime256v1', ES384: 'secp384r1', ES512: 'secp521r1' };
const ES_OF_CURVE: Record<string, JoseAlgorithm> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

/** Whether `key` (public or private) can be used with `alg` at all. */
export function keyFitsAlgorithm(key: KeyObject, alg: JoseAlgorithm): boolean {
  const type = key.asymmetricKeyType;
  if (alg.startsWith('RS')) return type === 'rsa';
  if (alg.startsWith('PS')) return type === 'rsa' || type === 'rsa-pss';
  return type === 'ec' && key.asymmetricKeyDetails?.namedCurve === CURVE_OF_ES[alg];
}

function signOptions(key: KeyObject, alg: JoseAlgorithm): Parameters<typeof nodeVerify>[2] {
  if (alg.startsWith('ES')) return { key, dsaEncoding: 'ieee-p1363' };
  if (alg.startsWith('PS')) return { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(alg.slice(2)) / 8 };
  return { key, padding: constants.RSA_PKCS1_PADDING };
}

/**
 * Whether the header names critical extensions (RFC 7515 §4.1.11). go-jose v2, which verifies both
 * service-account and OIDC tokens upstream, understands none, so it fails any signature check of
 * such a token (a `crit` that is not a list of strings too); `null` and `[]` name nothing.
 */
export function hasCriticalHeader(header: DecodedJwt['header']): boolean {
  const crit = header['crit'];
  return crit !== undefined && crit !== null && !(Array.isArray(crit) && crit.length === 0);
}

/**
 * Whether Go's crypto/rsa verifies with this key at all (Go 1.24: at least 1024 bits, then
 * checkPublicKey). OpenSSL checks none of it, and with e = 1 the padded digest is itself a valid
 * signature: anyone could write tokens for a key set that lists such a key.
 */
function goRsaKeyUsable(key: KeyObject): boolean {
  // Per key, not per token: exporting the key costs several times the verification itself, and the
  // keys (key files, a JWKS's parsed keys) live as long as the authenticator.
  let usable = rsaKeyUsable.get(key);
  if (usable === undefined) {
    const spki = (key.type === 'private' ? createPublicKey(key) : key).export({ type: 'spki', format: 'der' });
    usable = rsaPublicKeyError(new Uint8Array(spki), key.asymmetricKeyDetails?.modulusLength ?? 0) === undefined;
    rsaKeyUsable.set(key, usable);
  }
  return usable;
}
const rsaKeyUsable = new WeakMap<KeyObject, boolean>();

/** The signature check alone: true when `key` verifies the token's signature under `alg`. */
export function verifySignature(jwt: DecodedJwt, key: KeyObject, alg: JoseAlgorithm): boolean {
  if (!keyFitsAlgorithm(key, alg) || hasCriticalHeader(jwt.header)) return false;
  if (!alg.startsWith('ES') && !goRsaKeyUsable(key)) return false;
  // go-jose verifies PS* with rsa.VerifyPSS(..., nil): any salt length (PSSSaltLengthAuto).
  const options = alg.startsWith('PS') ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO } : signOptions(key, alg);
  try {
    return nodeVerify(HASH[alg.slice(2)]!, jwt.signingInput, options, jwt.signature);
  } catch {
    return false;
  }
}

/** The algorithm a signing key implies: RS256 for RSA, ES256/384/512 by curve. */
export function algorithmForKey(key: KeyObject): JoseAlgorithm {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const alg = ES_OF_CURVE[key.asymmetricKeyDetails?.namedCurve ?? ''];
    if (alg) return alg;
  }
  throw new JwtError(`unsupported signing key: ${key.asymmetricKeyType ?? 'unknown'} ${key.asymmetricKeyDetails?.namedCurve ?? ''}`.trim());
}

/** Signs `payload` as a compact JWS. The header gets `alg` (and `kid` when given). */
export function signJwt(payload: Record<string, unknown>, key: KeyObject, opts: { alg?: JoseAlgorithm; kid?: string; header?: Record<string, unknown> } = {}): string {
  const alg = opts.alg ?? algorithmForKey(key);
  if (!keyFitsAlgorithm(key, alg)) throw new JwtError(`key does not fit algorithm ${alg}`);
  const header = { ...opts.header, alg, ...(opts.kid !== undefined ? { kid: opts.kid } : {}) };
  const input = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  const sig = nodeSign(HASH[alg.slice(2)]!, Buffer.from(input, 'ascii'), signOptions(key, alg) as Parameters<typeof nodeSign>[2]);
  return `${input}.${sig.toString('base64url')}`;
}

/** Kubernetes' key id: unpadded base64url of SHA-256 over the PKIX (SubjectPublicKeyInfo) DER. */
export function keyId(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256').update(pub.export({ type: 'spki', format: 'der' })).digest('base64url');
}

/** The public JWK of a key as a JWKS document lists it: `use: sig`, with `kid` and `alg`. */
export function publicJwk(key: KeyObject, opts: { kid?: string; alg?: JoseAlgorithm } = {}): JsonWebKey {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  const jwk = pub.export({ format: 'jwk' });
  return { use: 'sig', kid: opts.kid ?? keyId(pub), alg: opts.alg ?? algorithmForKey(pub), ...jwk } as JsonWebKey;
}

/** A public key from one JWKS entry; throws JwtError for anything but an RSA or EC public key. */
export function importJwk(jwk: unknown): KeyObject {
  if (typeof jwk !== 'object' || jwk === null) throw new JwtError('JWK is not an object');
  const k = jwk as JsonWebKey;
  if (k.kty !== 'RSA' && k.kty !== 'EC') throw new JwtError(`unsupported JWK key type ${JSON.stringify(k.kty)}`);
  if (k['d'] !== undefined) throw new JwtError('JWK carries a private key');
  try {
    return createPublicKey({ key: k, format: 'jwk' });
  } catch (err) {
    throw new JwtError(`invalid JWK: ${(err as Error).message}`);
  }
}

/** A NumericDate claim (RFC 7519 §2) in milliseconds, or undefined when absent; throws when not a number. */
export function numericDateMs(payload: DecodedJwt['payload'], claim: string): number | undefined {
  const v = payload[claim];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new JwtError(`claim ${claim} is not a NumericDate`);
  return v * 1000;
}

/** The `aud` claim as a list: a single string is one audience (RFC 7519 §4.1.3). */
export function audiences(payload: DecodedJwt['payload']): string[] {
  const aud = payload['aud'];
  if (aud === undefined) return [];
  if (typeof aud === 'string') return [aud];
  if (Array.isArray(aud) && aud.every((a) => typeof a === 'string')) return aud as string[];
  throw new JwtError('claim aud is neither a string nor an array of strings');
}
