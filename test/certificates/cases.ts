// THE TABLE: one entry per rule of spec 01 and k8s-behaviour §1.2–§1.4, in a shape that can be
// replayed through the strategies directly (validation.test.ts) and later over HTTP.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { oid, seq, setOf, smallInteger, tlv } from '../../core/crypto/der-write.js';
import { extension, withExtensions, withTbsFields } from '../crypto/cert-craft.js';
import { craftCsr, craftMlDsaCsr, mlDsaKeys, OIDS } from '../crypto/csr-craft.js';
import { csrWithUriSans } from '../crypto/go-url-cases.js';
import { b64, BASE_SIGNER, pem, pemBody, type Fixtures } from './fixtures.js';

export interface CsrCase {
  name: string;
  /** create: mutate a valid base object then POST it. update: create a valid CSR, run `setup` steps (each must succeed), then GET it, mutate it, PUT it to the subresource. */
  op: 'create' | 'update';
  subresource?: '' | 'status' | 'approval';
  setup?: { subresource: '' | 'status' | 'approval'; mutate: (obj: any) => void }[];
  mutate: (obj: any) => void;
  /** Expected failure (422 unless code given) with the cause's field and message, or `ok` with an optional check of the stored result. */
  expect: { code?: number; field: string; message: string | RegExp } | { ok: true; check?: (stored: any) => void };
}

const VALID_USAGES_TEXT = '"any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", '
  + '"data encipherment", "decipher only", "digital signature", "email protection", "encipher only", '
  + '"ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", '
  + '"netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"';
const LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const conditions = (obj: any): any[] => (obj.status ??= {}).conditions ??= [];
const add = (cond: Record<string, unknown>) => (obj: any): void => { conditions(obj).push(cond); };
const approve = add({ type: 'Approved', status: 'True', reason: 'TestApprove', message: 'approved by the test' });
const deny = add({ type: 'Denied', status: 'True', reason: 'TestDeny', message: 'denied by the test' });
const fail = add({ type: 'Failed', status: 'True', reason: 'TestFail', message: 'failed by the test' });
const setCert = (text: string) => (obj: any): void => { (obj.status ??= {}).certificate = b64(text); };
const setSigner = (name: string) => (obj: any): void => { obj.spec.signerName = name; };
const types = (stored: any): string[] => (stored.status?.conditions ?? []).map((c: any) => c.type);

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const uriKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;

export function csrCases(fx: Fixtures): CsrCase[] {
  const invalid = (field: string, message: string | RegExp) => ({ field, message });
  const csrDer = pemBody(fx.ecCsrPem);
  const wrongLabel = pem('CERTIFICATE', csrDer);
  const garbageDer = pem('CERTIFICATE REQUEST', Buffer.from('garbage, not DER'));
  const certDer = pemBody(fx.certPem);
  const requestValue = (text: string): string => JSON.stringify(b64(text));
  const labels64 = 'a'.repeat(64);
  const longDomain = Array.from({ length: 5 }, () => 'd'.repeat(60)).join('.') + '.com'; // 304 bytes
  const longPath = ['a', 'b', 'c'].map((ch) => ch.repeat(200)).join('.');
  // One crafted CSR per URI, made once (the expectation must name the same bytes the request sends).
  const uriCsrs = new Map<string, string>();
  const uriCsr = (uri: string): string => {
    if (!uriCsrs.has(uri)) uriCsrs.set(uri, csrWithUriSans(uriKey, uri));
    return uriCsrs.get(uri)!;
  };
  const cnCsr = (tag: number, latin1: string): string =>
    craftCsr({ key: uriKey, subject: seq(setOf(seq(oid(OIDS.cn), tlv(tag, Buffer.from(latin1, 'latin1'))))) });
  const badUtf8Csr = cnCsr(0x0c, 'al\xffice');
  const t61Csr = cnCsr(0x14, 'al\xe9ce');
  const mlDsaCsr = craftMlDsaCsr({ keys: mlDsaKeys('ML-DSA-65') });
  const badMlDsaCsr = craftMlDsaCsr({ keys: mlDsaKeys('ML-DSA-65'), tamper: (sig) => { const t = sig.slice(); t[0]! ^= 1; return t; } });

  return [
    // ---- baseline
    { name: 'valid EC P-256 request is accepted', op: 'create', mutate: () => {}, expect: { ok: true } },
    { name: 'valid RSA request is accepted', op: 'create', mutate: (o) => { o.spec.request = b64(fx.rsaCsrPem); }, expect: { ok: true } },

    // ---- spec.request (§1.2 item 2)
    { name: 'request missing', op: 'create', mutate: (o) => { delete o.spec.request; },
      expect: invalid('spec.request', 'Invalid value: null: PEM block type must be CERTIFICATE REQUEST') },
    { name: 'request empty', op: 'create', mutate: (o) => { o.spec.request = ''; },
      expect: invalid('spec.request', 'Invalid value: "": PEM block type must be CERTIFICATE REQUEST') },
    { name: 'request without any PEM block', op: 'create', mutate: (o) => { o.spec.request = b64('hello world'); },
      expect: invalid('spec.request', `Invalid value: ${requestValue('hello world')}: PEM block type must be CERTIFICATE REQUEST`) },
    { name: 'request with wrong PEM label', op: 'create', mutate: (o) => { o.spec.request = b64(wrongLabel); },
      expect: invalid('spec.request', `Invalid value: ${requestValue(wrongLabel)}: PEM block type must be CERTIFICATE REQUEST`) },
    { name: 'request with garbage DER', op: 'create', mutate: (o) => { o.spec.request = b64(garbageDer); },
      expect: invalid('spec.request', /^Invalid value: "[A-Za-z0-9+/=]+": (asn1|x509): .+/) },
    { name: 'request with a broken signature', op: 'create', mutate: (o) => { o.spec.request = b64(fx.badSignatureCsrPem); },
      expect: invalid('spec.request', `Invalid value: ${requestValue(fx.badSignatureCsrPem)}: x509: ECDSA verification failure`) },
    // ML-DSA keys (RFC 9881, Go 1.27): proof of possession is checked as for any key.
    { name: 'valid ML-DSA-65 request is accepted', op: 'create', mutate: (o) => { o.spec.request = b64(mlDsaCsr); }, expect: { ok: true } },
    { name: 'request with a broken ML-DSA signature', op: 'create', mutate: (o) => { o.spec.request = b64(badMlDsaCsr); },
      expect: invalid('spec.request', `Invalid value: ${requestValue(badMlDsaCsr)}: x509: ML-DSA verification failure: mldsa: invalid signature`) },
    // URI SANs go through Go's url.Parse and the Host check (crypto/x509 parseSANExtension).
    { name: 'request with a URI SAN url.Parse rejects (the url.Error names the text before #)', op: 'create',
      mutate: (o) => { o.spec.request = b64(uriCsr('spiffe://cluster.local/ns/%zz#x')); },
      expect: invalid('spec.request', `Invalid value: ${requestValue(uriCsr('spiffe://cluster.local/ns/%zz#x'))}: `
        + 'x509: cannot parse URI "spiffe://cluster.local/ns/%zz#x": parse "spiffe://cluster.local/ns/%zz": invalid URL escape "%zz"') },
    { name: 'request with a URI SAN holding a control character (Go\'s %q quoting)', op: 'create',
      mutate: (o) => { o.spec.request = b64(uriCsr('spiffe://x/\ty\x7f')); },
      expect: invalid('spec.request', `Invalid value: ${requestValue(uriCsr('spiffe://x/\ty\x7f'))}: `
        + 'x509: cannot parse URI "spiffe://x/\\ty\\x7f": parse "spiffe://x/\\ty\\x7f": net/url: invalid control character in URL') },
    { name: 'request with a URI SAN whose host is not a domain', op: 'create',
      mutate: (o) => { o.spec.request = b64(uriCsr('spiffe://cluster..local/ns/a')); },
      expect: invalid('spec.request', `Invalid value: ${requestValue(uriCsr('spiffe://cluster..local/ns/a'))}: `
        + 'x509: cannot parse URI "spiffe://cluster..local/ns/a": invalid domain') },
    { name: 'request with an unusual URI SAN Go accepts', op: 'create',
      mutate: (o) => { o.spec.request = b64(uriCsr('HTTPS://Example.com/a b?q r#f g')); }, expect: { ok: true } },
    // Go reads the subject with encoding/asn1: a bad UTF8String is parseUTF8String's plain error; a
    // T61String takes any byte (signing it fails later, not validation).
    { name: 'request with a UTF8String CN that is not UTF-8', op: 'create', mutate: (o) => { o.spec.request = b64(badUtf8Csr); },
      expect: invalid('spec.request', `Invalid value: ${requestValue(badUtf8Csr)}: asn1: invalid UTF-8 string`) },
    { name: 'request with a T61String CN holding a Latin-1 byte is accepted', op: 'create', mutate: (o) => { o.spec.request = b64(t61Csr); },
      expect: { ok: true } },
    { name: 'request: junk before and data after the first block are ignored', op: 'create',
      mutate: (o) => { o.spec.request = b64(`explanatory text\n${fx.ecCsrPem}trailing junk\n${wrongLabel}`); }, expect: { ok: true } },
    { name: 'request: PEM headers are not rejected', op: 'create',
      mutate: (o) => { o.spec.request = b64(pem('CERTIFICATE REQUEST', csrDer, 'Comment: made by a test\n\n')); }, expect: { ok: true } },

    // ---- spec.usages (item 3)
    { name: 'usages empty', op: 'create', mutate: (o) => { o.spec.usages = []; }, expect: invalid('spec.usages', 'Required value') },
    { name: 'usages missing', op: 'create', mutate: (o) => { delete o.spec.usages; }, expect: invalid('spec.usages', 'Required value') },
    { name: 'usages: unknown value', op: 'create', mutate: (o) => { o.spec.usages = ['digital signature', 'foo']; },
      expect: invalid('spec.usages[1]', `Unsupported value: "foo": supported values: ${VALID_USAGES_TEXT}`) },
    { name: 'usages: duplicate value reported at the later index', op: 'create',
      mutate: (o) => { o.spec.usages = ['digital signature', 'client auth', 'digital signature']; },
      expect: invalid('spec.usages[2]', 'Duplicate value: "digital signature"') },

    // ---- spec.signerName (item 4)
    { name: 'signerName empty', op: 'create', mutate: setSigner(''), expect: invalid('spec.signerName', 'Required value') },
    { name: 'signerName without a slash', op: 'create', mutate: setSigner('example.com'),
      expect: invalid('spec.signerName', "Invalid value: \"example.com\": must be a fully qualified domain and path of the form 'example.com/signer-name'") },
    { name: 'signerName with two slashes', op: 'create', mutate: setSigner('example.com/a/b'),
      expect: invalid('spec.signerName', "Invalid value: \"example.com/a/b\": must be a fully qualified domain and path of the form 'example.com/signer-name'") },
    { name: 'signerName domain label with uppercase', op: 'create', mutate: setSigner('Example.com/signer'),
      expect: invalid('spec.signerName', `Invalid value: "Example.com": validating label "Example": ${LABEL_MSG}`) },
    { name: 'signerName domain label longer than 63', op: 'create', mutate: setSigner(`${labels64}.com/signer`),
      expect: invalid('spec.signerName', `Invalid value: "${labels64}.com": validating label "${labels64}": must be no more than 63 characters`) },
    { name: 'signerName single-segment domain', op: 'create', mutate: setSigner('example/signer'),
      expect: invalid('spec.signerName', 'Invalid value: "example": should be a domain with at least two segments separated by dots') },
    { name: 'signerName platform/apiserver-client accepted (project decision)', op: 'create', mutate: setSigner('platform/apiserver-client'), expect: { ok: true } },
    { name: 'signerName platform/<custom> accepted', op: 'create', mutate: setSigner('platform/my-signer.v1'), expect: { ok: true } },
    { name: 'signerName path with uppercase', op: 'create', mutate: setSigner('example.com/Signer'),
      expect: invalid('spec.signerName', `Invalid value: "Signer": validating label "Signer": ${SUBDOMAIN_MSG}`) },
    { name: 'signerName path: the bad value is the whole path', op: 'create', mutate: setSigner('example.com/ok.B_ad'),
      expect: invalid('spec.signerName', `Invalid value: "ok.B_ad": validating label "B_ad": ${SUBDOMAIN_MSG}`) },
    { name: 'signerName empty path', op: 'create', mutate: setSigner('example.com/'),
      expect: invalid('spec.signerName', `Invalid value: "": validating label "": ${SUBDOMAIN_MSG}`) },
    { name: 'signerName domain over 253 bytes', op: 'create', mutate: setSigner(`${longDomain}/signer`),
      expect: invalid('spec.signerName', 'Too long: may not be more than 253 bytes') },
    { name: 'signerName over 571 bytes in total', op: 'create', mutate: setSigner(`example.com/${longPath}`),
      expect: invalid('spec.signerName', 'Too long: may not be more than 571 bytes') },
    { name: 'signerName legacy-unknown cannot be created', op: 'create', mutate: setSigner('platform/legacy-unknown'),
      expect: invalid('spec.signerName', 'Invalid value: "platform/legacy-unknown": the legacy signerName is not allowed via this API version') },

    // ---- spec.expirationSeconds (item 5)
    { name: 'expirationSeconds 599 rejected', op: 'create', mutate: (o) => { o.spec.expirationSeconds = 599; },
      expect: invalid('spec.expirationSeconds', 'Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)') },
    { name: 'expirationSeconds 600 accepted', op: 'create', mutate: (o) => { o.spec.expirationSeconds = 600; },
      expect: { ok: true, check: (s) => assert.equal(s.spec.expirationSeconds, 600) } },

    // ---- server-set fields on create (§2.2)
    { name: 'create: requester fields cannot be spoofed', op: 'create',
      mutate: (o) => { Object.assign(o.spec, { username: 'mallory', uid: 'spoofed-uid', groups: ['spoofed-group'], extra: { spoofed: ['x'] } }); },
      expect: { ok: true, check: (s) => {
        assert.notEqual(s.spec.username, 'mallory');
        assert.notEqual(s.spec.uid, 'spoofed-uid');
        assert.ok(!(s.spec.groups ?? []).includes('spoofed-group'));
        assert.equal(s.spec.extra?.spoofed, undefined);
      } } },
    { name: 'create: a client-supplied status is dropped', op: 'create',
      mutate: (o) => { approve(o); setCert(fx.certPem)(o); },
      expect: { ok: true, check: (s) => assert.deepEqual(s.status ?? {}, {}) } },

    // ---- status.conditions (item 6)
    { name: 'condition with empty type', op: 'update', subresource: 'status', mutate: add({ type: '', status: 'True' }),
      expect: invalid('status.conditions[0].type', 'Required value') },
    { name: 'condition with empty status', op: 'update', subresource: 'status', mutate: add({ type: 'Custom', status: '' }),
      expect: invalid('status.conditions[0].status', 'Required value') },
    { name: 'Approved with status False', op: 'update', subresource: 'approval', mutate: add({ type: 'Approved', status: 'False' }),
      expect: invalid('status.conditions[0].status', 'Unsupported value: "False": supported values: "True"') },
    { name: 'Denied with status Unknown', op: 'update', subresource: 'approval', mutate: add({ type: 'Denied', status: 'Unknown' }),
      expect: invalid('status.conditions[0].status', 'Unsupported value: "Unknown": supported values: "True"') },
    { name: 'Failed with status False', op: 'update', subresource: 'status', mutate: add({ type: 'Failed', status: 'False' }),
      expect: invalid('status.conditions[0].status', 'Unsupported value: "False": supported values: "True"') },
    { name: 'custom condition with status False accepted', op: 'update', subresource: 'status', mutate: add({ type: 'Custom', status: 'False' }),
      expect: { ok: true, check: (s) => assert.deepEqual(types(s), ['Custom']) } },
    { name: 'custom condition with an unknown status', op: 'update', subresource: 'status', mutate: add({ type: 'Custom', status: 'Maybe' }),
      expect: invalid('status.conditions[0].status', 'Unsupported value: "Maybe": supported values: "False", "True", "Unknown"') },
    { name: 'Approved and Denied together', op: 'update', subresource: 'approval', mutate: (o) => { approve(o); deny(o); },
      expect: invalid('status.conditions[1].type', 'Invalid value: "Denied": Approved and Denied conditions are mutually exclusive') },
    { name: 'Denying an approved request', op: 'update', subresource: 'approval', setup: [{ subresource: 'approval', mutate: approve }], mutate: deny,
      expect: invalid('status.conditions[1].type', 'Invalid value: "Denied": Approved and Denied conditions are mutually exclusive') },
    { name: 'Approving a denied request', op: 'update', subresource: 'approval', setup: [{ subresource: 'approval', mutate: deny }], mutate: approve,
      expect: invalid('status.conditions[1].type', 'Invalid value: "Approved": Approved and Denied conditions are mutually exclusive') },
    { name: 'duplicate condition type', op: 'update', subresource: 'status', mutate: (o) => { fail(o); fail(o); },
      expect: invalid('status.conditions[1].type', 'Duplicate value: "Failed"') },

    // ---- approval through the right and the wrong door (§1.3, §1.4)
    { name: 'approve through /approval', op: 'update', subresource: 'approval', mutate: approve,
      expect: { ok: true, check: (s) => {
        assert.deepEqual(types(s), ['Approved']);
        assert.match(s.status.conditions[0].lastUpdateTime, RFC3339);
        assert.match(s.status.conditions[0].lastTransitionTime, RFC3339);
      } } },
    // reason and message are `omitempty` strings in certificates/v1: an empty one is never served.
    { name: 'empty reason and message are dropped through /approval', op: 'update', subresource: 'approval',
      mutate: add({ type: 'Approved', status: 'True', reason: '', message: '' }),
      expect: { ok: true, check: (s) => assert.deepEqual(Object.keys(s.status.conditions[0]).filter((k) => k === 'reason' || k === 'message'), []) } },
    { name: 'empty reason and message are dropped through /status', op: 'update', subresource: 'status',
      mutate: add({ type: 'Failed', status: 'True', reason: '', message: '' }),
      expect: { ok: true, check: (s) => assert.deepEqual(Object.keys(s.status.conditions[0]).filter((k) => k === 'reason' || k === 'message'), []) } },
    { name: 'deny through /approval', op: 'update', subresource: 'approval', mutate: deny,
      expect: { ok: true, check: (s) => assert.deepEqual(types(s), ['Denied']) } },
    { name: 'adding Approved through /status is forbidden', op: 'update', subresource: 'status', mutate: approve,
      expect: invalid('status.conditions', 'Forbidden: updates may not add a condition of type "Approved"') },
    { name: 'adding Denied through /status is forbidden', op: 'update', subresource: 'status', mutate: deny,
      expect: invalid('status.conditions', 'Forbidden: updates may not add a condition of type "Denied"') },
    { name: 'adding Approved through the main resource is silently reverted', op: 'update', subresource: '', mutate: approve,
      expect: { ok: true, check: (s) => assert.deepEqual(types(s), []) } },
    { name: 'editing Approved through /status is silently restored', op: 'update', subresource: 'status',
      setup: [{ subresource: 'approval', mutate: approve }],
      mutate: (o) => { o.status.conditions[0].reason = 'Tampered'; o.status.conditions[0].message = 'tampered'; },
      expect: { ok: true, check: (s) => assert.equal(s.status.conditions[0].reason, 'TestApprove') } },
    { name: 'removing Approved through /approval is forbidden', op: 'update', subresource: 'approval',
      setup: [{ subresource: 'approval', mutate: approve }], mutate: (o) => { o.status.conditions = []; },
      expect: invalid('status.conditions', 'Forbidden: updates may not remove a condition of type "Approved"') },
    { name: 'removing Approved through /status is forbidden', op: 'update', subresource: 'status',
      setup: [{ subresource: 'approval', mutate: approve }], mutate: (o) => { o.status.conditions = []; },
      expect: invalid('status.conditions', 'Forbidden: updates may not remove a condition of type "Approved"') },
    { name: 'removing Denied through /approval is forbidden', op: 'update', subresource: 'approval',
      setup: [{ subresource: 'approval', mutate: deny }], mutate: (o) => { delete o.status.conditions; },
      expect: invalid('status.conditions', 'Forbidden: updates may not remove a condition of type "Denied"') },
    { name: 'removing Failed through /status is forbidden', op: 'update', subresource: 'status',
      setup: [{ subresource: 'status', mutate: fail }], mutate: (o) => { o.status.conditions = []; },
      expect: invalid('status.conditions', 'Forbidden: updates may not remove a condition of type "Failed"') },
    { name: 'adding Failed through /status', op: 'update', subresource: 'status',
      setup: [{ subresource: 'approval', mutate: approve }], mutate: fail,
      expect: { ok: true, check: (s) => assert.deepEqual(types(s), ['Approved', 'Failed']) } },
    { name: 'adding Failed through /approval (any type may be set there)', op: 'update', subresource: 'approval', mutate: fail,
      expect: { ok: true, check: (s) => assert.deepEqual(types(s), ['Failed']) } },

    // ---- condition timestamps (§2.4)
    { name: 'transition time kept from the old condition with the same type and status', op: 'update', subresource: 'status',
      setup: [{ subresource: 'status', mutate: add({ type: 'Custom', status: 'True', lastTransitionTime: '2020-01-01T00:00:00Z' }) }],
      mutate: (o) => { o.status.conditions = [{ type: 'Custom', status: 'True', reason: 'Changed' }]; },
      expect: { ok: true, check: (s) => {
        assert.equal(s.status.conditions[0].lastTransitionTime, '2020-01-01T00:00:00Z');
        assert.match(s.status.conditions[0].lastUpdateTime, RFC3339);
      } } },
    { name: 'transition time reset when the status changes', op: 'update', subresource: 'status',
      setup: [{ subresource: 'status', mutate: add({ type: 'Custom', status: 'True', lastTransitionTime: '2020-01-01T00:00:00Z' }) }],
      mutate: (o) => { o.status.conditions = [{ type: 'Custom', status: 'False' }]; },
      expect: { ok: true, check: (s) => {
        assert.notEqual(s.status.conditions[0].lastTransitionTime, '2020-01-01T00:00:00Z');
        assert.match(s.status.conditions[0].lastTransitionTime, RFC3339);
      } } },

    // ---- status.certificate (item 7 and §1.3)
    { name: 'issue a certificate through /status', op: 'update', subresource: 'status',
      setup: [{ subresource: 'approval', mutate: approve }], mutate: setCert(fx.certPem),
      expect: { ok: true, check: (s) => assert.equal(s.status.certificate, b64(fx.certPem)) } },
    { name: 'certificate with a chain and explanatory text', op: 'update', subresource: 'status',
      mutate: setCert(`Issued by a test\n${fx.certPem}${fx.otherCertPem}trailing text\n`), expect: { ok: true } },
    { name: 'certificate through /status without approval (left to admission)', op: 'update', subresource: 'status',
      mutate: setCert(fx.certPem), expect: { ok: true, check: (s) => assert.equal(s.status.certificate, b64(fx.certPem)) } },
    { name: 'certificate that is not PEM', op: 'update', subresource: 'status', mutate: setCert('just text'),
      expect: invalid('status.certificate', 'Invalid value: "<certificate data>": must contain at least one CERTIFICATE PEM block') },
    { name: 'certificate with a wrong PEM label', op: 'update', subresource: 'status', mutate: setCert(pem('PRIVATE KEY', certDer)),
      expect: invalid('status.certificate', 'Invalid value: "<certificate data>": only CERTIFICATE PEM blocks are allowed, found "PRIVATE KEY"') },
    { name: 'certificate with PEM headers', op: 'update', subresource: 'status',
      mutate: setCert(pem('CERTIFICATE', certDer, 'Comment: not allowed\n\n')),
      expect: invalid('status.certificate', 'Invalid value: "<certificate data>": no PEM block headers are permitted') },
    { name: 'certificate block holding 0 certificates', op: 'update', subresource: 'status',
      mutate: setCert('-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n'),
      expect: invalid('status.certificate', 'Invalid value: "<certificate data>": found CERTIFICATE PEM block containing 0 certificates') },
    { name: 'certificate with garbage DER', op: 'update', subresource: 'status', mutate: setCert(pem('CERTIFICATE', Buffer.from('garbage'))),
      expect: invalid('status.certificate', /^Invalid value: "<certificate data>": x509: .+/) },
    { name: 'certificate whose subject holds a non-string value (Go\'s x509 parseName)', op: 'update', subresource: 'status',
      mutate: setCert(pem('CERTIFICATE', withTbsFields(certDer, { subject: seq(setOf(seq(oid(OIDS.cn), smallInteger(5)))) }))),
      expect: invalid('status.certificate', 'Invalid value: "<certificate data>": x509: invalid RDNSequence: invalid attribute value: unsupported string type: 2') },
    { name: 'certificate whose issuer has an attribute without a type', op: 'update', subresource: 'status',
      mutate: setCert(pem('CERTIFICATE', withTbsFields(certDer, { issuer: seq(setOf(seq(tlv(0x13, Buffer.from('a'))))) }))),
      expect: invalid('status.certificate', 'Invalid value: "<certificate data>": x509: invalid RDNSequence: invalid attribute type') },
    { name: 'certificate with an empty name constraints extension (Go\'s x509 parseNameConstraintsExtension)', op: 'update', subresource: 'status',
      mutate: setCert(pem('CERTIFICATE', withExtensions(certDer, extension('2.5.29.30', seq(), true)))),
      expect: invalid('status.certificate', 'Invalid value: "<certificate data>": x509: empty name constraints extension') },
    { name: 'certificate set through the main resource is silently reverted', op: 'update', subresource: '', mutate: setCert(fx.certPem),
      expect: { ok: true, check: (s) => assert.equal(s.status?.certificate, undefined) } },
    { name: 'certificate set through /approval is silently reverted', op: 'update', subresource: 'approval', mutate: setCert(fx.certPem),
      expect: { ok: true, check: (s) => assert.equal(s.status?.certificate, undefined) } },
    { name: 'modifying an issued certificate is forbidden', op: 'update', subresource: 'status',
      setup: [{ subresource: 'status', mutate: setCert(fx.certPem) }], mutate: setCert(fx.otherCertPem),
      expect: invalid('status.certificate', 'Forbidden: updates may not modify existing certificate content') },
    { name: 'removing an issued certificate is forbidden', op: 'update', subresource: 'status',
      setup: [{ subresource: 'status', mutate: setCert(fx.certPem) }], mutate: (o) => { delete o.status.certificate; },
      expect: invalid('status.certificate', 'Forbidden: updates may not modify existing certificate content') },
    { name: 'approval keeps an issued certificate', op: 'update', subresource: 'approval',
      setup: [{ subresource: 'status', mutate: setCert(fx.certPem) }], mutate: (o) => { delete o.status.certificate; approve(o); },
      expect: { ok: true, check: (s) => assert.equal(s.status.certificate, b64(fx.certPem)) } },

    // ---- spec immutability and metadata (§1.4)
    { name: 'spec change through the main resource is silently reverted', op: 'update', subresource: '',
      mutate: (o) => { o.spec.signerName = 'example.com/other'; o.spec.usages = ['server auth']; o.metadata.labels = { team: 'a' }; },
      expect: { ok: true, check: (s) => {
        assert.equal(s.spec.signerName, BASE_SIGNER);
        assert.deepEqual(s.spec.usages, ['digital signature', 'key encipherment', 'client auth']);
        assert.deepEqual(s.metadata.labels, { team: 'a' });
      } } },
    { name: 'spec change through /status is silently reverted', op: 'update', subresource: 'status',
      mutate: (o) => { o.spec.username = 'mallory'; o.spec.request = b64(fx.rsaCsrPem); },
      expect: { ok: true, check: (s) => {
        assert.notEqual(s.spec.username, 'mallory');
        assert.equal(s.spec.request, b64(fx.ecCsrPem));
      } } },
    { name: 'spec change through /approval is silently reverted', op: 'update', subresource: 'approval',
      mutate: (o) => { o.spec.expirationSeconds = 1; approve(o); },
      expect: { ok: true, check: (s) => { assert.equal(s.spec.expirationSeconds, undefined); assert.deepEqual(types(s), ['Approved']); } } },
  ];
}
