// The parts of Go's net/url.Parse that webhook URL validation looks at (scheme, host, userinfo,
// raw query, fragment), with Go's error texts: upstream's messages quote them
// (`url must be a valid URL: parse "...": missing protocol scheme`), and WHATWG URL accepts and
// normalises things Go refuses.
import { goQuote } from '../../core/api/field-errors.js';

export interface GoUrl {
  readonly scheme: string;
  /** host[:port], unescaped ('' when the URL has no authority). */
  readonly host: string;
  /** userinfo as Go's Userinfo.String() prints it, or undefined when absent. */
  readonly user: string | undefined;
  readonly rawQuery: string;
  /** Unescaped fragment. */
  readonly fragment: string;
}

/** A parse failure, rendered as Go's *url.Error: `parse "<url>": <reason>`. */
export class GoUrlError extends Error {}

class Failure extends Error {}

const isHex = (c: string): boolean => /^[0-9a-fA-F]$/.test(c);
const hasCtl = (s: string): boolean => [...s].some((ch) => { const c = ch.codePointAt(0)!; return c < 0x20 || c === 0x7f; });

type Mode = 'host' | 'path' | 'fragment' | 'user';

const HOST_ALLOWED = new Set([...'!$&\'()*+,;=:[]<>"']);
const isUnreserved = (c: string): boolean => /^[A-Za-z0-9\-_.~]$/.test(c);

/** url.unescape: `%XX` decoding with Go's per-mode errors. */
function unescape(s: string, mode: Mode): string {
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '%') {
      if (i + 2 >= s.length || !isHex(s[i + 1]!) || !isHex(s[i + 2]!)) {
        throw new Failure(`invalid URL escape ${goQuote(s.slice(i, i + 3))}`);
      }
      // Hosts may percent-encode only non-ASCII bytes (and %25, the zone separator).
      if (mode === 'host' && parseInt(s[i + 1]!, 16) < 8 && s.slice(i, i + 3) !== '%25') {
        throw new Failure(`invalid URL escape ${goQuote(s.slice(i, i + 3))}`);
      }
      i += 2;
    } else if (mode === 'host' && c.charCodeAt(0) < 0x80 && !isUnreserved(c) && !HOST_ALLOWED.has(c)) {
      throw new Failure(`invalid character ${goQuote(c)} in host name`);
    }
  }
  return decodeURIComponentLenient(s);
}

function decodeURIComponentLenient(s: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '%') { bytes.push(parseInt(s.slice(i + 1, i + 3), 16)); i += 2; } else bytes.push(...Buffer.from(s[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** url.escape in encodeUserPassword mode, for Userinfo.String(). */
function escapeUser(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && (isUnreserved(c) || '$&+,;='.includes(c)) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) { if (i === 0) return ['', raw]; continue; }
    if (c === ':') {
      if (i === 0) throw new Failure('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

const validOptionalPort = (port: string): boolean => port === '' || (port[0] === ':' && /^[0-9]*$/.test(port.slice(1)));

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new Failure("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new Failure(`invalid port ${goQuote(colonPort)} after host`);
  } else {
    const i = host.lastIndexOf(':');
    if (i >= 0) {
      const colonPort = host.slice(i);
      if (!validOptionalPort(colonPort)) throw new Failure(`invalid port ${goQuote(colonPort)} after host`);
    }
  }
  return unescape(host, 'host');
}

const validUserinfo = (s: string): boolean => /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(s);

function parseAuthority(authority: string): { user: string | undefined; host: string } {
  const at = authority.lastIndexOf('@');
  const host = parseHost(at < 0 ? authority : authority.slice(at + 1));
  if (at < 0) return { user: undefined, host };
  const userinfo = authority.slice(0, at);
  if (!validUserinfo(userinfo)) throw new Failure('net/url: invalid userinfo');
  const colon = userinfo.indexOf(':');
  if (colon < 0) return { user: escapeUser(unescape(userinfo, 'user')), host };
  const name = unescape(userinfo.slice(0, colon), 'user');
  const password = unescape(userinfo.slice(colon + 1), 'user');
  return { user: `${escapeUser(name)}:${escapeUser(password)}`, host };
}

function parse(raw: string): Omit<GoUrl, 'fragment'> {
  if (hasCtl(raw)) throw new Failure('net/url: invalid control character in URL');
  if (raw === '*') return { scheme: '', host: '', user: undefined, rawQuery: '' };
  const [schemeRaw, afterScheme] = getScheme(raw);
  const scheme = schemeRaw.toLowerCase();
  let rest = afterScheme;
  let rawQuery = '';
  if (rest.endsWith('?') && rest.split('?').length === 2) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf('?');
    if (q >= 0) { rawQuery = rest.slice(q + 1); rest = rest.slice(0, q); }
  }
  if (!rest.startsWith('/')) {
    // A scheme followed by a rootless path is opaque: no host.
    if (scheme !== '') return { scheme, host: '', user: undefined, rawQuery };
    const segment = rest.split('/')[0]!;
    if (segment.includes(':')) throw new Failure('first path segment in URL cannot contain colon');
  }
  let user: string | undefined;
  let host = '';
  if ((scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    const slash = authority.indexOf('/');
    rest = slash >= 0 ? authority.slice(slash) : '';
    if (slash >= 0) authority = authority.slice(0, slash);
    ({ user, host } = parseAuthority(authority));
  }
  unescape(rest, 'path');
  return { scheme, host, user, rawQuery };
}

/** net/url.Parse. Throws GoUrlError with Go's message. */
export function parseGoUrl(raw: string): GoUrl {
  const hash = raw.indexOf('#');
  const beforeFragment = hash >= 0 ? raw.slice(0, hash) : raw;
  let parsed: Omit<GoUrl, 'fragment'>;
  try {
    parsed = parse(beforeFragment);
  } catch (e) {
    if (e instanceof Failure) throw new GoUrlError(`parse ${goQuote(beforeFragment)}: ${e.message}`);
    throw e;
  }
  if (hash < 0) return { ...parsed, fragment: '' };
  try {
    return { ...parsed, fragment: unescape(raw.slice(hash + 1), 'fragment') };
  } catch (e) {
    if (e instanceof Failure) throw new GoUrlError(`parse ${goQuote(raw)}: ${e.message}`);
    throw e;
  }
}
