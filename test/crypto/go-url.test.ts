// URI subjectAltNames through Go's url.Parse rules (go-url-cases.ts, Go 1.23's net/url): the WASM
// core's url.Parse/String (core/crypto/wasm/go-url.ts), and a CSR carrying each URI through both
// CSR parsers (the facade's WASM one and the TypeScript reference): accepted with the URI as
// requested, or refused with crypto/x509's message.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { CryptoError, parseCsr, parseCsrTypescript } from '../../core/crypto/index.js';
import { seq, tlv } from '../../core/crypto/der-write.js';
import { goUrl } from '../../core/crypto/wasm/go-url.js';
import { craftCsr, extension, extensionRequest, OIDS } from './csr-craft.js';
import { URI_CASES, csrWithUriSans } from './go-url-cases.js';

const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
const label = (uri: string): string => JSON.stringify(uri);

const csrWithUris = (...uris: string[]): string => csrWithUriSans(key, ...uris);

function outcome(parse: () => { uris: string[] }): { uris: string[] } | { error: string } {
  try {
    return { uris: parse().uris };
  } catch (e) {
    if (e instanceof CryptoError) return { error: e.message };
    throw e;
  }
}

describe("URI SANs, Go 1.23's url.Parse and URL.String", () => {
  it('url.Parse + domain check + String(), case by case', () => {
    for (const c of URI_CASES) {
      const got = goUrl(c.uri);
      if (c.error !== undefined) assert.deepEqual(got, { ok: false, error: c.error }, label(c.uri));
      else assert.deepEqual(got, { ok: true, string: c.string }, label(c.uri));
    }
  });

  for (const [name, parse] of [['WASM parser (facade)', parseCsr], ['TypeScript reference parser', parseCsrTypescript]] as const) {
    it(`${name}: a CSR is refused with crypto/x509's message, or keeps the URI as requested`, () => {
      for (const c of URI_CASES) {
        const pem = csrWithUris('spiffe://ok.example/first', c.uri);
        const want = c.error !== undefined ? { error: c.error } : { uris: ['spiffe://ok.example/first', c.uri] };
        assert.deepEqual(outcome(() => parse(pem)), want, label(c.uri));
      }
    });
  }

  it('the first URI that fails decides the message; a non-IA5 URI is still the malformed error', () => {
    const pem = csrWithUris('http://a..b/', 'http://h/%zz');
    assert.throws(() => parseCsr(pem), { message: 'x509: cannot parse URI "http://a..b/": invalid domain' });
    const names = seq(tlv(0x86, Buffer.from('http://h/%zz')), tlv(0x86, new Uint8Array([0x68, 0xff])));
    const nonIa5 = craftCsr({ key, attributes: [extensionRequest(extension(OIDS.san, names))] });
    assert.throws(() => parseCsr(nonIa5), { message: 'x509: cannot parse URI "http://h/%zz": parse "http://h/%zz": invalid URL escape "%zz"' });
    const malformed = craftCsr({ key, attributes: [extensionRequest(extension(OIDS.san, seq(tlv(0x86, new Uint8Array([0x25, 0xff])))))] });
    for (const parse of [parseCsr, parseCsrTypescript]) {
      assert.throws(() => parse(malformed), { message: 'x509: SAN uniformResourceIdentifier is malformed' });
    }
  });
});
