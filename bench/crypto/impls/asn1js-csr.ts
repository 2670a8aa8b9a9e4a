// A schema-free asn1js reading of a PKCS#10 request, PEM in, fields out: the "asn1js-based parse"
// of issue 3's CSR parse target, and the front half of the noble pipeline. It shares no code with
// core/crypto. It reads the same fields plat's parser returns (subject RDNs, CN/O, SANs, requested
// extensions, public key, signature algorithm) plus the byte ranges a verifier and a certificate
// builder need.
import { Buffer } from 'node:buffer';
import * as asn1js from 'asn1js';

export interface Asn1jsCsr {
  subject: Array<Array<{ type: string; value: string }>>;
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
  extensions: Array<{ oid: string; critical: boolean; value: Uint8Array }>;
  publicKey: { algorithm: 'ec' | 'ed25519' | 'rsa' | 'unknown'; curve?: string; spki: Uint8Array; raw: Uint8Array };
  signatureAlgorithm: string;
  /** CertificationRequestInfo DER (what the signature covers). */
  info: Uint8Array;
  signature: Uint8Array;
  subjectNameDer: Uint8Array;
  /** The subjectAltName extnValue, when requested. */
  subjectAltNameDer?: Uint8Array;
}

const CURVES: Readonly<Record<string, string>> = { '1.2.840.10045.3.1.7': 'P-256', '1.3.132.0.34': 'P-384', '1.3.132.0.35': 'P-521' };
const SIG_ALGS: Readonly<Record<string, string>> = {
  '1.2.840.10045.4.3.2': 'ecdsa-with-SHA256', '1.2.840.10045.4.3.3': 'ecdsa-with-SHA384', '1.2.840.10045.4.3.4': 'ecdsa-with-SHA512',
  '1.2.840.113549.1.1.11': 'sha256WithRSAEncryption', '1.3.101.112': 'Ed25519',
};
const PEM = /-----BEGIN CERTIFICATE REQUEST-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE REQUEST-----/;

function ber(bytes: Uint8Array): asn1js.AsnType {
  const r = asn1js.fromBER(bytes);
  if (r.offset === -1) throw new Error(`asn1js: ${r.result.error}`);
  return r.result;
}
const children = (v: asn1js.AsnType | undefined): asn1js.AsnType[] => {
  if (v === undefined) throw new Error('asn1js: missing element');
  return (v as asn1js.Sequence).valueBlock.value;
};
const oidOf = (v: asn1js.AsnType | undefined): string => (v as asn1js.ObjectIdentifier).valueBlock.toString();
const raw = (v: asn1js.AsnType | undefined): Uint8Array => (v as asn1js.Sequence).valueBeforeDecodeView;
const hexView = (v: asn1js.AsnType | undefined): Uint8Array => (v as asn1js.OctetString).valueBlock.valueHexView;

function text(v: asn1js.AsnType): string {
  const value = (v as unknown as { valueBlock: { value?: unknown } }).valueBlock.value;
  return typeof value === 'string' ? value : `#${Buffer.from(raw(v)).toString('hex')}`;
}

function ip(bytes: Uint8Array): string {
  if (bytes.length === 4) return bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < bytes.length; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return new URL(`http://[${groups.join(':')}]`).hostname.slice(1, -1);
}

function readSans(out: Asn1jsCsr, value: Uint8Array): void {
  const latin1 = (b: Uint8Array) => Buffer.from(b).toString('latin1');
  for (const name of children(ber(value))) {
    const bytes = hexView(name);
    switch (name.idBlock.tagNumber) {
      case 1: out.emailAddresses.push(latin1(bytes)); break;
      case 2: out.dnsNames.push(latin1(bytes)); break;
      case 6: out.uris.push(latin1(bytes)); break;
      case 7: out.ipAddresses.push(ip(bytes)); break;
    }
  }
}

export function readCsrAsn1js(pem: string): Asn1jsCsr {
  const m = PEM.exec(pem);
  if (m === null) throw new Error('no CERTIFICATE REQUEST PEM block');
  const der = new Uint8Array(Buffer.from(m[1]!, 'base64'));
  const [info, sigAlg, sigValue] = children(ber(der));
  const [, subject, spki, attributes] = children(info);
  const rdns = children(subject).map((set) => children(set).map((atv) => {
    const [type, value] = children(atv);
    return { type: oidOf(type), value: text(value!) };
  }));
  const flat = rdns.flat();
  const [alg, keyBits] = children(spki);
  const [algOid, params] = children(alg);
  const keyOid = oidOf(algOid);
  const out: Asn1jsCsr = {
    subject: rdns,
    commonName: flat.filter((a) => a.type === '2.5.4.3').at(-1)?.value ?? '',
    organizations: flat.filter((a) => a.type === '2.5.4.10').map((a) => a.value),
    dnsNames: [], ipAddresses: [], emailAddresses: [], uris: [], extensions: [],
    publicKey: {
      algorithm: keyOid === '1.2.840.10045.2.1' ? 'ec' : keyOid === '1.3.101.112' ? 'ed25519' : keyOid === '1.2.840.113549.1.1.1' ? 'rsa' : 'unknown',
      spki: raw(spki),
      raw: hexView(keyBits),
    },
    signatureAlgorithm: SIG_ALGS[oidOf(children(sigAlg)[0])] ?? oidOf(children(sigAlg)[0]),
    info: raw(info),
    signature: hexView(sigValue),
    subjectNameDer: raw(subject),
  };
  if (out.publicKey.algorithm === 'ec') out.publicKey.curve = CURVES[oidOf(params)] ?? 'unknown';
  for (const attr of children(attributes)) {
    const [type, values] = children(attr);
    if (oidOf(type) !== '1.2.840.113549.1.9.14') continue;
    for (const ext of children(children(values)[0])) {
      const parts = children(ext);
      const critical = parts.length === 3 && (parts[1] as asn1js.Boolean).valueBlock.value;
      const value = hexView(parts[parts.length - 1]);
      const oid = oidOf(parts[0]);
      out.extensions.push({ oid, critical, value });
      if (oid === '2.5.29.17') {
        out.subjectAltNameDer = value;
        readSans(out, value);
      }
    }
  }
  return out;
}
