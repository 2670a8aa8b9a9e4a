// What an issued certificate carries beyond the CSR's subject and key, as Go's CreateCertificate
// writes it from the template upstream's signer builds (spec §4.3 "Go x509 encoding details"),
// through both issuing paths (issueCertificate, and issueCertificates, whose WASM batch serves
// P-256 and Ed25519 CAs), for P-256, Ed25519 and RSA CAs. CSRs and CAs are made by openssl and the
// results read by openssl and node's X509Certificate:
//  - subjectAltName: only DNS names, emails, IPs and URIs, in that order (each kind in the CSR's
//    order), IPv4-mapped IPs as 4 bytes; otherName, directoryName and registeredID dropped; no
//    extension when nothing is left; critical only with an empty subject.
//  - no subjectKeyIdentifier on a leaf (one on a CA: SHA-1 of its key bits);
//  - authorityKeyIdentifier = the CA certificate's SKI bytes, and none when the CA has no SKI;
//  - a URI as Go's url.URL.String() writes the parsed URI (go-url-cases.ts), byte-exact.
import assert from 'node:assert/strict';
import { createHash, createPublicKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  createCertificate, createCertificateTypescript, issueCertificate, issueCertificates, parseCertificate, parseCsr,
  type IssuePolicy, type IssueResult, type IssuingCa,
} from '../../core/crypto/index.js';
import { openssl, opensslCa, opensslCsr, type OpensslKeyType } from '../helpers/openssl.js';
import { URI_CASES, csrWithUriSans } from './go-url-cases.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const now = Date.now();
const policy = (isCA = false): IssuePolicy => ({
  usages: ['digital signature', 'key encipherment', 'client auth'], notBefore: new Date(now - 300_000), notAfter: new Date(now + 3600_000), isCA,
});

type Path = 'issueCertificate' | 'issueCertificates';
const PATHS: readonly Path[] = ['issueCertificate', 'issueCertificates'];
const CA_KEYS: readonly OpensslKeyType[] = ['ec-p256', 'ed25519', 'rsa-2048'];
// The WASM batch signs for these CA keys (and CSR keys); anything else goes through issueCertificate.
const BATCHED: readonly OpensslKeyType[] = ['ec-p256', 'ed25519'];

/** Issues every request through `path`; a batch is one issueCertificates call, as the signing pool makes. */
function issueAll(path: Path, pems: readonly string[], ca: IssuingCa, p: IssuePolicy): IssueResult[] {
  if (path === 'issueCertificate') return pems.map((pem) => issueCertificate(pem, ca, p));
  return issueCertificates(pems, ca, p).map((r, i) => {
    assert.ok(!('error' in r), `request ${i}: ${'error' in r ? r.error.message : ''}`);
    return r;
  });
}

/**
 * One test per CA key and path: issues every request, checks each certificate's signature (and that
 * the batch signed it where it can), then hands it to `check` with a label from `what`.
 */
function forEachIssued(caName: string, pems: readonly string[], what: (i: number) => string,
  check: (x: X509Certificate, certPem: string, what: string, i: number) => void): void {
  for (const caKey of CA_KEYS) {
    const caPair = opensslCa(`/CN=${caName}-${caKey}`, caKey, { ski: 'hash' });
    const ca: IssuingCa = { certificatePem: caPair.certPem, privateKey: caPair.keyPem };
    const caX509 = new X509Certificate(caPair.certPem);
    for (const path of PATHS) {
      it(`${caKey} CA, ${path}`, () => {
        issueAll(path, pems, ca, policy()).forEach((cert, i) => {
          const label = what(i);
          if (path === 'issueCertificates' && BATCHED.includes(caKey)) assert.equal(cert.backend.sign, 'wasm', `${label}: signed in the WASM batch`);
          const x = new X509Certificate(cert.certificatePem);
          assert.ok(x.verify(caX509.publicKey), `${label}: signature`);
          check(x, cert.certificatePem, label, i);
        });
      });
    }
  }
}

/** `openssl x509 -noout -ext subjectKeyIdentifier,authorityKeyIdentifier`, as hex (undefined: absent). */
function keyIds(certPem: string): { ski: string | undefined; aki: string | undefined } {
  const text = openssl(['x509', '-noout', '-ext', 'subjectKeyIdentifier,authorityKeyIdentifier'], { input: certPem });
  const value = (label: string): string | undefined => {
    const m = new RegExp(`${label}: *\\n\\s*(?:keyid:)?([0-9A-F:]+)\\n`).exec(text);
    return m ? m[1]!.replace(/:/g, '').toLowerCase() : undefined;
  };
  return { ski: value('Subject Key Identifier'), aki: value('Authority Key Identifier') };
}

// GeneralName tags as Go writes them: [2] dNSName, [1] rfc822Name, [7] iPAddress, [6] URI.
const DNS = 0x82, EMAIL = 0x81, IP = 0x87, URI = 0x86;
const der = (tag: number, content: Uint8Array): Uint8Array => {
  assert.ok(content.length < 128, 'test vectors use short lengths');
  return new Uint8Array([tag, content.length, ...content]);
};
/** A GeneralNames extnValue from [tag, text] (IP: hex bytes) pairs. */
function generalNames(names: ReadonlyArray<readonly [number, string]>): string {
  const parts = names.map(([tag, v]) => der(tag, tag === IP ? Buffer.from(v, 'hex') : Buffer.from(v, 'latin1')));
  return hex(der(0x30, new Uint8Array(Buffer.concat(parts))));
}

const UPN = 'otherName:1.3.6.1.4.1.311.20.2.3;UTF8:admin@corp';
const RID = 'RID:1.2.3.4';
const DIR = 'dirName:dir_sect';
const DIR_SECTION = '[dir_sect]\nO=system:masters\nCN=admin\n';

interface SanCase {
  name: string;
  subject: string;
  sans: string[];
  /** undefined: the certificate has no subjectAltName extension. */
  want?: { names: ReadonlyArray<readonly [number, string]>; text: string; critical: boolean };
}

const SAN_CASES: readonly SanCase[] = [
  {
    name: 'node client CSR with a UPN otherName and a registeredID: no SAN at all',
    subject: '/O=system:nodes/CN=system:node:n1', sans: [UPN, RID],
  },
  {
    name: 'every kind, mixed order: DNS, email, IP, URI in Go order, each in CSR order; the rest dropped',
    subject: '/CN=mixed',
    sans: ['URI:spiffe://cluster.local/ns/a', UPN, 'IP:10.0.0.1', 'email:a@example.com', DIR, 'DNS:b.example', RID,
      'IP:2001:db8::1', 'DNS:a.example', 'email:b@example.com', 'URI:urn:x'],
    want: {
      names: [[DNS, 'b.example'], [DNS, 'a.example'], [EMAIL, 'a@example.com'], [EMAIL, 'b@example.com'], [IP, '0a000001'],
        [IP, '20010db8000000000000000000000001'], [URI, 'spiffe://cluster.local/ns/a'], [URI, 'urn:x']],
      text: 'DNS:b.example, DNS:a.example, email:a@example.com, email:b@example.com, IP Address:10.0.0.1, '
        + 'IP Address:2001:DB8:0:0:0:0:0:1, URI:spiffe://cluster.local/ns/a, URI:urn:x',
      critical: false,
    },
  },
  {
    name: 'IPs: an IPv4-mapped address becomes 4 bytes (net.IP.To4); IPv4-compatible and ::1 stay 16',
    subject: '/CN=ips', sans: ['IP:::ffff:192.0.2.7', 'IP:::1.2.3.4', 'IP:::1', 'IP:192.0.2.8'],
    want: {
      names: [[IP, 'c0000207'], [IP, '00000000000000000000000001020304'], [IP, '00000000000000000000000000000001'], [IP, 'c0000208']],
      text: 'IP Address:192.0.2.7, IP Address:0:0:0:0:0:0:102:304, IP Address:0:0:0:0:0:0:0:1, IP Address:192.0.2.8',
      critical: false,
    },
  },
  {
    name: 'empty subject: the SAN is critical, still only the four kinds',
    subject: '/', sans: [DIR, 'DNS:e.example', UPN],
    want: { names: [[DNS, 'e.example']], text: 'DNS:e.example', critical: true },
  },
  { name: 'empty subject, only an otherName: no SAN', subject: '/', sans: [UPN] },
  { name: 'no SAN requested', subject: '/CN=plain', sans: [] },
];

describe('issued subjectAltName: the four kinds Go writes, in Go order', () => {
  // Each case with a P-256 and an Ed25519 CSR key (both are the batch's).
  const requests = SAN_CASES.flatMap((c) => (['ec-p256', 'ed25519'] as const).map((keyType) => ({
    c, keyType,
    pem: opensslCsr({ keyType, subject: c.subject, ...(c.sans.length > 0 ? { sans: c.sans } : {}), configSections: DIR_SECTION }).csrPem,
  })));

  forEachIssued('san-ca', requests.map((r) => r.pem), (i) => `${requests[i]!.c.name} (${requests[i]!.keyType} CSR)`, (x, certPem, what, i) => {
    const { c } = requests[i]!;
    const san = parseCertificate(certPem).extensions.filter((e) => e.oid === '2.5.29.17');
    const shown = openssl(['x509', '-noout', '-ext', 'subjectAltName'], { input: certPem });
    assert.doesNotMatch(shown, /othername|DirName|Registered ID/i, what);
    if (c.want === undefined) {
      assert.equal(san.length, 0, `${what}: no SAN extension`);
      assert.equal(x.subjectAltName, undefined, what);
      return;
    }
    assert.equal(san.length, 1, what);
    assert.equal(hex(san[0]!.value), generalNames(c.want.names), `${what}: SAN bytes`);
    assert.equal(san[0]!.critical, c.want.critical, `${what}: critical`);
    assert.equal(x.subjectAltName, c.want.text, what);
    assert.ok(shown.includes(c.want.text), `${what}: openssl shows ${shown}`);
  });

  it('takes the names from the verified DER, not from the fields of a ParsedCsr copy', () => {
    const caPair = opensslCa('/CN=copy-ca', 'ec-p256', { ski: 'hash' });
    const pem = opensslCsr({ subject: '/CN=copy', sans: ['DNS:real.example', UPN] }).csrPem;
    const copy = { ...parseCsr(pem), dnsNames: ['forged.example'], uris: ['spiffe://forged'] };
    const x = new X509Certificate(issueCertificate(copy, { certificatePem: caPair.certPem, privateKey: caPair.keyPem }, policy()).certificatePem);
    assert.equal(x.subjectAltName, 'DNS:real.example');
  });
});

describe("issued URI SANs: Go's url.URL.String() of the parsed URI, not the requested bytes", () => {
  // Every URI of go-url-cases.ts that Go accepts, one CSR each, with a P-256 and an Ed25519 key.
  const accepted = URI_CASES.filter((c) => c.string !== undefined);
  const keys = [generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, generateKeyPairSync('ed25519').privateKey];
  const requests = keys.flatMap((key) => accepted.map((c) => ({ c, pem: csrWithUriSans(key, c.uri), keyType: key.asymmetricKeyType })));
  forEachIssued('uri-ca', requests.map((r) => r.pem), (i) => `${JSON.stringify(requests[i]!.c.uri)} (${requests[i]!.keyType} CSR)`, (_x, certPem, what, i) => {
    const san = parseCertificate(certPem).extensions.filter((e) => e.oid === '2.5.29.17');
    assert.equal(san.length, 1, what);
    assert.equal(hex(san[0]!.value), generalNames([[URI, requests[i]!.c.string!]]), `${what}: SAN bytes`);
  });

  it('templates (createCertificate, both builders) write String() too, and refuse a URI url.Parse rejects', () => {
    const key = keys[0]!;
    const template = {
      subject: { commonName: 'uri-template' }, notBefore: new Date(now - 60_000), notAfter: new Date(now + 3600_000),
      uris: ['HTTPS://Example.com/a%2fb', 'http://h/a b', 'urn:ExAmple:x'],
    };
    for (const build of [createCertificate, createCertificateTypescript]) {
      const cert = parseCertificate(build({ template, publicKey: key, signer: key }).certificatePem);
      const san = cert.extensions.find((e) => e.oid === '2.5.29.17')!;
      assert.equal(hex(san.value), generalNames([[URI, 'https://Example.com/a%2fb'], [URI, 'http://h/a%20b'], [URI, 'urn:ExAmple:x']]), build.name);
      assert.throws(() => build({ template: { ...template, uris: ['http://h/%zz'] }, publicKey: key, signer: key }), RangeError, build.name);
    }
  });
});

describe('issued key identifiers: no SKI on a leaf, AKI = the CA\'s SKI or none', () => {
  // The CA's SKI: openssl's SHA-1 'hash', bytes of our choosing (so a computed AKI cannot pass
  // for a copied one), or none at all.
  const SKIS = [
    { name: 'SKI = hash', ski: 'hash' },
    { name: 'SKI = chosen bytes', ski: 'C0:FF:EE:01:23:45:67:89' },
    { name: 'no SKI', ski: 'none' },
  ];
  const leafKeys = (['ec-p256', 'ed25519'] as const).map((keyType) => {
    const r = opensslCsr({ keyType, subject: `/CN=leaf-${keyType}` });
    // Go's CA SKI (RFC 5280 method 1): SHA-1 of the subjectPublicKey bits, the SPKI's tail.
    const spki = createPublicKey(r.keyPem).export({ type: 'spki', format: 'der' });
    const bits = spki.subarray(spki.length - (keyType === 'ed25519' ? 32 : 65));
    return { keyType, pem: r.csrPem, ownSki: createHash('sha1').update(bits).digest('hex') };
  });

  for (const caKey of CA_KEYS) {
    for (const s of SKIS) {
      const caPair = opensslCa(`/CN=kid-ca-${caKey}`, caKey, { ski: s.ski });
      const ca: IssuingCa = { certificatePem: caPair.certPem, privateKey: caPair.keyPem };
      const caSki = keyIds(caPair.certPem).ski;
      it(`${caKey} CA, ${s.name}: both paths, leaves and CAs`, () => {
        assert.equal(caSki === undefined, s.ski === 'none', 'the CA is as intended');
        if (s.ski.includes(':')) assert.equal(caSki, s.ski.replace(/:/g, '').toLowerCase());
        for (const path of PATHS) {
          for (const isCA of [false, true]) {
            const out = issueAll(path, leafKeys.map((l) => l.pem), ca, policy(isCA));
            out.forEach((cert, i) => {
              const what = `${path}, isCA ${isCA}, ${leafKeys[i]!.keyType} CSR`;
              if (path === 'issueCertificates' && BATCHED.includes(caKey)) assert.equal(cert.backend.sign, 'wasm', `${what}: signed in the WASM batch`);
              const ids = keyIds(cert.certificatePem);
              assert.equal(ids.ski, isCA ? leafKeys[i]!.ownSki : undefined, `${what}: SKI`);
              assert.equal(ids.aki, caSki, `${what}: AKI`);
            });
          }
        }
      });
    }
  }
});
