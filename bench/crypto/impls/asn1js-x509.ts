// Building a certificate with asn1js: the TBSCertificate and Certificate of the noble pipeline
// (@noble/curves signs, asn1js encodes). Same content as plat's builder: v3, random positive
// serial, issuer Name and subject Name / SPKI copied from the CA and the CSR, keyUsage (critical),
// extKeyUsage, basicConstraints (critical), SKI, AKI, the CSR's subjectAltName.
import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';

export interface Asn1jsTbsParts {
  sigAlgOid: string;
  issuerNameDer: Uint8Array;
  subjectNameDer: Uint8Array;
  spkiDer: Uint8Array;
  notBefore: Date;
  notAfter: Date;
  /** keyUsage bit numbers (RFC 5280 §4.2.1.3). */
  keyUsageBits: readonly number[];
  extKeyUsageOids: readonly string[];
  subjectKeyId: Uint8Array;
  authorityKeyId: Uint8Array;
  subjectAltNameDer?: Uint8Array | undefined;
}

const embed = (der: Uint8Array): asn1js.AsnType => {
  const r = asn1js.fromBER(der);
  if (r.offset === -1) throw new Error(`asn1js: ${r.result.error}`);
  return r.result;
};

function extension(oid: string, critical: boolean, value: asn1js.AsnType | Uint8Array): asn1js.Sequence {
  const body = value instanceof Uint8Array ? value : new Uint8Array(value.toBER());
  return new asn1js.Sequence({
    value: [
      new asn1js.ObjectIdentifier({ value: oid }),
      ...(critical ? [new asn1js.Boolean({ value: true })] : []),
      new asn1js.OctetString({ valueHex: body }),
    ],
  });
}

/** A named bit list in minimal DER form (trailing zero bits dropped). */
function namedBits(bits: readonly number[]): asn1js.BitString {
  const top = Math.max(...bits);
  const bytes = new Uint8Array((top >> 3) + 1);
  for (const b of bits) bytes[b >> 3]! |= 0x80 >> (b & 7);
  return new asn1js.BitString({ valueHex: bytes, unusedBits: 7 - (top & 7) });
}

function algorithm(oid: string): asn1js.Sequence {
  return new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: oid })] });
}

export function buildTbsAsn1js(p: Asn1jsTbsParts): asn1js.Sequence {
  const serial = new Uint8Array(randomBytes(16));
  serial[0]! &= 0x7f;
  serial[0]! |= 0x01; // positive and minimal: the first octet is neither 0 nor >= 0x80
  const extensions = [
    extension('2.5.29.15', true, namedBits(p.keyUsageBits)),
    extension('2.5.29.37', false, new asn1js.Sequence({ value: p.extKeyUsageOids.map((o) => new asn1js.ObjectIdentifier({ value: o })) })),
    extension('2.5.29.19', true, new asn1js.Sequence()),
    extension('2.5.29.14', false, new asn1js.OctetString({ valueHex: p.subjectKeyId })),
    extension('2.5.29.35', false, new asn1js.Sequence({
      value: [new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 }, valueHex: p.authorityKeyId })],
    })),
  ];
  if (p.subjectAltNameDer !== undefined) extensions.push(extension('2.5.29.17', false, p.subjectAltNameDer));
  return new asn1js.Sequence({
    value: [
      new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [new asn1js.Integer({ value: 2 })] }),
      new asn1js.Integer({ valueHex: serial }),
      algorithm(p.sigAlgOid),
      embed(p.issuerNameDer),
      new asn1js.Sequence({ value: [new asn1js.UTCTime({ valueDate: p.notBefore }), new asn1js.UTCTime({ valueDate: p.notAfter })] }),
      embed(p.subjectNameDer),
      embed(p.spkiDer),
      new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 3 }, value: [new asn1js.Sequence({ value: extensions })] }),
    ],
  });
}

/** Certificate DER: the TBS, its algorithm again, and the signature. */
export function assembleCertificateAsn1js(tbs: asn1js.Sequence, sigAlgOid: string, signature: Uint8Array): Uint8Array {
  const cert = new asn1js.Sequence({ value: [tbs, algorithm(sigAlgOid), new asn1js.BitString({ valueHex: signature })] });
  return new Uint8Array(cert.toBER());
}

export function certificatePem(der: Uint8Array): string {
  const b64 = Buffer.from(der).toString('base64');
  let out = '-----BEGIN CERTIFICATE-----\n';
  for (let i = 0; i < b64.length; i += 64) out += b64.slice(i, i + 64) + '\n';
  return out + '-----END CERTIFICATE-----\n';
}
