// Certificates that Go 1.23's x509.ParseCertificates refuses (or takes) in its extension, key and
// validity rules, each with Go's exact text: one table for the TypeScript reference and the facade
// (certificate-pem.test.ts), the WASM-vs-TypeScript comparison (wasm-parse.test.ts) and the API (cases.ts).
import { Buffer } from 'node:buffer';
import { bitString, explicit, ia5String, oid, seq, smallInteger, tlv, utf8String } from '../../core/crypto/der-write.js';
import { extension, withExtensions, withTbsFields } from './cert-craft.js';

export interface GoParseCase {
  id: string;
  der: Uint8Array;
  /** Go's error text; absent when Go takes the certificate. */
  error?: string;
  /**
   * Go takes it but node's X509Certificate (OpenSSL), the TypeScript reference's second parse, does
   * not: validateCertificatePemTypescript says 'x509: malformed certificate' (the WASM core, which
   * the facade uses, gives Go's verdict).
   */
  nodeRefuses?: true;
}

const NC = '2.5.29.30';
const CRL_DP = '2.5.29.31';
const POLICIES = '2.5.29.32';
const AIA = '1.3.6.1.5.5.7.1.1';
const OCSP = '1.3.6.1.5.5.7.48.1';
const DSA = '1.2.840.10040.4.1';

const bytes = (text: string): Uint8Array => Buffer.from(text, 'latin1');
const raw = (...b: number[]): Uint8Array => Uint8Array.from(b);
/** A GeneralSubtree whose base is the GeneralName [tag] with this content. */
const subtree = (tag: number, content: Uint8Array): Uint8Array => seq(tlv(0x80 | tag, content));
const permitted = (...subtrees: Uint8Array[]): Uint8Array => explicit(0, concatAll(subtrees));
const excluded = (...subtrees: Uint8Array[]): Uint8Array => explicit(1, concatAll(subtrees));
const concatAll = (parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));
const utc = (text: string): Uint8Array => tlv(0x17, bytes(text));
const generalized = (text: string): Uint8Array => tlv(0x18, bytes(text));
const dsaSpki = (params: Uint8Array | undefined, key: Uint8Array): Uint8Array =>
  seq(seq(oid(DSA), ...(params === undefined ? [] : [params])), bitString(key));

/** The cases, built on `der`: a v3 certificate with extensions (its signature is never checked). */
export function goParseCases(der: Uint8Array): GoParseCase[] {
  const nc = (value: Uint8Array, critical = true): Uint8Array => withExtensions(der, extension(NC, value, critical));
  const ext = (dotted: string, value: Uint8Array): Uint8Array => withExtensions(der, extension(dotted, value));
  const validity = (...content: Uint8Array[]): Uint8Array => withTbsFields(der, { validity: seq(...content) });
  const dsa = (params: Uint8Array | undefined, key: Uint8Array): Uint8Array => withTbsFields(der, { spki: dsaSpki(params, key) });
  const pqg = seq(smallInteger(23), smallInteger(11), smallInteger(4));
  const goodNameConstraints = seq(
    permitted(subtree(2, bytes('.example.com')), subtree(7, raw(10, 0, 0, 0, 255, 0, 0, 0)), subtree(1, bytes('example.com')),
      subtree(1, bytes('"a b"@example.com')), subtree(6, bytes('.example.com')), subtree(6, bytes('fe80::1%eth0'))),
    excluded(subtree(2, bytes('bad.example.com')), subtree(4, seq()), subtree(7, new Uint8Array(32))),
  );
  // What Go takes, all in one certificate: well-formed extensions of every kind checked here, a DSA key,
  // and a Validity of a UTCTime without seconds (with an offset) and a GeneralizedTime.
  const taken = withTbsFields(withExtensions(der,
    extension(NC, goodNameConstraints, true),
    extension(CRL_DP, seq(seq(explicit(0, explicit(0, tlv(0x86, bytes('http://crl.example/ca.crl'))))), seq())),
    extension(POLICIES, seq(seq(oid('2.5.29.32.0')), seq(oid('1.3.99999999999')))),
    extension(AIA, seq(seq(oid(OCSP), tlv(0x86, bytes('http://ocsp.example'))), seq(oid(OCSP), tlv(0x82, bytes('x'))))),
  ), { spki: dsaSpki(pqg, smallInteger(5)), validity: seq(utc('2401010000+0130'), generalized('20500101000000-0800')) });
  return [
    { id: 'Go takes: every extension kind, a DSA key, UTCTime without seconds', der: taken },
    // nameConstraints (parseNameConstraintsExtension)
    { id: 'name constraints: empty SEQUENCE', der: nc(seq()), error: 'x509: empty name constraints extension' },
    { id: 'name constraints: empty permitted subtrees only', der: nc(seq(explicit(0, new Uint8Array(0)))), error: 'x509: empty name constraints extension' },
    { id: 'name constraints: IP of length 3', der: nc(seq(permitted(subtree(7, raw(1, 2, 3))))), error: 'x509: IP constraint contained value of length 3' },
    { id: 'name constraints: IP mask ff00ff00', der: nc(seq(permitted(subtree(7, raw(10, 0, 0, 0, 0xff, 0, 0xff, 0))))),
      error: 'x509: IP constraint contained invalid mask ff00ff00' },
    { id: 'name constraints: dNSName ".."', der: nc(seq(permitted(subtree(2, bytes('..'))))), error: 'x509: failed to parse dnsName constraint ".."' },
    { id: 'name constraints: dNSName with a trailing dot', der: nc(seq(excluded(subtree(2, bytes('example.com.'))))),
      error: 'x509: failed to parse dnsName constraint "example.com."' },
    { id: 'name constraints: dNSName not IA5', der: nc(seq(permitted(subtree(2, bytes('caf\xc3\xa9\xff'))))),
      error: 'x509: invalid constraint value: x509: "café\\xff" cannot be encoded as an IA5String' },
    { id: 'name constraints: URI that is an IPv4 address', der: nc(seq(permitted(subtree(6, bytes('10.0.0.1'))))),
      error: 'x509: failed to parse URI constraint "10.0.0.1": cannot be IP address' },
    { id: 'name constraints: URI that is an IPv6 address', der: nc(seq(permitted(subtree(6, bytes('2001:db8::1.2.3.4'))))),
      error: 'x509: failed to parse URI constraint "2001:db8::1.2.3.4": cannot be IP address' },
    { id: 'name constraints: URI with an empty label', der: nc(seq(permitted(subtree(6, bytes('a..b'))))), error: 'x509: failed to parse URI constraint "a..b"' },
    { id: 'name constraints: rfc822Name mailbox with ".."', der: nc(seq(permitted(subtree(2, bytes('ok.example'))), excluded(subtree(1, bytes('a..b@x'))))),
      error: 'x509: failed to parse rfc822Name constraint "a..b@x"' },
    { id: 'name constraints: rfc822Name domain with a space', der: nc(seq(permitted(subtree(1, bytes('a b'))))), error: 'x509: failed to parse rfc822Name constraint "a b"' },
    { id: 'name constraints: permitted checked before excluded', der: nc(seq(permitted(subtree(7, raw(1))), excluded(subtree(2, bytes('..'))))),
      error: 'x509: IP constraint contained value of length 1' },
    { id: 'name constraints: trailing data after the SEQUENCE', der: nc(concatAll([seq(permitted(subtree(2, bytes('a')))), raw(0)])),
      error: 'x509: invalid NameConstraints extension' },
    { id: 'name constraints: a subtree that is not a SEQUENCE', der: nc(seq(permitted(smallInteger(1)))), error: 'x509: invalid NameConstraints extension' },
    { id: 'name constraints: an element after the excluded subtrees', der: nc(seq(excluded(subtree(2, bytes('a'))), smallInteger(1))),
      error: 'x509: invalid NameConstraints extension' },
    { id: 'name constraints: a subtree without a base', der: nc(seq(permitted(seq()))), error: 'x509: invalid NameConstraints extension' },
    // CRL distribution points, certificate policies, authority info access
    { id: 'CRL distribution points: not a SEQUENCE', der: ext(CRL_DP, ia5String('x')), error: 'x509: invalid CRL distribution points' },
    { id: 'CRL distribution points: a point that is not a SEQUENCE', der: ext(CRL_DP, seq(smallInteger(1))), error: 'x509: invalid CRL distribution point' },
    { id: 'CRL distribution points: nameRelativeToCRLIssuer', der: ext(CRL_DP, seq(seq(explicit(0, explicit(1, new Uint8Array(0)))))),
      error: 'x509: invalid CRL distribution point' },
    { id: 'certificate policies: SEQ(SEQ())', der: ext(POLICIES, seq(seq())), error: 'x509: invalid certificate policies' },
    { id: 'certificate policies: the same OID twice', der: ext(POLICIES, seq(seq(oid('2.5.29.32.0')), seq(oid('2.5.29.32.0')))),
      error: 'x509: invalid certificate policies' },
    { id: 'authority info access: SEQ(SEQ())', der: ext(AIA, seq(seq())), error: 'x509: invalid authority info access' },
    { id: 'authority info access: not a SEQUENCE', der: ext(AIA, utf8String('x')), error: 'x509: invalid authority info access' },
    // Extension fields (parseExtension)
    { id: 'extension OID field not an OID', der: withExtensions(der, seq(smallInteger(1), tlv(0x04, raw()))), error: 'x509: malformed extension OID field' },
    { id: 'extension critical field not DER', der: withExtensions(der, seq(oid('1.2.3'), tlv(0x01, raw(1)), tlv(0x04, raw()))),
      error: 'x509: malformed extension critical field' },
    { id: 'extension without a value', der: withExtensions(der, seq(oid('1.2.3'))), error: 'x509: malformed extension value field' },
    { id: 'extensions that are not a SEQUENCE', der: withTbsFields(der, { extensions: explicit(3, smallInteger(1)) }), error: 'x509: malformed extensions' },
    // DSA keys (parsePublicKey)
    { id: 'DSA key: not an INTEGER', der: dsa(pqg, bytes('\x04\x01\x05')), error: 'x509: invalid DSA public key' },
    { id: 'DSA key: no parameters', der: dsa(undefined, smallInteger(5)), error: 'x509: invalid DSA parameters' },
    { id: 'DSA key: two parameters', der: dsa(seq(smallInteger(23), smallInteger(11)), smallInteger(5)), error: 'x509: invalid DSA parameters' },
    { id: 'DSA key: Q zero', der: dsa(seq(smallInteger(23), smallInteger(0), smallInteger(4)), smallInteger(5)), error: 'x509: zero or negative DSA parameter' },
    { id: 'DSA key: Y negative', der: dsa(pqg, tlv(0x02, raw(0xff))), error: 'x509: zero or negative DSA parameter' },
    // SubjectPublicKeyInfo (parseCertificate's steps, parseAI)
    { id: 'SPKI algorithm that is not a SEQUENCE', der: withTbsFields(der, { spki: seq(oid(DSA), bitString(raw(1))) }),
      error: 'x509: malformed public key algorithm identifier' },
    { id: 'SPKI algorithm without an OID', der: withTbsFields(der, { spki: seq(seq(smallInteger(1)), bitString(raw(1))) }), error: 'x509: malformed OID' },
    { id: 'SPKI algorithm parameters that do not read', der: withTbsFields(der, { spki: seq(seq(oid(DSA), raw(0x30)), bitString(raw(1))) }),
      error: 'x509: malformed parameters' },
    { id: 'SPKI key that is not a BIT STRING', der: withTbsFields(der, { spki: seq(seq(oid(DSA)), tlv(0x04, raw(1))) }), error: 'x509: malformed subjectPublicKey' },
    // Validity (parseValidity, readASN1Time)
    { id: 'validity: a third element is not looked at', der: validity(utc('240101000000Z'), utc('250101000000Z'), smallInteger(7)), nodeRefuses: true },
    { id: 'validity: UTCTime month 13', der: validity(utc('241301000000Z'), utc('250101000000Z')), error: 'x509: malformed UTCTime' },
    { id: 'validity: UTCTime +0000', der: validity(utc('240101000000Z'), utc('250101000000+0000')), error: 'x509: malformed UTCTime' },
    { id: 'validity: GeneralizedTime with a fraction', der: validity(generalized('20240101000000.5Z'), utc('250101000000Z')), error: 'x509: malformed GeneralizedTime' },
    { id: 'validity: a time that is an INTEGER', der: validity(smallInteger(1), utc('250101000000Z')), error: 'x509: unsupported time format' },
    { id: 'validity: one time only', der: validity(utc('240101000000Z')), error: 'x509: unsupported time format' },
  ];
}
