// Typed door to the WASM X.509 builder (wasm/assembly/x509.ts): packs a template into the one
// parameter block the module reads, and copies TBSCertificate / Certificate / PEM back out. The
// block layout is documented at the top of wasm/assembly/x509.ts; HEADER and the offsets below
// must match it.
import { Buffer } from 'node:buffer';
import type { KeyObject } from 'node:crypto';
import { randomSerial } from '../serial.js';
import { CryptoError } from '../errors.js';
import { parseIp } from '../general-names.js';
import { EXT_KEY_USAGE_OIDS, KEY_USAGE_BITS } from '../usages.js';
import type { CertificateTemplate } from '../x509-build.js';
import { put, take, wasm } from './instance.js';

export type WasmSigAlg =
  | 'ecdsa-with-SHA256'
  | 'ecdsa-with-SHA384'
  | 'ecdsa-with-SHA512'
  | 'Ed25519'
  | 'sha256WithRSAEncryption'
  | 'sha384WithRSAEncryption'
  | 'sha512WithRSAEncryption';

const SIG_ALGS: Readonly<Record<WasmSigAlg, number>> = {
  'ecdsa-with-SHA256': 1,
  'ecdsa-with-SHA384': 2,
  'ecdsa-with-SHA512': 3,
  Ed25519: 4,
  sha256WithRSAEncryption: 5,
  sha384WithRSAEncryption: 6,
  sha512WithRSAEncryption: 7,
};

// Go's ExtKeyUsage order, as in usages.ts; bit i of the mask is the i-th OID of the WASM table.
const EKU_ORDER = [...new Set(Object.values(EXT_KEY_USAGE_OIDS))];

/** The template fields the builder shares with createCertificate, plus the byte-exact inputs. */
export interface WasmTbsOptions extends Pick<CertificateTemplate,
  'serialNumber' | 'notBefore' | 'notAfter' | 'isCA' | 'pathLen' | 'keyUsage' | 'extKeyUsage' | 'dnsNames' | 'ipAddresses' | 'emailAddresses' | 'uris'
  | 'subjectKeyId' | 'authorityKeyId'> {
  /** Force SAN critical (it is also critical whenever the subject Name is empty). */
  subjectAltNameCritical?: boolean | undefined;
  /** The issuer certificate's subject Name DER, byte-exact. */
  issuerNameDer: Uint8Array;
  /** The subject Name DER, byte-exact unless goSubject. */
  subjectNameDer: Uint8Array;
  /**
   * The subject is a CSR's: write it as Go's x509.CreateCertificate writes a template's Subject
   * parsed from it (wasm/assembly/go-subject.ts: known attributes only, Go's order and string types).
   */
  goSubject?: boolean | undefined;
  /** SubjectPublicKeyInfo DER (from the CSR). */
  spkiDer: Uint8Array;
  sigAlg: WasmSigAlg;
  /**
   * The issuer certificate's subjectKeyIdentifier (Go's parent.SubjectKeyId); omitted or empty: it
   * has none. It becomes the AKI when the subject differs from the issuer Name, as in Go.
   */
  issuerSki?: Uint8Array | undefined;
  /** Default true (Go's BasicConstraintsValid, which plat's templates always set). */
  basicConstraints?: boolean | undefined;
  /** Generate an SKI when `subjectKeyId` is empty; default `isCA`, as Go's CreateCertificate. */
  subjectKeyIdentifier?: boolean | undefined;
  /** Let issuerSki replace `authorityKeyId`; default true. */
  authorityKeyIdentifier?: boolean | undefined;
}

const ERRORS: Readonly<Record<number, string>> = {
  [-1]: 'x509 build: malformed parameter block',
  [-2]: 'serialNumber must be non-zero and at most 20 octets as an INTEGER',
  [-3]: 'validity: dates must be whole seconds in years 0..9999 and notAfter after notBefore',
  [-4]: 'unknown signature algorithm',
  [-5]: 'issuer or subject Name is not one DER SEQUENCE',
  [-6]: 'SubjectPublicKeyInfo is malformed',
  [-7]: "subjectAltName: names must be ASCII, URIs such as Go's url.Parse takes, IPs 4 or 16 bytes",
  [-8]: 'unknown keyUsage or extKeyUsage',
  [-9]: 'pathLen requires isCA',
  [-10]: 'x509 build: output buffer overflow',
  [-11]: 'TBSCertificate is not one DER SEQUENCE',
  [-12]: 'asn1: string not valid UTF-8',
};

// Go's own texts (asn1.Marshal's), which CreateCertificate returns unwrapped: a CryptoError, as is.
const GO_ERRORS: ReadonlySet<number> = new Set([-12]);

function fail(code: number): never {
  if (GO_ERRORS.has(code)) throw new CryptoError(ERRORS[code]!);
  throw new RangeError(ERRORS[code] ?? `x509 build failed (${code})`);
}

/** The selector for a signing key, as signature.ts chooses (hash by curve, SHA-256 for RSA). */
export function wasmSigAlgFor(privateKey: KeyObject): WasmSigAlg {
  switch (privateKey.asymmetricKeyType) {
    case 'ec': {
      const curve = privateKey.asymmetricKeyDetails?.namedCurve;
      return curve === 'secp384r1' ? 'ecdsa-with-SHA384' : curve === 'secp521r1' ? 'ecdsa-with-SHA512' : 'ecdsa-with-SHA256';
    }
    case 'rsa':
      return 'sha256WithRSAEncryption';
    case 'ed25519':
      return 'Ed25519';
    default:
      throw new RangeError(`unsupported signing key type ${String(privateKey.asymmetricKeyType)}`);
  }
}

function sigAlgCode(a: WasmSigAlg): number {
  const code = SIG_ALGS[a];
  if (code === undefined) throw new RangeError(`unknown signature algorithm: ${String(a)}`);
  return code;
}

// SAN entry kinds (the GeneralName tag numbers).
const EMAIL = 1;
const DNS = 2;
const URI = 6;
const IP = 7;

function sanEntries(o: WasmTbsOptions): Array<[number, Uint8Array]> {
  const out: Array<[number, Uint8Array]> = [];
  // UTF-8, so any non-ASCII character arrives as bytes >= 0x80 and the module rejects it.
  for (const d of o.dnsNames ?? []) out.push([DNS, Buffer.from(d, 'utf8')]);
  for (const e of o.emailAddresses ?? []) out.push([EMAIL, Buffer.from(e, 'utf8')]);
  for (const text of o.ipAddresses ?? []) {
    const ip = parseIp(text);
    if (ip === undefined) throw new RangeError(`invalid IP address: ${JSON.stringify(text)}`);
    out.push([IP, ip]); // the module writes an IPv4-mapped address as 4 bytes, as Go's ip.To4()
  }
  for (const u of o.uris ?? []) out.push([URI, Buffer.from(u, 'utf8')]);
  return out;
}

/** keyUsage and extKeyUsage masks as the module reads them (also used by issue-batch.ts). */
export function masks(o: Pick<WasmTbsOptions, 'keyUsage' | 'extKeyUsage'>): { ku: number; eku: number } {
  let ku = 0;
  for (const n of o.keyUsage ?? []) {
    const bit = KEY_USAGE_BITS[n];
    if (bit === undefined) throw new RangeError(`unknown key usage: ${JSON.stringify(n)}`);
    ku |= 1 << bit;
  }
  let eku = 0;
  for (const n of o.extKeyUsage ?? []) {
    const oid = EXT_KEY_USAGE_OIDS[n];
    if (oid === undefined) throw new RangeError(`unknown extended key usage: ${JSON.stringify(n)}`);
    eku |= 1 << EKU_ORDER.indexOf(oid);
  }
  return { ku, eku };
}

const HEADER = 100;

/**
 * The DER TBSCertificate for `o`, built in WASM. Throws RangeError for values the module rejects,
 * CryptoError (Go's text) for a goSubject value that is not UTF-8.
 */
export function wasmBuildTbs(o: WasmTbsOptions): Uint8Array {
  if (!(o.notBefore instanceof Date) || !(o.notAfter instanceof Date)) throw new TypeError('notBefore and notAfter must be Dates');
  if (o.pathLen !== undefined && (!Number.isSafeInteger(o.pathLen) || o.pathLen < 0 || o.pathLen > 0xffffffff)) {
    throw new RangeError('pathLen must be a non-negative integer');
  }
  const serial = o.serialNumber ?? randomSerial();
  const { ku, eku } = masks(o);
  const entries = sanEntries(o);
  let sanLen = 0;
  for (const [, b] of entries) sanLen += 5 + b.length;
  const empty = new Uint8Array(0);
  const keyId = (v: Uint8Array | undefined, name: string): Uint8Array => {
    if (v !== undefined && !(v instanceof Uint8Array)) throw new TypeError(`${name} must be a Uint8Array`);
    return v ?? empty;
  };
  const parts = [serial, o.issuerNameDer, o.subjectNameDer, o.spkiDer, keyId(o.issuerSki, 'issuerSki')];
  const tail = [keyId(o.subjectKeyId, 'subjectKeyId'), keyId(o.authorityKeyId, 'authorityKeyId')];
  let total = HEADER + sanLen;
  for (const p of [...parts, ...tail]) total += p.length;

  const flags =
    (o.isCA ? 1 : 0) |
    (o.pathLen !== undefined ? 2 : 0) |
    (o.basicConstraints !== false ? 4 : 0) |
    ((o.subjectKeyIdentifier ?? o.isCA) ? 8 : 0) |
    (o.authorityKeyIdentifier !== false ? 16 : 0) |
    (o.subjectAltNameCritical ? 64 : 0) |
    (o.goSubject ? 128 : 0);

  const w = wasm();
  w.reset();
  const ptr = w.alloc(total);
  // Taken after alloc: a memory.grow inside alloc detaches older views of the buffer.
  const mem = new Uint8Array(w.memory.buffer, ptr, total);
  const dv = new DataView(w.memory.buffer, ptr, total);
  dv.setUint32(0, flags, true);
  dv.setUint32(4, sigAlgCode(o.sigAlg), true);
  dv.setFloat64(8, Math.floor(o.notBefore.getTime() / 1000), true);
  dv.setFloat64(16, Math.floor(o.notAfter.getTime() / 1000), true);
  dv.setUint32(24, o.pathLen ?? 0, true);
  dv.setUint32(28, ku, true);
  dv.setUint32(32, eku, true);
  let off = HEADER;
  let at = 36;
  // Each field: its (offset, length) slot in the header, its bytes after the header.
  const put = (p: Uint8Array) => {
    dv.setUint32(at, off, true);
    dv.setUint32(at + 4, p.length, true);
    mem.set(p, off);
    off += p.length;
    at += 8;
  };
  parts.forEach(put);
  dv.setUint32(at, off, true);
  dv.setUint32(at + 4, sanLen, true);
  for (const [kind, b] of entries) {
    mem[off] = kind;
    dv.setUint32(off + 1, b.length, true);
    mem.set(b, off + 5);
    off += 5 + b.length;
  }
  at += 8;
  tail.forEach(put);
  const n = (w['x509BuildTbs'] as (p: number, l: number) => number)(ptr, total);
  if (n < 0) fail(n);
  return take((w['x509Output'] as () => number)(), n);
}

/** Certificate DER from a TBSCertificate, the algorithm it names, and the signature value. */
export function wasmAssembleCertificate(tbs: Uint8Array, sigAlg: WasmSigAlg, signature: Uint8Array): Uint8Array {
  const code = sigAlgCode(sigAlg);
  const w = wasm();
  w.reset();
  const t = put(tbs);
  const s = put(signature);
  const n = (w['x509AssembleCertificate'] as (a: number, b: number, c: number, d: number, e: number) => number)(
    t, tbs.length, code, s, signature.length);
  if (n < 0) fail(n);
  return take((w['x509Output'] as () => number)(), n);
}

/** 'CERTIFICATE' PEM of DER, encoded in WASM (same text as pem.ts encodePem). */
export function wasmPemEncodeCertificate(der: Uint8Array): string {
  const w = wasm();
  w.reset();
  const p = put(der);
  const n = (w['pemEncodeCertificate'] as (a: number, b: number) => number)(p, der.length);
  if (n < 0) fail(n);
  // Decoded in place: the text is read before anything else can touch the arena.
  return Buffer.from(w.memory.buffer, (w['x509Output'] as () => number)(), n).toString('latin1');
}
