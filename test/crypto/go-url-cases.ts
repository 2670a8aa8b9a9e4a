// URI subjectAltNames as Kubernetes' Go takes them (not a test file: go-url.test.ts and
// issue-extensions.test.ts replay it). The table follows Go 1.23's net/url (src/net/url/url.go:
// Parse, getScheme, parseAuthority, parseHost, validOptionalPort, unescape, setPath, setFragment;
// String with EscapedPath, EscapedFragment, OmitHost) and crypto/x509's parseSANExtension:
//  - `string`: url.Parse accepts the text and url.URL.String() is what a certificate carries;
//  - `error`: the CSR fails with `x509: cannot parse URI %q: %s` (the *url.Error names the text
//    before '#' unless the fragment failed), or `x509: cannot parse URI %q: invalid domain` when
//    the parsed Host fails domainToReverseLabels.
// Expected values were worked out by hand from Go's source, not from the code under test.
import type { KeyObject } from 'node:crypto';
import { seq, tlv } from '../../core/crypto/der-write.js';
import { craftCsr, extension, extensionRequest, OIDS } from './csr-craft.js';

export interface UriCase {
  readonly uri: string;
  readonly string?: string;
  readonly error?: string;
}

const parseError = (uri: string, reason: string, url = uri): UriCase => ({
  uri, error: `x509: cannot parse URI ${JSON.stringify(uri)}: parse ${JSON.stringify(url)}: ${reason}`,
});
const domainError = (uri: string): UriCase => ({ uri, error: `x509: cannot parse URI ${JSON.stringify(uri)}: invalid domain` });
const same = (uri: string): UriCase => ({ uri, string: uri });

export const URI_CASES: readonly UriCase[] = [
  // Ordinary URIs: String() gives the bytes back.
  same('spiffe://example.org/ns/default/sa/x'),
  same('spiffe://cluster.local/ns/kube-system/sa/coredns'),
  same('https://example.com:8443/a/b?x=1&y=2#top'),
  same('http://a_b.example/'), // '_' is a byte domainToReverseLabels takes ('!'..'~')
  same('http://[::1]:80'),
  same('http://h/a;b,c'),
  same('http://h/a%20b'),
  same('http://x/a%25b'),
  same('//host/path'), // no scheme: a network-path reference
  same('./a:b'),
  same(''), // url.Parse("") is an empty URL
  same('*'),
  // The scheme is lowercased; the host and an escaped path are kept as written.
  { uri: 'HTTPS://Example.com/a%2fb', string: 'https://Example.com/a%2fb' },
  { uri: 'HTTP://h:/', string: 'http://h:/' },
  // Opaque URLs: rootless after the scheme, kept raw (even a space).
  same('urn:ExAmple:x'),
  same('mailto:x@y'),
  { uri: 'URN:a b', string: 'urn:a b' },
  same('mailto:x@y?subject=a b'),
  same('example.com:8080'), // scheme "example.com", opaque "8080"
  // Paths: Go keeps the raw path when validEncoded takes it, else re-escapes the decoded one.
  { uri: 'http://h/a b', string: 'http://h/a%20b' },
  same('http://h/%7e'),
  { uri: 'http://h/(a){b}', string: 'http://h/%28a%29%7Bb%7D' },
  { uri: '%2A', string: '*' }, // Path "*", no RawPath: EscapedPath writes it bare
  same('%2a'),
  { uri: 'a%3Ab c', string: './a:b%20c' }, // a colon in the first segment of a relative path gets "./"
  // Queries are never escaped; a lone trailing '?' is ForceQuery.
  same('http://h/a?b c'),
  same('http://h/a?'),
  same('http://h/a??b'),
  // Fragments: decoded and re-escaped unless validEncoded; Parse never checks them for control bytes.
  { uri: 'http://[::1]:80/p?q#f g', string: 'http://[::1]:80/p?q#f%20g' },
  same("http://h/p#f!()*'"),
  { uri: 'http://h/#a#b', string: 'http://h/#a%23b' },
  { uri: 'http://h/#a\x01b', string: 'http://h/#a%01b' },
  { uri: 'http://h/#', string: 'http://h/' }, // an empty fragment is dropped
  // "//" with an empty host, and OmitHost.
  { uri: 'http://', string: 'http:' },
  same('http:///p'),
  same('http:/p'),
  same('http:'),
  same('http://@/'),
  // IPv6 hosts with zones (RFC 6874 %25); the zone is decoded and re-escaped.
  same('http://[fe80::1%25en0]/'),
  { uri: 'http://[fe80::1%25%65n0]:8080/x', string: 'http://[fe80::1%25en0]:8080/x' },
  same('http://a%25b/'),
  // Userinfo: username and password decoded apart and re-escaped.
  same('http://u:p%3Aw@h/'),
  same('http://a%40b:p@h/'),
  { uri: 'http://a@b@h/', string: 'http://a%40b@h/' },

  // url.Parse errors.
  parseError('http://h/%zz', 'invalid URL escape "%zz"'),
  parseError('http://h/%', 'invalid URL escape "%"'),
  parseError('http://h/a%4', 'invalid URL escape "%4"'),
  parseError('http://h/%zz#frag', 'invalid URL escape "%zz"', 'http://h/%zz'),
  parseError('http://h/a#%zz', 'invalid URL escape "%zz"'), // the fragment failed: the whole text
  parseError('http://h%2/', 'invalid URL escape "%2"'),
  parseError('http://a%41/', 'invalid URL escape "%41"'), // hosts escape only non-ASCII bytes
  parseError('http://[fe80::1%en0]/', 'invalid URL escape "%en"'),
  parseError('http://a b/', 'invalid character " " in host name'),
  parseError('http://[fe80::1%25a b]/', 'invalid character " " in host name'),
  parseError('http://h/\ta', 'net/url: invalid control character in URL'),
  // Go's %q spells control bytes \x01, \x7f, \v (JSON.stringify, used above, would not).
  { uri: 'spiffe://x/\x7f', error: 'x509: cannot parse URI "spiffe://x/\\x7f": parse "spiffe://x/\\x7f": net/url: invalid control character in URL' },
  { uri: 'a\x01b#c', error: 'x509: cannot parse URI "a\\x01b#c": parse "a\\x01b": net/url: invalid control character in URL' },
  { uri: 'urn:x\vy', error: 'x509: cannot parse URI "urn:x\\vy": parse "urn:x\\vy": net/url: invalid control character in URL' },
  parseError(':foo', 'missing protocol scheme'),
  parseError('1a:b', 'first path segment in URL cannot contain colon'),
  parseError('a_b:c/d', 'first path segment in URL cannot contain colon'), // '_' cannot be in a scheme
  parseError('http://h:8a/', 'invalid port ":8a" after host'),
  parseError('http://h:80abc', 'invalid port ":80abc" after host'),
  parseError('http://[::1]x/', 'invalid port "x" after host'),
  parseError('http://[::1/', "missing ']' in host"),
  parseError('http://a b@h/', 'net/url: invalid userinfo'),
  parseError('http://u%:p@h/', 'invalid URL escape "%"'),
  parseError('http://h/%"\\', 'invalid URL escape "%\\"\\\\"'), // %q escapes '"' and '\\'

  // Hosts that parse but fail domainToReverseLabels.
  domainError('http://a..b/'),
  domainError('http://a.b./'),
  domainError('http://./'),
  domainError('http://%C3%BCber/'), // decoded Host bytes outside '!'..'~'
  domainError('http://[fe80::1%25%20]/'), // a zone may hold an escaped space; the domain check may not
  // A leading empty label: rejected by current Go's domainToReverseLabels (see README, SAN URIs).
  domainError('http://.a.b/'),
];

/** A CSR whose subjectAltName holds exactly these URIs (latin1 bytes), signed by `key`. */
export function csrWithUriSans(key: KeyObject, ...uris: string[]): string {
  const names = uris.map((u) => tlv(0x86, Buffer.from(u, 'latin1')));
  return craftCsr({ key, attributes: [extensionRequest(extension(OIDS.san, seq(...names)))] });
}
