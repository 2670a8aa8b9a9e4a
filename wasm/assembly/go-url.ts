// Go's net/url as crypto/x509 uses it for uniformResourceIdentifier SANs (Go 1.23, src/net/url/url.go):
// url.Parse decides whether a URI is accepted (parser: "x509: cannot parse URI ..."), the parsed
// Host must pass domainToReverseLabels (src/crypto/x509/verify.go), and a certificate carries
// uri.String(), Go's re-serialisation, not the requested bytes (marshalSANs in x509.go).
//
// Nothing is kept decoded: every component is a range of the input, and String() re-escapes while
// it decodes (escape(unescape(s)) one byte at a time). For a URL Parse produced, EscapedPath and
// EscapedFragment reduce to "the raw text when validEncoded accepts it, else escape(unescape(raw))",
// since RawPath/RawFragment are set exactly when the raw text differs from the default encoding.
// (Only the Host check decodes, into scratch, to share go-mailbox.ts's domainToReverseLabels.)
import { goDomainOk } from './go-mailbox';

// Reasons (core/crypto/wasm/go-url.ts has the texts; keep the two in step).
export const URL_OK: u32 = 0;
export const URL_CTL: u32 = 1; // net/url: invalid control character in URL
export const URL_MISSING_SCHEME: u32 = 2; // missing protocol scheme
export const URL_COLON_IN_FIRST_SEGMENT: u32 = 3; // first path segment in URL cannot contain colon
export const URL_ESCAPE: u32 = 4; // invalid URL escape %q (the piece)
export const URL_HOST_CHAR: u32 = 5; // invalid character %q in host name (the piece)
export const URL_PORT: u32 = 6; // invalid port %q after host (the piece)
export const URL_MISSING_BRACKET: u32 = 7; // missing ']' in host
export const URL_USERINFO: u32 = 8; // net/url: invalid userinfo

// net/url's encoding modes (only those Parse and String use).
const PATH: u32 = 1;
const HOST: u32 = 3;
const ZONE: u32 = 4;
const USER_PASSWORD: u32 = 5;
const FRAGMENT: u32 = 7;

/** After a failed goUrlParse: the reason's piece (offset and length in the input) ... */
export let urlErrorAt: usize = 0;
export let urlErrorLen: usize = 0;
/** ... and how much of the input the *url.Error names: Parse names the text before '#', unless the fragment failed. */
export let urlErrorUrlLen: usize = 0;

// The URL the last successful goUrlParse read, as offsets into [base, base+total).
let base: usize = 0;
let total: usize = 0;
let schemeEnd: usize = 0; // 0: no scheme; else the scheme is [0, schemeEnd)
let opaque = false; // rest after the scheme is opaque: [pathStart, pathEnd)
let authority = false; // "//" seen: user and host below are meaningful
let omitHost = false;
let userStart: usize = 0;
let userEnd: usize = 0; // userinfo [userStart, userEnd) when hasUser
let hasUser = false;
let hostStart: usize = 0;
let hostEnd: usize = 0;
let pathStart: usize = 0;
let pathEnd: usize = 0;
let forceQuery = false;
let queryStart: usize = 0;
let queryEnd: usize = 0;
let fragStart: usize = 0; // fragment [fragStart, total) when fragStart > 0

@inline function at(i: usize): u32 {
  return <u32>load<u8>(base + i);
}

@inline function isHex(c: u32): bool {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}

@inline function unhex(c: u32): u32 {
  return c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10;
}

function isAlnum(c: u32): bool {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
}

/** net/url shouldEscape. */
function shouldEscape(c: u32, mode: u32): bool {
  if (isAlnum(c)) return false;
  if (mode == HOST || mode == ZONE) {
    switch (c) {
      case 0x21: case 0x24: case 0x26: case 0x27: case 0x28: case 0x29: case 0x2a: case 0x2b: case 0x2c: // ! $ & ' ( ) * + ,
      case 0x3b: case 0x3d: case 0x3a: case 0x5b: case 0x5d: case 0x3c: case 0x3e: case 0x22: // ; = : [ ] < > "
        return false;
    }
  }
  switch (c) {
    case 0x2d: case 0x5f: case 0x2e: case 0x7e: // - _ . ~
      return false;
    case 0x24: case 0x26: case 0x2b: case 0x2c: case 0x2f: case 0x3a: case 0x3b: case 0x3d: case 0x3f: case 0x40: // $ & + , / : ; = ? @
      if (mode == PATH) return c == 0x3f;
      if (mode == USER_PASSWORD) return c == 0x40 || c == 0x2f || c == 0x3f || c == 0x3a;
      if (mode == FRAGMENT) return false;
      return true;
  }
  if (mode == FRAGMENT && (c == 0x21 || c == 0x28 || c == 0x29 || c == 0x2a)) return false;
  return true;
}

function fail(reason: u32, from: usize, len: usize, urlLen: usize): u32 {
  urlErrorAt = from;
  urlErrorLen = len;
  urlErrorUrlLen = urlLen;
  return reason;
}

/** net/url unescape's checks over [s, end) (what it would decode is never built). */
function checkEscapes(s: usize, end: usize, mode: u32, urlLen: usize): u32 {
  let i = s;
  while (i < end) {
    const c = at(i);
    if (c == 0x25) {
      if (i + 2 >= end || !isHex(at(i + 1)) || !isHex(at(i + 2))) return fail(URL_ESCAPE, i, min<usize>(3, end - i), urlLen);
      const pct25 = at(i + 1) == 0x32 && at(i + 2) == 0x35;
      // Hosts may only %-encode non-ASCII bytes, and %25 (RFC 6874); zones what a host may hold, and spaces.
      if (mode == HOST && unhex(at(i + 1)) < 8 && !pct25) return fail(URL_ESCAPE, i, 3, urlLen);
      if (mode == ZONE) {
        const v = (unhex(at(i + 1)) << 4) | unhex(at(i + 2));
        if (!pct25 && v != 0x20 && shouldEscape(v, HOST)) return fail(URL_ESCAPE, i, 3, urlLen);
      }
      i += 3;
    } else {
      if ((mode == HOST || mode == ZONE) && c < 0x80 && shouldEscape(c, mode)) return fail(URL_HOST_CHAR, i, 1, urlLen);
      i++;
    }
  }
  return URL_OK;
}

/** net/url validOptionalPort over [s, end): empty, or ':' and digits. */
function validOptionalPort(s: usize, end: usize): bool {
  if (s == end) return true;
  if (at(s) != 0x3a) return false;
  for (let i = s + 1; i < end; i++) if (at(i) < 0x30 || at(i) > 0x39) return false;
  return true;
}

function lastIndex(s: usize, end: usize, c: u32): isize {
  for (let i = <isize>end - 1; i >= <isize>s; i--) if (at(<usize>i) == c) return i;
  return -1;
}

/** net/url parseHost over [s, end) (host[:port] or [IP-literal][:port]). */
function parseHost(s: usize, end: usize, urlLen: usize): u32 {
  if (s < end && at(s) == 0x5b) {
    const close = lastIndex(s, end, 0x5d);
    if (close < 0) return fail(URL_MISSING_BRACKET, 0, 0, urlLen);
    const i = <usize>close;
    if (!validOptionalPort(i + 1, end)) return fail(URL_PORT, i + 1, end - i - 1, urlLen);
    for (let z = s; z + 2 < i; z++) {
      if (at(z) == 0x25 && at(z + 1) == 0x32 && at(z + 2) == 0x35) {
        let r = checkEscapes(s, z, HOST, urlLen);
        if (r == URL_OK) r = checkEscapes(z, i, ZONE, urlLen);
        if (r == URL_OK) r = checkEscapes(i, end, HOST, urlLen);
        return r;
      }
    }
  } else {
    const colon = lastIndex(s, end, 0x3a);
    if (colon >= 0 && !validOptionalPort(<usize>colon, end)) return fail(URL_PORT, <usize>colon, end - <usize>colon, urlLen);
  }
  return checkEscapes(s, end, HOST, urlLen);
}

/** net/url validUserinfo: RFC 3986 userinfo characters (and '@', which LastIndex leaves in). */
function validUserinfo(s: usize, end: usize): bool {
  for (let i = s; i < end; i++) {
    const c = at(i);
    if (isAlnum(c)) continue;
    switch (c) {
      case 0x2d: case 0x2e: case 0x5f: case 0x3a: case 0x7e: case 0x21: case 0x24: case 0x26: case 0x27: // - . _ : ~ ! $ & '
      case 0x28: case 0x29: case 0x2a: case 0x2b: case 0x2c: case 0x3b: case 0x3d: case 0x25: case 0x40: // ( ) * + , ; = % @
        continue;
    }
    return false;
  }
  return true;
}

function parseAuthority(s: usize, end: usize, urlLen: usize): u32 {
  const atSign = lastIndex(s, end, 0x40);
  hasUser = atSign >= 0;
  hostStart = hasUser ? <usize>atSign + 1 : s;
  hostEnd = end;
  const r = parseHost(hostStart, hostEnd, urlLen);
  if (r != URL_OK || !hasUser) return r;
  userStart = s;
  userEnd = <usize>atSign;
  if (!validUserinfo(userStart, userEnd)) return fail(URL_USERINFO, 0, 0, urlLen);
  // Username and password (after the first ':') are unescaped apart.
  const colon = firstColon(userStart, userEnd);
  const r2 = checkEscapes(userStart, colon, USER_PASSWORD, urlLen);
  return r2 != URL_OK || colon == userEnd ? r2 : checkEscapes(colon + 1, userEnd, USER_PASSWORD, urlLen);
}

function firstColon(s: usize, end: usize): usize {
  for (let i = s; i < end; i++) if (at(i) == 0x3a) return i;
  return end;
}

/**
 * url.Parse of the `len` bytes at `p`: URL_OK, the parts kept for goUrlString/goUrlHostIsDomain;
 * else a URL_* reason with urlErrorAt/urlErrorLen/urlErrorUrlLen set.
 */
export function goUrlParse(p: usize, len: usize): u32 {
  base = p;
  total = len;
  schemeEnd = 0;
  opaque = false;
  authority = false;
  omitHost = false;
  hasUser = false;
  forceQuery = false;
  hostStart = hostEnd = pathStart = pathEnd = queryStart = queryEnd = fragStart = 0;
  let u = len; // Parse cuts the fragment off first, at the first '#'
  for (let i: usize = 0; i < len; i++) if (at(i) == 0x23) { u = i; break; }
  for (let i: usize = 0; i < u; i++) if (at(i) < 0x20 || at(i) == 0x7f) return fail(URL_CTL, 0, 0, u);
  let rest: usize = 0;
  if (!(u == 1 && at(0) == 0x2a)) { // "*" is a path, nothing else
    for (let i: usize = 0; i < u; i++) {
      const c = at(i);
      if ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) continue;
      if ((c >= 0x30 && c <= 0x39) || c == 0x2b || c == 0x2d || c == 0x2e) {
        if (i == 0) break;
        continue;
      }
      if (c == 0x3a) {
        if (i == 0) return fail(URL_MISSING_SCHEME, 0, 0, u);
        schemeEnd = i;
        rest = i + 1;
      }
      break;
    }
  }
  let restEnd = u;
  let marks = 0;
  let firstMark = u;
  for (let i = rest; i < u; i++) {
    if (at(i) == 0x3f) {
      if (marks++ == 0) firstMark = i;
    }
  }
  if (marks == 1 && firstMark == u - 1) {
    forceQuery = true;
    restEnd = u - 1;
  } else if (marks > 0) {
    restEnd = firstMark;
    queryStart = firstMark + 1;
    queryEnd = u;
  }
  const slash = rest < restEnd && at(rest) == 0x2f;
  if (!slash) {
    if (schemeEnd > 0) {
      opaque = true;
    } else {
      for (let i = rest; i < restEnd && at(i) != 0x2f; i++) if (at(i) == 0x3a) return fail(URL_COLON_IN_FIRST_SEGMENT, 0, 0, u);
    }
  }
  if (!opaque) {
    const twoSlashes = slash && rest + 1 < restEnd && at(rest + 1) == 0x2f;
    const threeSlashes = twoSlashes && rest + 2 < restEnd && at(rest + 2) == 0x2f;
    if ((schemeEnd > 0 || !threeSlashes) && twoSlashes) {
      authority = true;
      let authEnd = rest + 2;
      while (authEnd < restEnd && at(authEnd) != 0x2f) authEnd++;
      const r = parseAuthority(rest + 2, authEnd, u);
      if (r != URL_OK) return r;
      rest = authEnd;
    } else if (schemeEnd > 0 && slash) {
      omitHost = true;
    }
    const r = checkEscapes(rest, restEnd, PATH, u);
    if (r != URL_OK) return r;
  }
  pathStart = rest;
  pathEnd = restEnd;
  if (u + 1 < len) {
    const r = checkEscapes(u + 1, len, FRAGMENT, len);
    if (r != URL_OK) return r;
    fragStart = u + 1;
  }
  return URL_OK;
}

/** After goUrlParse: domainToReverseLabels on the decoded Host (Go skips the check for an empty Host). */
export function goUrlHostIsDomain(): bool {
  if (!authority || hostStart == hostEnd) return true;
  // The Host as url.Parse leaves it: %XX escapes decoded (parseHost has checked them).
  const host = heap.alloc(hostEnd - hostStart);
  let n: usize = 0;
  for (let i = hostStart; i < hostEnd; i++) {
    let c = at(i);
    if (c == 0x25) {
      c = (unhex(at(i + 1)) << 4) | unhex(at(i + 2));
      i += 2;
    }
    store<u8>(host + n++, <u8>c);
  }
  // A byte >= 0x80 fails there, as the rune it belongs to (or invalid UTF-8) fails in Go.
  return n > 0 && goDomainOk(host, n);
}

/** Upper bound of goUrlString's output for an input of `len` bytes. */
export function goUrlStringMax(len: usize): usize {
  return 3 * len + 8;
}

let out: usize = 0;

@inline function put(c: u32): void {
  store<u8>(out++, <u8>c);
}

function copy(s: usize, end: usize): void {
  memory.copy(out, base + s, end - s);
  out += end - s;
}

const UPPER_HEX = memory.data<u8>([0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46]);

/** escape(unescape([s, end)), mode), written at `out`. */
function reescape(s: usize, end: usize, mode: u32): void {
  for (let i = s; i < end; i++) {
    let c = at(i);
    if (c == 0x25) {
      c = (unhex(at(i + 1)) << 4) | unhex(at(i + 2));
      i += 2;
    }
    if (shouldEscape(c, mode)) {
      put(0x25);
      put(<u32>load<u8>(UPPER_HEX + (c >> 4)));
      put(<u32>load<u8>(UPPER_HEX + (c & 15)));
    } else {
      put(c);
    }
  }
}

/** net/url validEncoded: nothing in [s, end) that escaping would have to change. */
function validEncoded(s: usize, end: usize, mode: u32): bool {
  for (let i = s; i < end; i++) {
    const c = at(i);
    switch (c) {
      case 0x21: case 0x24: case 0x26: case 0x27: case 0x28: case 0x29: case 0x2a: case 0x2b: case 0x2c: // ! $ & ' ( ) * + ,
      case 0x3b: case 0x3d: case 0x3a: case 0x40: case 0x5b: case 0x5d: case 0x25: // ; = : @ [ ] %
        continue;
    }
    if (shouldEscape(c, mode)) return false;
  }
  return true;
}

/** After goUrlParse: URL.String() written at `dst` (room for goUrlStringMax bytes); returns its length. */
export function goUrlString(dst: usize): usize {
  out = dst;
  for (let i: usize = 0; i < schemeEnd; i++) put(at(i) | (at(i) >= 0x41 && at(i) <= 0x5a ? 0x20 : 0));
  if (schemeEnd > 0) put(0x3a);
  if (opaque && pathStart < pathEnd) {
    copy(pathStart, pathEnd);
  } else {
    const hasHost = authority && hostStart < hostEnd;
    if (schemeEnd > 0 || hasHost || hasUser) {
      if (!(omitHost && !hasHost && !hasUser)) {
        if (hasHost || pathStart < pathEnd || hasUser) {
          put(0x2f);
          put(0x2f);
        }
        if (hasUser) {
          const colon = firstColon(userStart, userEnd);
          reescape(userStart, colon, USER_PASSWORD);
          if (colon < userEnd) {
            put(0x3a);
            reescape(colon + 1, userEnd, USER_PASSWORD);
          }
          put(0x40);
        }
        if (hasHost) reescape(hostStart, hostEnd, HOST);
      }
    }
    const pathAt = out;
    // EscapedPath; "%2A" is the one raw path whose Path ("*") Go writes unescaped without a RawPath.
    if (pathEnd - pathStart == 3 && at(pathStart) == 0x25 && at(pathStart + 1) == 0x32 && at(pathStart + 2) == 0x41) put(0x2a);
    else if (validEncoded(pathStart, pathEnd, PATH)) copy(pathStart, pathEnd);
    else reescape(pathStart, pathEnd, PATH);
    const pathLen = out - pathAt;
    if (pathLen > 0 && load<u8>(pathAt) != 0x2f && hasHost) insert(pathAt, pathLen, 1, 0x2f, 0);
    if (pathAt == dst && colonInFirstSegment(pathAt, pathLen)) insert(pathAt, pathLen, 2, 0x2e, 0x2f); // "./"
  }
  if (forceQuery || queryStart < queryEnd) {
    put(0x3f);
    copy(queryStart, queryEnd);
  }
  if (fragStart > 0) {
    put(0x23);
    if (validEncoded(fragStart, total, FRAGMENT)) copy(fragStart, total);
    else reescape(fragStart, total, FRAGMENT);
  }
  return out - dst;
}

function colonInFirstSegment(p: usize, len: usize): bool {
  for (let i: usize = 0; i < len; i++) {
    const c = load<u8>(p + i);
    if (c == 0x2f) return false;
    if (c == 0x3a) return true;
  }
  return false;
}

/** Puts `n` (1 or 2) bytes a, b in front of the `len` bytes just written at p. */
function insert(p: usize, len: usize, n: usize, a: u32, b: u32): void {
  memory.copy(p + n, p, len);
  store<u8>(p, <u8>a);
  if (n == 2) store<u8>(p + 1, <u8>b);
  out += n;
}

let lastOutput: usize = 0;

/**
 * The JS door: url.Parse of `len` bytes at `p`; with `checkDomain`, also the x509 Host check.
 * Returns the length of String() (at goUrlOutput()), or -reason (-9: the domain check failed).
 */
export function goUrl(p: usize, len: usize, checkDomain: bool): i32 {
  const r = goUrlParse(p, len);
  if (r != URL_OK) return -<i32>r;
  if (checkDomain && !goUrlHostIsDomain()) return -9;
  lastOutput = heap.alloc(goUrlStringMax(len));
  return <i32>goUrlString(lastOutput);
}

export function goUrlOutput(): usize {
  return lastOutput;
}

export function goUrlErrorAt(): usize {
  return urlErrorAt;
}

export function goUrlErrorLen(): usize {
  return urlErrorLen;
}

export function goUrlErrorUrlLen(): usize {
  return urlErrorUrlLen;
}
