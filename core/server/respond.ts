// Writing API responses: JSON or YAML bodies (JSON optionally pretty), Warning headers, Status
// bodies. A resource request's answer is in the media type its Accept negotiates
// (output-media-type.ts), its errors too; other paths answer JSON.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Context } from 'koa';
import { headerBytes } from './header-bytes.js';
import { isStatusError, type Status } from '../api/errors.js';
import { goYaml } from '../api/go-yaml-marshal.js';
import type { Logger } from '../log.js';
import { negotiateOutput, type OutputMediaType, type Restrictions } from './output-media-type.js';
import { warningHeaders } from './warning-recorder.js';

const isResourceRequest = (ctx: Context): boolean => (ctx.state as { info?: { isResourceRequest?: boolean } }).info?.isResourceRequest === true;

/** A list's items are encoded this many a turn of the event loop (12 MB of CSRs held it ~60 ms). */
export const LIST_ENCODE_CHUNK = 500;

/** Marks an API object's encoding, the answers upstream's SerializeObject writes (compression.ts). */
function serialized(ctx: Context): void {
  (ctx.state as { serializedObject?: boolean }).serializedObject = true;
}

function write(ctx: Context, code: number, body: unknown, media: OutputMediaType, contentType: string): void {
  serialized(ctx);
  ctx.status = code;
  if (media === 'application/yaml') {
    // sigs.k8s.io/yaml of the JSON, as upstream's YAML serializer writes it.
    ctx.set('Content-Type', media);
    ctx.body = goYaml(JSON.parse(JSON.stringify(body)));
    return;
  }
  // Exactly the media type, as upstream's writers set it: koa's ctx.type would add "; charset=utf-8".
  ctx.set('Content-Type', contentType);
  const pretty = ctx.query['pretty'] === 'true' || ctx.query['pretty'] === '1';
  ctx.body = JSON.stringify(body, null, pretty ? 2 : undefined) + (pretty ? '\n' : '');
}

/**
 * The negotiated media type, or, where negotiation fails, what WriteObjectNegotiated then writes:
 * a failure's own Status, or the 406 in its place, as indented JSON (WriteRawJSON).
 */
function negotiated(ctx: Context, code: number, body: unknown, restrictions: Restrictions): OutputMediaType | undefined {
  try {
    return negotiateOutput(ctx.get('accept') || undefined, restrictions);
  } catch (e) {
    if (!isStatusError(e)) throw e;
    const failed = code < 200 || code >= 400;
    sendRawJson(ctx, failed ? body : e.status, failed ? code : e.status.code);
    return undefined;
  }
}

export function sendJson(ctx: Context, code: number, body: unknown, contentType = 'application/json'): void {
  if (!isResourceRequest(ctx)) return write(ctx, code, body, 'application/json', contentType);
  // serveResource agreed on it before doing anything; negotiate here only for what it did not.
  const media = (ctx.state as { outputMedia?: OutputMediaType }).outputMedia ?? negotiated(ctx, code, body, 'resource');
  if (media) write(ctx, code, body, media, contentType);
}

/**
 * A list (`head` is its kind, apiVersion and metadata): as sendJson would answer it, but compact
 * JSON of many items is encoded a chunk at a time, each in a turn of its own, so that a large
 * list does not hold every other request up while it is written.
 */
export async function sendJsonList(ctx: Context, head: { kind: string; apiVersion: string; metadata: object }, items: readonly unknown[]): Promise<void> {
  const pretty = ctx.query['pretty'] === 'true' || ctx.query['pretty'] === '1';
  const media = !isResourceRequest(ctx) ? 'application/json'
    : (ctx.state as { outputMedia?: OutputMediaType }).outputMedia ?? negotiated(ctx, 200, undefined, 'resource');
  if (!media) return;
  if (media !== 'application/json' || pretty || items.length <= LIST_ENCODE_CHUNK) return write(ctx, 200, { ...head, items }, media, 'application/json');
  // Byte for byte JSON.stringify({ ...head, items }): the head's closing brace gives way to the items.
  const parts = [`${JSON.stringify(head).slice(0, -1)},"items":[`];
  for (let i = 0; i < items.length; i += LIST_ENCODE_CHUNK) {
    if (i > 0) await nextTurn();
    parts.push((i > 0 ? ',' : '') + items.slice(i, i + LIST_ENCODE_CHUNK).map((item) => JSON.stringify(item)).join(','));
  }
  parts.push(']}');
  serialized(ctx);
  ctx.status = 200;
  ctx.set('Content-Type', 'application/json');
  ctx.body = parts.join('');
}

/** A non-API object (/version, the root path list): always indented, as upstream's WriteRawJSON. */
export function sendRawJson(ctx: Context, body: unknown, code = 200): void {
  ctx.status = code;
  ctx.set('Content-Type', 'application/json');
  ctx.body = JSON.stringify(body, null, 2);
}

export function sendStatus(ctx: Context, status: Status, headers: Record<string, string> = {}): void {
  for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
  // As ErrorNegotiated: a Status that says when to retry says it in the header too.
  const retryAfter = status.details?.retryAfterSeconds;
  if (retryAfter !== undefined && retryAfter > 0) ctx.set('Retry-After', String(retryAfter));
  if (!isResourceRequest(ctx)) return write(ctx, status.code, status, 'application/json', 'application/json');
  const media = negotiated(ctx, status.code, status, 'error');
  if (media) write(ctx, status.code, status, media, 'application/json');
}

/** The `Warning` headers of warning-recorder.ts; its log line as utilruntime.HandleError's. */
export function setWarnings(ctx: Context, warnings: readonly string[], logger?: Logger): void {
  const { headers, truncated } = warningHeaders(warnings);
  if (truncated) logger?.error('Unhandled Error', { err: 'exceeded max warning header size, truncating' });
  if (headers.length) ctx.set('Warning', headers.map(headerBytes));
}
