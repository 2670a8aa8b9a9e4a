// Writing API responses: JSON bodies (optionally pretty), Warning headers, Status bodies.
import type { Context } from 'koa';
import type { Status } from '../api/errors.js';

export function sendJson(ctx: Context, code: number, body: unknown, contentType = 'application/json'): void {
  ctx.status = code;
  ctx.type = contentType;
  const pretty = ctx.query['pretty'] === 'true' || ctx.query['pretty'] === '1';
  ctx.body = JSON.stringify(body, null, pretty ? 2 : undefined) + (pretty ? '\n' : '');
}

/** A non-API object (/version, the root path list): always indented, as upstream's WriteRawJSON. */
export function sendRawJson(ctx: Context, body: unknown): void {
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(body, null, 2);
}

export function sendStatus(ctx: Context, status: Status, headers: Record<string, string> = {}): void {
  for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
  sendJson(ctx, status.code, status);
}

/** `Warning: 299 - "<text>"`, deduplicated; truncated past 4 KiB in total as apiserver does. */
export function setWarnings(ctx: Context, warnings: readonly string[]): void {
  let total = 0;
  const out: string[] = [];
  for (const w of new Set(warnings)) {
    const text = w.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
    total += text.length;
    if (total > 4096) break;
    out.push(`299 - "${text}"`);
  }
  if (out.length) ctx.set('Warning', out);
}
