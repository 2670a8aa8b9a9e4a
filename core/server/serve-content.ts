// Go's http.ServeContent (Go 1.23, which kube-apiserver 1.32 is built with) for a body held in
// memory: Last-Modified, the conditional requests of RFC 7232 section 6 (If-Match and
// If-Unmodified-Since: 412; If-None-Match and If-Modified-Since: 304 on GET and HEAD, 412 on other
// methods), and byte ranges (206, multipart/byteranges for several, 416 for none that fit). The
// handler sets Content-Type and Etag first, as upstream's handlers do.
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';

type Cond = 'none' | 'true' | 'false';

const trim = (s: string) => s.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');

/** scanETag: the entity tag at the start of `s` and what follows it, or ['', ''] when there is none. */
function scanETag(s: string): [string, string] {
  s = trim(s);
  const start = s.startsWith('W/') ? 2 : 0;
  if (s.length - start < 2 || s[start] !== '"') return ['', ''];
  for (let i = start + 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x21 || (c >= 0x23 && c <= 0x7e) || c >= 0x80) continue;
    if (c === 0x22) return [s.slice(0, i + 1), s.slice(i + 1)];
    return ['', ''];
  }
  return ['', ''];
}

const strongMatch = (a: string, b: string) => a === b && a !== '' && a[0] === '"';
const weakMatch = (a: string, b: string) => a.replace(/^W\//, '') === b.replace(/^W\//, '');

/** The entity tags of an If-Match or If-None-Match header: `star` for `*`, or each tag in turn. */
function eachTag(header: string, star: () => Cond, tag: (etag: string) => Cond | undefined, end: Cond): Cond {
  let buf = header;
  for (;;) {
    buf = trim(buf);
    if (!buf) break;
    if (buf[0] === ',') { buf = buf.slice(1); continue; }
    if (buf[0] === '*') return star();
    const [etag, rest] = scanETag(buf);
    if (!etag) break;
    const c = tag(etag);
    if (c) return c;
    buf = rest;
  }
  return end;
}

/** http.ParseTime: the three formats HTTP allows; undefined where Go's would fail. */
function parseHttpTime(s: string): number | undefined {
  if (!/^(\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT|\w+, \d{2}-\w{3}-\d{2} \d{2}:\d{2}:\d{2} GMT|\w{3} \w{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$/.test(s)) return undefined;
  const t = Date.parse(/GMT$/.test(s) ? s : `${s} GMT`);
  return Number.isNaN(t) ? undefined : t;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

function checkPreconditions(ctx: Context, modified: number): { done: boolean; range: string } {
  const etag = ctx.response.get('Etag');
  const getOrHead = ctx.method === 'GET' || ctx.method === 'HEAD';
  let ch: Cond = 'none';
  const im = ctx.get('if-match');
  if (im) ch = eachTag(im, () => 'true', (t) => (strongMatch(t, etag) ? 'true' : undefined), 'false');
  if (ch === 'none') {
    const ius = ctx.get('if-unmodified-since');
    const t = ius ? parseHttpTime(ius) : undefined;
    if (t !== undefined) ch = seconds(modified) * 1000 <= t ? 'true' : 'false';
  }
  if (ch === 'false') { precondition(ctx, 412); return { done: true, range: '' }; }
  const inm = ctx.get('if-none-match');
  const none: Cond = inm ? eachTag(inm, () => 'false', (t) => (weakMatch(t, etag) ? 'false' : undefined), 'true') : 'none';
  if (none === 'false') {
    if (getOrHead) notModified(ctx); else precondition(ctx, 412);
    return { done: true, range: '' };
  }
  if (none === 'none' && getOrHead) {
    const ims = ctx.get('if-modified-since');
    const t = ims ? parseHttpTime(ims) : undefined;
    if (t !== undefined && seconds(modified) * 1000 <= t) { notModified(ctx); return { done: true, range: '' }; }
  }
  let range = ctx.get('range');
  const ir = ctx.get('if-range');
  if (range && getOrHead && ir) {
    const [tag] = scanETag(ir);
    const t = parseHttpTime(ir);
    const holds = tag ? strongMatch(tag, etag) : t !== undefined && seconds(t) === seconds(modified);
    if (!holds) range = '';
  }
  return { done: false, range };
}

/** A status with no body, the handler's headers kept (Go's WriteHeader alone). */
function precondition(ctx: Context, code: number): void {
  ctx.status = code;
  ctx.body = Buffer.alloc(0);
}

/** writeNotModified: no entity headers, and no Last-Modified where an Etag says it better. */
function notModified(ctx: Context): void {
  for (const h of ['Content-Type', 'Content-Length', 'Content-Encoding']) ctx.remove(h);
  if (ctx.response.get('Etag')) ctx.remove('Last-Modified');
  ctx.status = 304;
}

interface ByteRange { start: number; length: number }

/** parseRange: the ranges, 'invalid' for a malformed header, 'no-overlap' where none starts inside the body. */
function parseRange(s: string, size: number): ByteRange[] | 'invalid' | 'no-overlap' {
  if (!s) return [];
  if (!s.startsWith('bytes=')) return 'invalid';
  const out: ByteRange[] = [];
  let noOverlap = false;
  const int = (v: string) => (/^[+-]?\d+$/.test(v) ? Number(v) : undefined);
  for (const raw of s.slice(6).split(',')) {
    const ra = trim(raw);
    if (!ra) continue;
    const dash = ra.indexOf('-');
    if (dash < 0) return 'invalid';
    const start = trim(ra.slice(0, dash));
    const end = trim(ra.slice(dash + 1));
    if (!start) {
      if (!end || end[0] === '-') return 'invalid';
      let i = int(end);
      if (i === undefined) return 'invalid';
      if (i > size) i = size;
      out.push({ start: size - i, length: i });
      continue;
    }
    const i = int(start);
    if (i === undefined || i < 0) return 'invalid';
    if (i >= size) { noOverlap = true; continue; }
    if (!end) { out.push({ start: i, length: size - i }); continue; }
    let j = int(end);
    if (j === undefined || i > j) return 'invalid';
    if (j >= size) j = size - 1;
    out.push({ start: i, length: j - i + 1 });
  }
  if (noOverlap && out.length === 0) return 'no-overlap';
  return out;
}

/** serveError: Go 1.23 drops the headers that described the body it no longer sends. */
function serveError(ctx: Context, text: string, code: number): void {
  for (const h of ['Cache-Control', 'Content-Encoding', 'Etag', 'Last-Modified']) ctx.remove(h);
  ctx.status = code;
  ctx.set('Content-Type', 'text/plain; charset=utf-8');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = `${text}\n`;
}

const contentRange = (r: ByteRange, size: number) => `bytes ${r.start}-${r.start + r.length - 1}/${size}`;

/** http.ServeContent(w, r, "", modified, bytes.NewReader(data)). */
export function serveContent(ctx: Context, data: Buffer, modified: Date): void {
  ctx.set('Last-Modified', modified.toUTCString());
  const { done, range } = checkPreconditions(ctx, modified.getTime());
  if (done) return;
  const size = data.length;
  let ranges = parseRange(range, size);
  if (ranges === 'no-overlap' && size === 0) ranges = [];
  if (ranges === 'no-overlap') {
    ctx.set('Content-Range', `bytes */${size}`);
    return serveError(ctx, 'invalid range: failed to overlap', 416);
  }
  if (ranges === 'invalid') return serveError(ctx, 'invalid range', 416);
  if (ranges.reduce((n, r) => n + r.length, 0) > size) ranges = [];
  let body = data;
  let code = 200;
  if (ranges.length === 1) {
    const r = ranges[0]!;
    body = data.subarray(r.start, r.start + r.length);
    code = 206;
    ctx.set('Content-Range', contentRange(r, size));
  } else if (ranges.length > 1) {
    // mime/multipart's writer: a random 30-byte boundary, each part's headers in sorted order.
    const boundary = randomBytes(30).toString('hex');
    const type = ctx.response.get('Content-Type');
    const parts = ranges.map((r, i) => Buffer.concat([
      Buffer.from(`${i ? '\r\n' : ''}--${boundary}\r\nContent-Range: ${contentRange(r, size)}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`),
      data.subarray(r.start, r.start + r.length),
    ]));
    body = Buffer.concat([...parts, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    code = 206;
    ctx.set('Content-Type', `multipart/byteranges; boundary=${boundary}`);
  }
  ctx.set('Accept-Ranges', 'bytes');
  ctx.status = code;
  ctx.body = body;
}
