// The TypeScript side of the WASM parsers (wasm/assembly/csr.ts, certificate-pem.ts, pem.ts): copy
// the input in, call, and turn the result area (wasm/assembly/result.ts) into the same ParsedCsr and
// validateCertificatePem shapes, with the same error texts, as the TypeScript parsers in core/crypto.
// WASM does every check; JS only builds the strings it returns from byte ranges, and checks EC points
// lie on their curve (node:crypto), which the module asks for with R_EC_POINT records.
import { Buffer } from 'node:buffer';
import type { CertificatePemValidation } from '../certificate-pem.js';
import type { ParsedCsr } from '../csr.js';
import { CryptoError } from '../errors.js';
import { RDN, RDN_ATTRIBUTE, RDN_ATTRIBUTE_TYPE, RDN_ATTRIBUTE_VALUE, x509StringError, x509UnsupportedString } from '../certificate-names.js';
import { formatIp } from '../general-names.js';
import { goAsn1TimeError } from '../go-asn1-time.js';
import { goBytesString } from '../go-bytes-string.js';
import { NC_EMPTY, NC_INVALID, nameConstraintError } from '../name-constraints.js';
import { wellFormed, type DistinguishedNameAttribute } from '../names.js';
import { DN_COMMON_NAME, DN_ORGANIZATION, DN_SHORT_NAMES } from '../oids.js';
import { publicKeyObject, type PublicKeyInfo } from '../public-key.js';
import { identifySignatureAlgorithm } from '../signature.js';
import { uriDomainError, uriParseError } from './go-url.js';
import { wasm, type CryptoExports } from './instance.js';

/** A byte range in the CSR's DER. */
export interface ByteRange {
  offset: number;
  length: number;
}

export interface CsrRanges {
  /** The CertificationRequestInfo element: the signed bytes. */
  certificationRequestInfo: ByteRange;
  subjectPublicKeyInfo: ByteRange;
  /** The signature BIT STRING content after its unused-bits octet. */
  signature: ByteRange;
  signatureUnusedBits: number;
  /** The subject Name element, byte-exact. */
  subject: ByteRange;
}

export type WasmParsedCsr = ParsedCsr & { ranges: CsrRanges };

interface ParseExports extends CryptoExports {
  parseCsrPem(ptr: number, len: number): number;
  parseCsrDer(ptr: number, len: number): number;
  validateCertificatePem(ptr: number, len: number): number;
  pemDecode(ptr: number, len: number): number;
  pemEncode(label: number, labelLen: number, der: number, derLen: number, out: number): number;
  pemEncodedLength(labelLen: number, derLen: number): number;
}

// Inputs beyond this would not fit the module's memory with the result area (about 6 bytes of arena
// per input byte); Kubernetes' request size limit (3 MiB) keeps real CSRs far below it.
const MAX_INPUT = 8 << 20;

// Word layout of the result area: see wasm/assembly/result.ts.
const HEADER_WORDS = 32;
const R_RDN = 1;
const R_ATV = 2;
const R_EXT = 3;
const R_SAN = 4;
const R_EC_POINT = 5;
const R_CERT = 6;
const RECORD_FIELDS: Readonly<Record<number, number>> = { [R_RDN]: 0, [R_ATV]: 6, [R_EXT]: 5, [R_SAN]: 3, [R_EC_POINT]: 3, [R_CERT]: 2 };

const GO_DEFAULT_PARAMS =
  '{optional:false explicit:false application:false private:false defaultValue:<nil> tag:<nil> stringType:0 timeType:0 set:false omitEmpty:false}';
// Type and structure names by id (wasm/assembly/der.ts N_*).
const NAMES = ['', 'certificateRequest', 'tbsCertificateRequest', 'int', 'publicKeyInfo', 'AlgorithmIdentifier', 'ObjectIdentifier',
  'BitString', '[]asn1.RawValue', 'RDNSequence', 'SubjectPublicKeyInfo', 'AttributeTypeAndValue', 'Extension', '?'];

/** Error texts by code (wasm/assembly/result.ts E_*); the same texts the TypeScript parsers throw. */
export const MESSAGES: Readonly<Record<number, string>> = {
  1: 'asn1: syntax error: data truncated',
  2: 'asn1: structure error: base 128 integer too large',
  3: 'asn1: syntax error: truncated base 128 integer',
  4: 'asn1: syntax error: integer is not minimally encoded',
  5: 'asn1: syntax error: non-minimal tag',
  6: 'asn1: syntax error: truncated tag or length',
  7: 'asn1: syntax error: indefinite length found (not DER)',
  8: 'asn1: structure error: length too large',
  9: 'asn1: structure error: superfluous leading zeros in length',
  10: 'asn1: structure error: non-minimal length',
  11: 'asn1: syntax error: sequence truncated',
  14: 'asn1: syntax error: trailing data',
  15: 'asn1: structure error: empty integer',
  16: 'asn1: structure error: integer not minimally-encoded',
  17: 'asn1: structure error: integer too large',
  18: 'asn1: syntax error: zero length OBJECT IDENTIFIER',
  19: 'asn1: syntax error: invalid padding bits in BIT STRING',
  20: 'asn1: syntax error: zero length BIT STRING',
  21: 'asn1: syntax error: invalid boolean',
  22: 'asn1: syntax error: invalid time',
  23: 'asn1: structure error: sequence tag mismatch',
  24: 'asn1: syntax error: PrintableString contains invalid character',
  25: 'asn1: syntax error: IA5String contains invalid character',
  26: 'asn1: syntax error: NumericString contains invalid character',
  27: 'asn1: invalid UTF-8 string', // encoding/asn1's parseUTF8String: a plain error, no "syntax error:"
  28: 'pkcs12: odd-length BMP string',
  30: 'PEM block type must be CERTIFICATE REQUEST',
  31: 'x509: RSA key missing NULL parameters',
  32: 'x509: failed to unmarshal elliptic curve point',
  33: 'x509: invalid ECDSA parameters',
  34: 'x509: unsupported elliptic curve',
  35: 'x509: Ed25519 key encoded with illegal parameters',
  36: 'x509: wrong Ed25519 public key size',
  37: 'x509: invalid RSA public key',
  38: 'x509: invalid RSA modulus',
  39: 'x509: invalid RSA public exponent',
  40: 'x509: trailing data after RSA public key',
  41: 'x509: RSA modulus is not a positive number',
  42: 'x509: RSA public exponent is not a positive number',
  43: 'x509: certificate request contains duplicate requested extensions',
  44: 'x509: invalid subject alternative names',
  45: 'x509: invalid subject alternative name',
  46: 'x509: SAN rfc822Name is malformed',
  47: 'x509: SAN dNSName is malformed',
  48: 'x509: SAN uniformResourceIdentifier is malformed',
  50: 'x509: malformed certificate',
  51: 'x509: trailing data',
  52: 'x509: malformed tbs certificate',
  53: 'x509: malformed version',
  54: 'x509: invalid version',
  55: 'x509: malformed serial number',
  56: 'x509: negative serial number',
  57: 'x509: malformed signature algorithm identifier',
  58: 'x509: malformed algorithm identifier',
  59: "x509: inner and outer signature algorithm identifiers don't match",
  60: 'x509: malformed issuer',
  61: RDN,
  62: 'x509: malformed validity',
  63: 'x509: malformed issuer', // Go's text for an unreadable subject too
  64: 'x509: malformed spki',
  65: 'x509: malformed issuerUniqueID',
  66: 'x509: malformed subjectUniqueID',
  67: 'x509: malformed extensions',
  68: 'x509: malformed extension',
  69: 'x509: certificate contains duplicate extensions',
  70: 'x509: malformed signature',
  71: 'x509: invalid basic constraints',
  72: 'x509: invalid key usage',
  73: 'x509: invalid extended key usages',
  74: 'x509: invalid subject key identifier',
  75: 'x509: invalid authority key identifier',
  78: 'x509: ML-DSA key encoded with illegal parameters',
  79: 'mldsa: invalid public key length',
  81: 'no PEM block headers are permitted',
  82: 'found CERTIFICATE PEM block containing 0 certificates',
  83: 'must contain at least one CERTIFICATE PEM block',
  84: RDN_ATTRIBUTE,
  85: RDN_ATTRIBUTE_TYPE,
  86: RDN_ATTRIBUTE_VALUE,
  90: 'crypto core: result area full',
  91: 'x509: unsupported time format',
  92: 'x509: malformed UTCTime',
  93: 'x509: malformed GeneralizedTime',
  94: 'x509: malformed extension OID field',
  95: 'x509: malformed extension critical field',
  96: 'x509: malformed extension value field',
  97: 'x509: invalid DSA public key',
  98: 'x509: invalid DSA parameters',
  99: 'x509: zero or negative DSA parameter',
  100: 'x509: invalid CRL distribution points',
  101: 'x509: invalid CRL distribution point',
  102: 'x509: invalid certificate policies',
  103: 'x509: invalid authority info access',
  104: NC_INVALID,
  105: NC_EMPTY,
  108: 'x509: malformed public key algorithm identifier',
  109: 'x509: malformed OID',
  110: 'x509: malformed parameters',
  111: 'x509: malformed subjectPublicKey',
};
const E_TAG_MISMATCH = 12;
const E_ASN1_TIME = 29;
const E_TRAILING_IN = 13;
const E_EC_POINT = 32;
const E_SAN_IP_LENGTH = 49;
const E_SAN_URI_PARSE = 76;
const E_SAN_URI_DOMAIN = 77;
const E_PEM_LABEL = 80;
const E_RDN_STRING = 87;
const E_RDN_UNSUPPORTED = 88;
const E_NC_VALUE = 107;

const CURVES = ['', 'P-224', 'P-256', 'P-384', 'P-521'];
const CURVE_BITS = [0, 224, 256, 384, 521];
const KEY_ALGORITHMS = ['unknown', 'rsa', 'ec', 'ed25519', 'ed448', 'unknown', 'ml-dsa'] as const;

function exports(): ParseExports {
  return wasm() as ParseExports;
}

/** Copies the input (UTF-8 for strings, as Buffer.from does) into the arena; returns [address, length]. */
function putInput(w: ParseExports, input: Uint8Array | string): [number, number] {
  if (typeof input === 'string') {
    if (input.length * 3 > MAX_INPUT) throw new CryptoError('crypto core: input too large');
    const ptr = w.alloc(input.length * 3 || 1);
    const { written } = encoder.encodeInto(input, new Uint8Array(w.memory.buffer, ptr, input.length * 3));
    return [ptr, written];
  }
  if (!(input instanceof Uint8Array)) throw new TypeError('PEM input must be a string or Uint8Array');
  if (input.length > MAX_INPUT) throw new CryptoError('crypto core: input too large');
  const ptr = w.alloc(input.length || 1);
  new Uint8Array(w.memory.buffer, ptr, input.length).set(input);
  return [ptr, input.length];
}

/** The error text for a failed result at `res` (words `u`). */
function message(u: Uint32Array, res: number, mem: Uint8Array): string {
  const at = res >>> 2;
  const code = u[at]!;
  const a = (i: number): number => u[at + 1 + i]!;
  switch (code) {
    case E_TAG_MISMATCH:
      return `asn1: structure error: tags don't match (${a(0)} vs {class:${a(1)} tag:${a(2)} length:${a(3)} isCompound:${a(4) === 1}}) ${GO_DEFAULT_PARAMS} ${NAMES[a(5)] ?? ''} @${a(6)}`;
    case E_TRAILING_IN:
      return `asn1: syntax error: trailing data in ${NAMES[a(0)] ?? ''}`;
    case E_ASN1_TIME:
      // The module decides; the words are time.Parse's, which only the step-by-step emulation knows.
      return goAsn1TimeError(a(0), mem.subarray(a(1), a(1) + a(2))) ?? 'crypto core: UTCTime/GeneralizedTime verdicts disagree';
    case E_SAN_IP_LENGTH:
      return `x509: cannot parse IP address of length ${a(0)}`;
    case E_SAN_URI_PARSE:
      return uriParseError(latin1(mem, a(0), a(1)), a(2), a(3), a(4), a(5));
    case E_SAN_URI_DOMAIN:
      return uriDomainError(latin1(mem, a(0), a(1)));
    case E_RDN_STRING:
      return x509StringError(a(0));
    case E_RDN_UNSUPPORTED:
      return x509UnsupportedString(a(0));
    case E_NC_VALUE:
      return nameConstraintError(a(0), mem.subarray(a(1), a(1) + a(2)));
    case E_PEM_LABEL: {
      const label = Buffer.from(mem.buffer, mem.byteOffset + a(0), a(1)).toString('utf8');
      return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(label)}`;
    }
    default:
      return MESSAGES[code] ?? `crypto core: unknown error ${code}`;
  }
}

/** Calls `f` for every record of the result at `res`; `f` gets the index of the record's first field. */
function eachRecord(u: Uint32Array, res: number, f: (kind: number, i: number) => void): void {
  const at = res >>> 2;
  const end = at + u[at + HEADER_WORDS - 1]!;
  for (let i = at + HEADER_WORDS; i < end; ) {
    const kind = u[i]!;
    const n = RECORD_FIELDS[kind];
    if (n === undefined) throw new Error(`crypto core: bad record kind ${kind}`);
    f(kind, i + 1);
    i += 1 + n;
  }
}

/** The first EC point (R_EC_POINT record) that node:crypto does not load, as Go's message; else undefined. */
function badEcPoint(u: Uint32Array, res: number, mem: Uint8Array): string | undefined {
  let bad: string | undefined;
  eachRecord(u, res, (kind, i) => {
    if (kind !== R_EC_POINT || bad !== undefined) return;
    try {
      publicKeyObject(mem.subarray(u[i]!, u[i]! + u[i + 1]!));
    } catch {
      bad = MESSAGES[E_EC_POINT];
    }
  });
  return bad;
}

function latin1(mem: Uint8Array, p: number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(mem[p + i]!);
  return s;
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

function stringValue(mem: Uint8Array, kind: number, p: number, end: number): string {
  if (kind === 0x0c) return utf8.decode(mem.subarray(p, end));
  if (kind === 0x14) return goBytesString(mem.subarray(p, end));
  if (kind === 0x1e) {
    let n = end - p;
    if (n >= 2 && mem[end - 1] === 0 && mem[end - 2] === 0) n -= 2;
    let s = '';
    for (let i = 0; i < n; i += 2) s += String.fromCharCode((mem[p + i]! << 8) | mem[p + i + 1]!);
    return wellFormed(s);
  }
  return latin1(mem, p, end - p);
}

function hex(mem: Uint8Array, p: number, end: number): string {
  let s = '';
  for (let i = p; i < end; i++) s += (mem[i]! < 16 ? '0' : '') + mem[i]!.toString(16);
  return s;
}

/** Dotted form of OID content the module has already checked. */
function oidString(mem: Uint8Array, p: number, n: number): string {
  let s = '';
  let v = 0;
  let first = true;
  for (let i = p; i < p + n; i++) {
    v = v * 128 + (mem[i]! & 0x7f);
    if (mem[i]! & 0x80) continue;
    if (first) {
      s = v < 80 ? `${Math.floor(v / 40)}.${v % 40}` : `2.${v - 80}`;
      first = false;
    } else {
      s += `.${v}`;
    }
    v = 0;
  }
  return s;
}

/**
 * The error text of a failed CSR parse result at `res` (issue-batch.ts), exactly as wasmParseCsr
 * would throw it. Call before the arena is reset.
 */
export function wasmCsrResultError(res: number): string {
  const w = exports();
  const mem = new Uint8Array(w.memory.buffer);
  const u = new Uint32Array(w.memory.buffer);
  return badEcPoint(u, res, mem) ?? message(u, res, mem);
}

/** parseCsr (Kubernetes ParseCSR) in the WASM core, plus the byte ranges of the signed parts. */
export function wasmParseCsr(request: Uint8Array | string): WasmParsedCsr {
  const w = exports();
  w.reset();
  const [ptr, len] = putInput(w, request);
  return readCsr(w, w.parseCsrPem(ptr, len));
}

/** x509.ParseCertificateRequest on DER in the WASM core. */
export function wasmParseCsrDer(der: Uint8Array): WasmParsedCsr {
  if (!(der instanceof Uint8Array)) throw new TypeError('CSR DER must be a Uint8Array');
  const w = exports();
  w.reset();
  const [ptr, len] = putInput(w, der);
  return readCsr(w, w.parseCsrDer(ptr, len));
}

function readCsr(w: ParseExports, res: number): WasmParsedCsr {
  const mem = new Uint8Array(w.memory.buffer);
  const u = new Uint32Array(w.memory.buffer);
  const h = (i: number): number => u[(res >>> 2) + i]!;
  if (h(0) !== 0) throw new CryptoError(badEcPoint(u, res, mem) ?? message(u, res, mem));
  const bad = badEcPoint(u, res, mem);
  if (bad !== undefined) throw new CryptoError(bad);

  const base = h(8);
  const der = mem.slice(base, base + h(9));
  const range = (i: number): ByteRange => ({ offset: h(i) - base, length: h(i + 1) });
  const sub = (p: number, n: number): Uint8Array => der.subarray(p - base, p - base + n);

  const subject: DistinguishedNameAttribute[][] = [];
  let commonName = '';
  const organizations: string[] = [];
  const dnsNames: string[] = [];
  const ipAddresses: string[] = [];
  const emailAddresses: string[] = [];
  const uris: string[] = [];
  const extensions: ParsedCsr['extensions'] = [];
  eachRecord(u, res, (kind, i) => {
    switch (kind) {
      case R_RDN:
        subject.push([]);
        return;
      case R_ATV: {
        const type = oidString(mem, u[i]!, u[i + 1]!);
        const str = u[i + 5]! !== 0;
        const value = str ? stringValue(mem, u[i + 5]!, u[i + 3]!, u[i + 4]!) : '#' + hex(mem, u[i + 2]!, u[i + 4]!);
        const attr: DistinguishedNameAttribute = { type, value };
        const short = DN_SHORT_NAMES[type];
        if (short !== undefined) attr.shortName = short;
        subject[subject.length - 1]!.push(attr);
        if (str && type === DN_COMMON_NAME) commonName = value;
        else if (str && type === DN_ORGANIZATION) organizations.push(value);
        return;
      }
      case R_EXT:
        extensions.push({ oid: oidString(mem, u[i]!, u[i + 1]!), critical: u[i + 2] === 1, value: sub(u[i + 3]!, u[i + 4]!) });
        return;
      case R_SAN: {
        const p = u[i + 1]!;
        const n = u[i + 2]!;
        const tag = u[i]!;
        if (tag === 0x87) ipAddresses.push(formatIp(mem.subarray(p, p + n)));
        else (tag === 0x81 ? emailAddresses : tag === 0x82 ? dnsNames : uris).push(latin1(mem, p, n));
        return;
      }
      default:
        return;
    }
  });

  const spki = sub(h(12), h(13));
  const algorithm = KEY_ALGORITHMS[h(19)] ?? 'unknown';
  const publicKey: PublicKeyInfo = { algorithm, spki };
  if (algorithm === 'rsa') publicKey.bits = h(20);
  if (algorithm === 'ec') {
    publicKey.bits = CURVE_BITS[h(21)]!;
    publicKey.curve = CURVES[h(21)]!;
  }
  if (algorithm === 'ml-dsa') publicKey.parameterSet = `ML-DSA-${h(20) as 44 | 65 | 87}`;
  const sigAlg = identifySignatureAlgorithm({ oid: oidString(mem, h(22), h(23)), params: sub(h(24), h(25)) });
  return {
    der,
    subject,
    commonName,
    organizations,
    dnsNames,
    ipAddresses,
    emailAddresses,
    uris,
    extensions,
    publicKey,
    signatureAlgorithm: sigAlg.name,
    ranges: {
      certificationRequestInfo: range(10),
      subjectPublicKeyInfo: range(12),
      signature: range(14),
      signatureUnusedBits: h(16),
      subject: range(17),
    },
  };
}

/** validateCertificatePem (Kubernetes' status.certificate rules) in the WASM core; same result shape. */
export function wasmValidateCertificatePem(data: Uint8Array | string): CertificatePemValidation {
  const w = exports();
  w.reset();
  const [ptr, len] = putInput(w, data);
  const res = w.validateCertificatePem(ptr, len);
  const mem = new Uint8Array(w.memory.buffer);
  const u = new Uint32Array(w.memory.buffer);
  const bad = badEcPoint(u, res, mem);
  if (bad !== undefined) return { ok: false, error: bad };
  if (u[res >>> 2] !== 0) return { ok: false, error: message(u, res, mem) };
  const certificates: Uint8Array[] = [];
  eachRecord(u, res, (kind, i) => {
    if (kind === R_CERT) certificates.push(mem.slice(u[i]!, u[i]! + u[i + 1]!));
  });
  return { ok: true, certificates };
}

/** Go's pem.Decode in the WASM core: the first block (label, header count, DER) or undefined. */
export function wasmDecodeFirstPem(input: Uint8Array | string): { label: string; headerCount: number; der: Uint8Array } | undefined {
  const w = exports();
  w.reset();
  const [ptr, len] = putInput(w, input);
  const res = w.pemDecode(ptr, len);
  const u = new Uint32Array(w.memory.buffer);
  const h = (i: number): number => u[(res >>> 2) + i]!;
  if (h(8) === 0) return undefined;
  const mem = new Uint8Array(w.memory.buffer);
  return {
    label: Buffer.from(mem.buffer, h(9), h(10)).toString('utf8'),
    headerCount: h(11),
    der: mem.slice(h(12), h(12) + h(13)),
  };
}

/** RFC 7468 strict PEM (64-character lines) from the WASM core; same output and checks as encodePem. */
export function wasmEncodePem(label: string, der: Uint8Array): string {
  if (typeof label !== 'string' || /[\r\n]|-----/.test(label)) throw new TypeError('invalid PEM label');
  if (!(der instanceof Uint8Array)) throw new TypeError('PEM data must be a Uint8Array');
  const w = exports();
  w.reset();
  const [lp, ll] = putInput(w, label);
  const [dp, dl] = putInput(w, der);
  const out = w.alloc(w.pemEncodedLength(ll, dl));
  const n = w.pemEncode(lp, ll, dp, dl, out);
  return Buffer.from(w.memory.buffer, out, n).toString('utf8');
}
