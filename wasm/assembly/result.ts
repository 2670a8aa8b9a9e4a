// The result area of the parse exports: u32 words in the arena, read by core/crypto/wasm/parse.ts.
// Words 0..7: status (0 ok, else an error code below) and up to 7 error arguments; words 8..30: a
// header the export fills in; word 31: the word index just past the last record; from word 32 on:
// records [kind, fields...] in the order the parser met them. Strings are never built here: records
// carry byte ranges and JS decodes only what it keeps.
// The error codes index the message table in parse.ts; change both together.

// asn1 syntax / structure errors (Go's encoding/asn1 texts)
export const E_DATA_TRUNCATED: u32 = 1;
export const E_B128_TOO_LARGE: u32 = 2;
export const E_B128_TRUNCATED: u32 = 3;
export const E_B128_NOT_MINIMAL: u32 = 4;
export const E_NON_MINIMAL_TAG: u32 = 5;
export const E_TRUNCATED_TAG_OR_LENGTH: u32 = 6;
export const E_INDEFINITE_LENGTH: u32 = 7;
export const E_LENGTH_TOO_LARGE: u32 = 8;
export const E_LENGTH_LEADING_ZEROS: u32 = 9;
export const E_NON_MINIMAL_LENGTH: u32 = 10;
export const E_SEQUENCE_TRUNCATED: u32 = 11;
export const E_TAG_MISMATCH: u32 = 12; // args: expected, class, tag, length, compound, type-name id, offset
export const E_TRAILING_IN: u32 = 13; // arg: structure-name id
export const E_TRAILING: u32 = 14;
export const E_EMPTY_INTEGER: u32 = 15;
export const E_INTEGER_NOT_MINIMAL: u32 = 16;
export const E_INTEGER_TOO_LARGE: u32 = 17;
export const E_ZERO_OID: u32 = 18;
export const E_BIT_STRING_PADDING: u32 = 19;
export const E_ZERO_BIT_STRING: u32 = 20;
export const E_BOOLEAN: u32 = 21;
export const E_TIME: u32 = 22;
export const E_SEQUENCE_TAG_MISMATCH: u32 = 23;
export const E_PRINTABLE: u32 = 24;
export const E_IA5: u32 = 25;
export const E_NUMERIC: u32 = 26;
export const E_UTF8: u32 = 27;
export const E_BMP_ODD: u32 = 28;
export const E_ASN1_TIME: u32 = 29; // args: tag (UTCTime / GeneralizedTime), content addr, content len; JS words Go's text
// PKCS#10 / public keys / SANs (Go's crypto/x509 texts)
export const E_NOT_CSR_PEM: u32 = 30;
export const E_RSA_NULL: u32 = 31;
export const E_EC_POINT: u32 = 32;
export const E_EC_PARAMS: u32 = 33;
export const E_EC_CURVE: u32 = 34;
export const E_ED25519_PARAMS: u32 = 35;
export const E_ED25519_SIZE: u32 = 36;
export const E_RSA_INVALID: u32 = 37;
export const E_RSA_MODULUS: u32 = 38;
export const E_RSA_EXPONENT: u32 = 39;
export const E_RSA_TRAILING: u32 = 40;
export const E_RSA_MODULUS_SIGN: u32 = 41;
export const E_RSA_EXPONENT_SIGN: u32 = 42;
export const E_DUPLICATE_REQUESTED_EXT: u32 = 43;
export const E_SANS: u32 = 44;
export const E_SAN: u32 = 45;
export const E_SAN_RFC822: u32 = 46;
export const E_SAN_DNS: u32 = 47;
export const E_SAN_URI: u32 = 48;
export const E_SAN_IP_LENGTH: u32 = 49; // arg: length
// certificates
export const E_MALFORMED_CERTIFICATE: u32 = 50;
export const E_CERT_TRAILING: u32 = 51;
export const E_MALFORMED_TBS: u32 = 52;
export const E_MALFORMED_VERSION: u32 = 53;
export const E_INVALID_VERSION: u32 = 54;
export const E_MALFORMED_SERIAL: u32 = 55;
export const E_NEGATIVE_SERIAL: u32 = 56;
export const E_MALFORMED_SIG_ALG_ID: u32 = 57;
export const E_MALFORMED_ALG_ID: u32 = 58;
export const E_ALG_MISMATCH: u32 = 59;
export const E_MALFORMED_ISSUER: u32 = 60;
export const E_INVALID_RDN: u32 = 61;
export const E_MALFORMED_VALIDITY: u32 = 62;
export const E_MALFORMED_SUBJECT: u32 = 63;
export const E_MALFORMED_SPKI: u32 = 64;
export const E_MALFORMED_ISSUER_UID: u32 = 65;
export const E_MALFORMED_SUBJECT_UID: u32 = 66;
export const E_MALFORMED_EXTENSIONS: u32 = 67;
export const E_MALFORMED_EXTENSION: u32 = 68;
export const E_DUPLICATE_EXT: u32 = 69;
export const E_MALFORMED_SIGNATURE: u32 = 70;
export const E_BASIC_CONSTRAINTS: u32 = 71;
export const E_KEY_USAGE: u32 = 72;
export const E_EXT_KEY_USAGE: u32 = 73;
export const E_SKI: u32 = 74;
export const E_AKI: u32 = 75;
// uniformResourceIdentifier SANs that Go's url.Parse rejects (go-url.ts)
export const E_SAN_URI_PARSE: u32 = 76; // args: URI addr, URI len, URL_* reason, piece offset, piece len, length of the URL the url.Error names
export const E_SAN_URI_DOMAIN: u32 = 77; // args: URI addr, URI len
// ML-DSA keys (Go 1.27's parsePublicKey; the second is crypto/mldsa's own text)
export const E_MLDSA_PARAMS: u32 = 78;
export const E_MLDSA_SIZE: u32 = 79;
// status.certificate rules
export const E_PEM_LABEL: u32 = 80; // args: label address, label length
export const E_PEM_HEADERS: u32 = 81;
export const E_PEM_ZERO_CERTS: u32 = 82;
export const E_PEM_NO_BLOCK: u32 = 83;
// Names inside certificates (Go's x509 parseName; E_INVALID_RDN is its outer text)
export const E_RDN_ATTRIBUTE: u32 = 84;
export const E_RDN_ATTRIBUTE_TYPE: u32 = 85;
export const E_RDN_ATTRIBUTE_VALUE: u32 = 86;
export const E_RDN_STRING: u32 = 87; // arg: the string's tag (which parseASN1String text)
export const E_RDN_UNSUPPORTED: u32 = 88; // arg: the value's identifier octet
// Certificates as Go 1.23's parseCertificate reads them (cryptobyte's x509 texts)
export const E_UNSUPPORTED_TIME: u32 = 91;
export const E_MALFORMED_UTCTIME: u32 = 92;
export const E_MALFORMED_GENERALIZEDTIME: u32 = 93;
export const E_EXT_OID: u32 = 94;
export const E_EXT_CRITICAL: u32 = 95;
export const E_EXT_VALUE: u32 = 96;
export const E_DSA_KEY: u32 = 97;
export const E_DSA_PARAMS: u32 = 98;
export const E_DSA_SIGN: u32 = 99;
export const E_CRL_DPS: u32 = 100;
export const E_CRL_DP: u32 = 101;
export const E_POLICIES: u32 = 102;
export const E_AIA: u32 = 103;
export const E_NC_INVALID: u32 = 104;
export const E_NC_EMPTY: u32 = 105;
export const E_NC_VALUE: u32 = 107;
export const E_SPKI_ALGORITHM: u32 = 108;
export const E_MALFORMED_OID: u32 = 109;
export const E_MALFORMED_PARAMETERS: u32 = 110;
export const E_SPKI_KEY: u32 = 111; // args: which text (name-constraints.ts NC_*), value addr, value len
// the result area ran out (cannot happen with the sizing in begin(); reported, never aborted)
export const E_RESULT_FULL: u32 = 90;

// Record kinds.
export const R_RDN: u32 = 1; // []
export const R_ATV: u32 = 2; // [type addr, type len, value element addr, value content addr, value end, string tag or 0]
export const R_EXT: u32 = 3; // [oid addr, oid len, critical, value addr, value len]
export const R_SAN: u32 = 4; // [GeneralName tag, addr, len]
export const R_EC_POINT: u32 = 5; // [spki addr, spki len, curve index]: JS checks the point is on the curve
export const R_CERT: u32 = 6; // [addr, len]

export const HEADER_WORDS: usize = 32;

let base: usize = 0;
let pos: usize = 0;
let cap: usize = 0;

/** Starts a result area with room for `records` words of records; returns its address. */
export function begin(records: usize): usize {
  const words = HEADER_WORDS + records;
  base = heap.alloc(words << 2);
  memory.fill(base, 0, HEADER_WORDS << 2);
  pos = HEADER_WORDS;
  cap = words;
  store<u32>(base, <u32>pos, (HEADER_WORDS - 1) << 2);
  return base;
}

export function status(): u32 {
  return load<u32>(base);
}

/** Records the error (replacing an earlier one: that is how Go's wrapped errors are mirrored) and returns false. */
export function fail(code: u32): bool {
  store<u32>(base, code);
  return false;
}

export function failArgs(code: u32, a0: u32, a1: u32 = 0, a2: u32 = 0, a3: u32 = 0, a4: u32 = 0, a5: u32 = 0, a6: u32 = 0): bool {
  store<u32>(base, code);
  store<u32>(base, a0, 4);
  store<u32>(base, a1, 8);
  store<u32>(base, a2, 12);
  store<u32>(base, a3, 16);
  store<u32>(base, a4, 20);
  store<u32>(base, a5, 24);
  store<u32>(base, a6, 28);
  return false;
}

/** Forgets an error (for the places where Go skips what does not parse). */
export function clearError(): void {
  store<u32>(base, 0);
}

export function setHeader(word: usize, v: u32): void {
  store<u32>(base + (word << 2), v);
}

export function header(word: usize): u32 {
  return load<u32>(base + (word << 2));
}

/** Appends a record with its first `n` of the fields a..f; false (E_RESULT_FULL) when the area is full. */
export function record(kind: u32, n: usize, a: u32 = 0, b: u32 = 0, c: u32 = 0, d: u32 = 0, e: u32 = 0, f: u32 = 0): bool {
  if (pos + 1 + n > cap) return fail(E_RESULT_FULL);
  const p = base + (pos << 2);
  store<u32>(p, kind);
  if (n > 0) store<u32>(p, a, 4);
  if (n > 1) store<u32>(p, b, 8);
  if (n > 2) store<u32>(p, c, 12);
  if (n > 3) store<u32>(p, d, 16);
  if (n > 4) store<u32>(p, e, 20);
  if (n > 5) store<u32>(p, f, 24);
  pos += 1 + n;
  store<u32>(base, <u32>pos, (HEADER_WORDS - 1) << 2);
  return true;
}

/** Word index just past the last record (JS reads records up to here). */
export function end(): u32 {
  return <u32>pos;
}
