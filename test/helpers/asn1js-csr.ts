// An independent reading of PKCS#10 requests with asn1js, for differential tests of plat's own
// parser (TypeScript today, the WASM core behind the same facade): it shares no code with
// core/crypto.
import * as asn1js from 'asn1js';

export interface Asn1jsCsr {
  subject: { type: string; value: string }[][];
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
  extensions: { oid: string; critical: boolean; value: string /* hex */ }[];
  publicKey: { algorithm: string; curve?: string; bits?: number; spki: string /* hex */ };
  signatureAlgorithm: string;
}

const hex = (b: ArrayBuffer | Uint8Array) => Buffer.from(b instanceof Uint8Array ? b : new Uint8Array(b)).toString('hex');
const CURVES: Record<string, string> = { '1.2.840.10045.3.1.7': 'P-256', '1.3.132.0.34': 'P-384', '1.3.132.0.35': 'P-521', '1.3.132.0.33': 'P-224' };
const SIG_ALGS: Record<string, string> = {
  '1.2.840.10045.4.3.2': 'ecdsa-with-SHA256', '1.2.840.10045.4.3.3': 'ecdsa-with-SHA384', '1.2.840.10045.4.3.4': 'ecdsa-with-SHA512',
  '1.2.840.113549.1.1.11': 'sha256WithRSAEncryption', '1.2.840.113549.1.1.12': 'sha384WithRSAEncryption',
  '1.2.840.113549.1.1.13': 'sha512WithRSAEncryption', '1.2.840.113549.1.1.5': 'sha1WithRSAEncryption',
  '1.3.101.112': 'Ed25519', '1.2.840.113549.1.1.10': 'rsassa-pss',
};

function fromDer(der: Uint8Array): asn1js.AsnType {
  const r = asn1js.fromBER(der);
  if (r.offset === -1) throw new Error(`asn1js: ${r.result.error}`);
  return r.result;
}
const seqOf = (v: asn1js.AsnType): asn1js.AsnType[] => (v as asn1js.Sequence).valueBlock.value as asn1js.AsnType[];
const oidOf = (v: asn1js.AsnType): string => (v as asn1js.ObjectIdentifier).valueBlock.toString();
const octets = (v: asn1js.AsnType): Uint8Array => new Uint8Array((v as asn1js.OctetString).valueBlock.valueHexView);

function stringValue(v: asn1js.AsnType): string {
  const b = v as unknown as { valueBlock: { value?: unknown; valueHexView?: Uint8Array } };
  if (typeof b.valueBlock.value === 'string') return b.valueBlock.value;
  return `#${hex(new Uint8Array(v.toBER()))}`;
}

function ipString(bytes: Uint8Array): string {
  if (bytes.length === 4) return [...bytes].join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  // The WHATWG URL parser prints IPv6 in RFC 5952 canonical form.
  return new URL(`http://[${groups.join(':')}]`).hostname.slice(1, -1);
}

export function readCsrWithAsn1js(der: Uint8Array): Asn1jsCsr {
  const [info, sigAlg] = seqOf(fromDer(der));
  const [, subject, spki, attrs] = seqOf(info!);
  const rdns = seqOf(subject!).map((set) => ((set as asn1js.Set).valueBlock.value as asn1js.AsnType[]).map((atv) => {
    const [type, value] = seqOf(atv);
    return { type: oidOf(type!), value: stringValue(value!) };
  }));
  const flat = rdns.flat();
  const out: Asn1jsCsr = {
    subject: rdns,
    commonName: flat.filter((a) => a.type === '2.5.4.3').at(-1)?.value ?? '',
    organizations: flat.filter((a) => a.type === '2.5.4.10').map((a) => a.value),
    dnsNames: [], ipAddresses: [], emailAddresses: [], uris: [], extensions: [],
    publicKey: { algorithm: 'unknown', spki: hex(new Uint8Array(spki!.toBER())) },
    signatureAlgorithm: '',
  };
  const [alg, keyBits] = seqOf(spki!);
  const [algOid, params] = seqOf(alg!);
  const a = oidOf(algOid!);
  if (a === '1.2.840.10045.2.1') {
    out.publicKey.algorithm = 'ec';
    out.publicKey.curve = CURVES[oidOf(params!)] ?? 'unknown';
  } else if (a === '1.2.840.113549.1.1.1') {
    out.publicKey.algorithm = 'rsa';
    const rsa = seqOf(fromDer(new Uint8Array((keyBits as asn1js.BitString).valueBlock.valueHexView)));
    const n = new Uint8Array((rsa[0] as asn1js.Integer).valueBlock.valueHexView);
    let i = 0;
    while (n[i] === 0) i++;
    out.publicKey.bits = (n.length - i) * 8 - Math.clz32(n[i]!) + 24;
  } else if (a === '1.3.101.112') out.publicKey.algorithm = 'ed25519';
  const sigOid = oidOf(seqOf(sigAlg!)[0]!);
  out.signatureAlgorithm = SIG_ALGS[sigOid] ?? sigOid;

  for (const attr of ((attrs as asn1js.Constructed).valueBlock.value as asn1js.AsnType[])) {
    const [type, values] = seqOf(attr);
    if (oidOf(type!) !== '1.2.840.113549.1.9.14') continue;
    for (const ext of seqOf(((values as asn1js.Set).valueBlock.value as asn1js.AsnType[])[0]!)) {
      const parts = seqOf(ext);
      const critical = parts.length === 3 && (parts[1] as asn1js.Boolean).valueBlock.value;
      const value = octets(parts[parts.length - 1]!);
      const oid = oidOf(parts[0]!);
      out.extensions.push({ oid, critical, value: hex(value) });
      if (oid !== '2.5.29.17') continue;
      for (const gn of seqOf(fromDer(value))) {
        const tag = gn.idBlock.tagNumber;
        const raw = new Uint8Array((gn as asn1js.Primitive).valueBlock.valueHexView);
        if (tag === 2) out.dnsNames.push(Buffer.from(raw).toString('latin1'));
        else if (tag === 1) out.emailAddresses.push(Buffer.from(raw).toString('latin1'));
        else if (tag === 6) out.uris.push(Buffer.from(raw).toString('latin1'));
        else if (tag === 7) out.ipAddresses.push(ipString(raw));
      }
    }
  }
  return out;
}
