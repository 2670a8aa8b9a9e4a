// /logs/: the node's log directory (upstream: /var/log/) as net/http's FileServer serves it —
// directory listings in its HTML, `dir` redirected to `dir/`, index.html served for a directory,
// files with their type sniffed and Last-Modified — but closed to escapes: a `..` segment is
// refused (400) and a path whose real location (symbolic links resolved) is outside the directory
// is not found, where Go's http.Dir would follow the link.
import { createReadStream } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type Koa from 'koa';
import { httpError } from './responses.js';

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** Go's toHTTPError. */
function fsError(ctx: Koa.Context, e: unknown): void {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return httpError(ctx, 404, '404 page not found');
  if (code === 'EACCES' || code === 'EPERM') return httpError(ctx, 403, '403 Forbidden');
  httpError(ctx, 500, '500 Internal Server Error');
}

/** The file's real path when it lies inside `root` (itself resolved); undefined otherwise. */
export async function containedPath(root: string, rel: string): Promise<string | undefined> {
  const realRoot = await realpath(root);
  const real = await realpath(path.join(realRoot, rel));
  return real === realRoot || real.startsWith(realRoot + path.sep) ? real : undefined;
}

/** text/plain when the first 512 bytes look like text (Go's DetectContentType, reduced), else octet-stream. */
async function sniff(file: string): Promise<string> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(512);
    const { bytesRead } = await fh.read(buf, 0, 512, 0);
    const head = buf.subarray(0, bytesRead);
    const binary = head.some((b) => b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b));
    return binary ? 'application/octet-stream' : 'text/plain; charset=utf-8';
  } finally {
    await fh.close();
  }
}

function listing(ctx: Koa.Context, entries: { name: string; dir: boolean }[]): void {
  const lines = entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((e) => {
    const name = e.dir ? `${e.name}/` : e.name;
    return `<a href="${encodeURI(name).replace(/[?#]/g, encodeURIComponent)}">${escapeHtml(name)}</a>\n`;
  });
  ctx.status = 200;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = `<!doctype html>\n<meta name="viewport" content="width=device-width">\n<pre>\n${lines.join('')}</pre>\n`;
}

/** Serves `decoded` (a path below the log directory; leading slashes ignored) from `root`. */
export async function serveLogPath(ctx: Koa.Context, root: string, rel: string): Promise<void> {
  const decoded = rel.replace(/^[/\\]+/, '');
  if (decoded.includes('\0') || decoded.split(/[/\\]/).includes('..')) return httpError(ctx, 400, 'invalid URL path');
  if (decoded.endsWith('/index.html') || decoded === 'index.html') {
    ctx.status = 301;
    ctx.set('Location', './');
    return;
  }
  let real: string | undefined;
  let info: import('node:fs').Stats;
  try {
    real = await containedPath(root, decoded);
    if (!real) return httpError(ctx, 404, '404 page not found');
    info = await stat(real);
  } catch (e) {
    return fsError(ctx, e);
  }
  const wantsDir = decoded === '' || decoded.endsWith('/');
  if (info.isDirectory()) {
    if (!wantsDir) {
      ctx.status = 301;
      ctx.set('Location', `${path.posix.basename(decoded)}/`);
      return;
    }
    try {
      const indexReal = await containedPath(root, path.join(decoded, 'index.html')).catch(() => undefined);
      if (indexReal && (await stat(indexReal)).isFile()) return sendFile(ctx, indexReal, 'text/html; charset=utf-8');
      const dirents = await readdir(real, { withFileTypes: true });
      return listing(ctx, dirents.map((d) => ({ name: d.name, dir: d.isDirectory() })));
    } catch (e) {
      return fsError(ctx, e);
    }
  }
  if (wantsDir) {
    // Go redirects a file asked for as a directory back to the file.
    ctx.status = 301;
    ctx.set('Location', `../${path.posix.basename(decoded.slice(0, -1))}`);
    return;
  }
  try {
    await sendFile(ctx, real, await sniff(real), info);
  } catch (e) {
    return fsError(ctx, e);
  }
}

async function sendFile(ctx: Koa.Context, file: string, type: string, info?: import('node:fs').Stats): Promise<void> {
  const st = info ?? await stat(file);
  ctx.status = 200;
  ctx.type = type;
  ctx.length = st.size;
  ctx.set('Last-Modified', st.mtime.toUTCString());
  ctx.body = createReadStream(file);
}
