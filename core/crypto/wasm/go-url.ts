// Typed door to Go's net/url in the WASM core (wasm/assembly/go-url.ts), and the texts of its
// errors as crypto/x509 reports a uniformResourceIdentifier SAN that url.Parse rejects:
//   x509: cannot parse URI "<raw>": parse "<raw before '#'>": <reason>
//   x509: cannot parse URI "<raw>": invalid domain
import { Buffer } from 'node:buffer';
import { goQuote } from '../../go-quote.js';
import { put, wasm } from './instance.js';

// wasm/assembly/go-url.ts URL_* (and 9: the domain check); keep the two in step.
const REASONS: Readonly<Record<number, (piece: string) => string>> = {
  1: () => 'net/url: invalid control character in URL',
  2: () => 'missing protocol scheme',
  3: () => 'first path segment in URL cannot contain colon',
  4: (p) => `invalid URL escape ${goQuote(p)}`,
  5: (p) => `invalid character ${goQuote(p)} in host name`,
  6: (p) => `invalid port ${goQuote(p)} after host`,
  7: () => "missing ']' in host",
  8: () => 'net/url: invalid userinfo',
};
const INVALID_DOMAIN = 9;

/** crypto/x509's message for a URI SAN (latin1 text) that url.Parse rejects, from go-url.ts's reason and piece. */
export function uriParseError(raw: string, reason: number, pieceAt: number, pieceLen: number, urlLen: number): string {
  const text = REASONS[reason]?.(raw.slice(pieceAt, pieceAt + pieceLen)) ?? `crypto core: unknown URL error ${reason}`;
  return `x509: cannot parse URI ${goQuote(raw)}: parse ${goQuote(raw.slice(0, urlLen))}: ${text}`;
}

/** crypto/x509's message for a URI SAN whose Host fails domainToReverseLabels. */
export function uriDomainError(raw: string): string {
  return `x509: cannot parse URI ${goQuote(raw)}: invalid domain`;
}

export type GoUrlResult = { ok: true; string: string } | { ok: false; error: string };

/**
 * A URI SAN's text (ASCII) as Go's crypto/x509 takes it: url.Parse, then (checkDomain) the Host
 * check parseSANExtension makes. `string` is url.URL.String(), what a certificate carries.
 */
export function goUrl(text: string, checkDomain = true): GoUrlResult {
  const w = wasm();
  w.reset();
  const bytes = Buffer.from(text, 'latin1');
  const n = (w['goUrl'] as (p: number, len: number, check: number) => number)(put(bytes), bytes.length, checkDomain ? 1 : 0);
  if (n === -INVALID_DOMAIN) return { ok: false, error: uriDomainError(text) };
  if (n < 0) {
    const get = (name: string): number => (w[name] as () => number)();
    return { ok: false, error: uriParseError(text, -n, get('goUrlErrorAt'), get('goUrlErrorLen'), get('goUrlErrorUrlLen')) };
  }
  return { ok: true, string: Buffer.from(w.memory.buffer, (w['goUrlOutput'] as () => number)(), n).toString('latin1') };
}
