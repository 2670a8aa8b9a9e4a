// The Go net/url.Parse subset webhook URL validation depends on, against Go's own results.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GoUrlError, parseGoUrl } from '../../plugins/admission-webhook/go-url.js';

describe('parseGoUrl', () => {
  const parsed: [string, { scheme: string; host: string; user?: string; rawQuery?: string; fragment?: string }][] = [
    ['https://example.com/path', { scheme: 'https', host: 'example.com' }],
    ['HTTPS://Example.com:8443', { scheme: 'https', host: 'Example.com:8443' }],
    ['https://[::1]:443/x', { scheme: 'https', host: '[::1]:443' }],
    ['https://u@h/p', { scheme: 'https', host: 'h', user: 'u' }],
    ['https://u:p%40ss@h/', { scheme: 'https', host: 'h', user: 'u:p%40ss' }],
    ['https://h/p?a=b&c', { scheme: 'https', host: 'h', rawQuery: 'a=b&c' }],
    ['https://h/p?', { scheme: 'https', host: 'h' }],
    ['https://h/p#f%20g', { scheme: 'https', host: 'h', fragment: 'f g' }],
    ['https:opaque', { scheme: 'https', host: '' }],
    // "a" is a scheme, so the rest is opaque; only a scheme-less path may not have a colon first.
    ['a:b/c', { scheme: 'a', host: '' }],
    ['https:///p', { scheme: 'https', host: '' }],
    ['//h/p', { scheme: '', host: 'h' }],
    ['/just/a/path', { scheme: '', host: '' }],
  ];
  for (const [raw, want] of parsed) {
    it(`parses ${raw}`, () => {
      const u = parseGoUrl(raw);
      assert.deepEqual(u, { scheme: want.scheme, host: want.host, user: want.user, rawQuery: want.rawQuery ?? '', fragment: want.fragment ?? '' });
    });
  }

  const failures: [string, string][] = [
    ['://h', 'parse "://h": missing protocol scheme'],
    ['https://[::1/x', `parse "https://[::1/x": missing ']' in host`],
    ['https://h:port/x', 'parse "https://h:port/x": invalid port ":port" after host'],
    ['https://h/%zz', 'parse "https://h/%zz": invalid URL escape "%zz"'],
    ['https://h/p#%z', 'parse "https://h/p#%z": invalid URL escape "%z"'],
    ['https://h o/', 'parse "https://h o/": invalid character " " in host name'],
    ['https://a b@h/', 'parse "https://a b@h/": net/url: invalid userinfo'],
    ['https://h/\n', 'parse "https://h/\\n": net/url: invalid control character in URL'],
    ['1a:b/c', 'parse "1a:b/c": first path segment in URL cannot contain colon'],
  ];
  for (const [raw, message] of failures) {
    it(`refuses ${JSON.stringify(raw)}`, () => {
      assert.throws(() => parseGoUrl(raw), (e: unknown) => e instanceof GoUrlError && e.message === message);
    });
  }
});
