// Hand-assembled CSRs for cases no tool produces (duplicate extensions, wrong algorithm identifiers,
// broken keys). Not a test file itself: imported by the CSR tests.
import { createPublicKey, sign, type KeyObject } from 'node:crypto';
import { encodePem } from '../../core/crypto/index.js';
import { bitString, NULL, octetString, oid, printableString, seq, setOf, smallInteger, tlv } from '../../core/crypto/der-write.js';

export const OIDS = {
  sha256WithRSA: '1.2.840.113549.1.1.11',
  md5WithRSA: '1.2.840.113549.1.1.4',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  ed25519: '1.3.101.112',
  san: '2.5.29.17',
  extensionRequest: '1.2.840.113549.1.9.14',
  cn: '2.5.4.3',
};

export const cnName = (cn: string): Uint8Array => seq(setOf(seq(oid(OIDS.cn), printableString(cn))));

export const extensionRequest = (...extensions: Uint8Array[]): Uint8Array =>
  seq(oid(OIDS.extensionRequest), setOf(seq(...extensions)));

export const extension = (id: string, value: Uint8Array): Uint8Array => seq(oid(id), octetString(value));

export interface CraftOptions {
  key: KeyObject;
  /** SPKI DER; default: the key's. */
  spki?: Uint8Array;
  subject?: Uint8Array;
  attributes?: Uint8Array[];
  /** AlgorithmIdentifier DER; default: matches the key. */
  signatureAlgorithm?: Uint8Array;
  /** Hash for node's sign(); default: matches the key. */
  hash?: string | null;
}

/** Builds and signs a CertificationRequest from parts; returns PEM. */
export function craftCsr(o: CraftOptions): string {
  const type = o.key.asymmetricKeyType;
  const spki = o.spki ?? new Uint8Array(createPublicKey(o.key).export({ type: 'spki', format: 'der' }));
  const info = seq(
    smallInteger(0),
    o.subject ?? cnName('crafted'),
    spki,
    tlv(0xa0, Buffer.concat((o.attributes ?? []).map((a) => Buffer.from(a)))),
  );
  const defaultAlg = type === 'rsa' ? seq(oid(OIDS.sha256WithRSA), NULL) : type === 'ed25519' ? seq(oid(OIDS.ed25519)) : seq(oid(OIDS.ecdsaWithSHA256));
  const hash = o.hash !== undefined ? o.hash : type === 'ed25519' ? null : 'sha256';
  const signature = sign(hash, info, o.key);
  return encodePem('CERTIFICATE REQUEST', seq(info, o.signatureAlgorithm ?? defaultAlg, bitString(signature)));
}
