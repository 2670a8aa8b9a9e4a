// Writing API responses: JSON or YAML bodies (JSON as the API machinery's serializer writes it:
// go-json-marshal.ts's goJsonEncode, indented where pretty-print.ts says), Warning
// headers, Status bodies. A resource request's answer is in the media type its Accept negotiates
// (output-media-type.ts), its errors too; other paths answer JSON.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Context } from 'koa';
import { headerBytes } from './header-bytes.js';
import { isStatusError, type Status } from '../api/errors.js';
import { goJsonEncode, goJsonEscape } from '../api/go-json-marshal.js';
import { goYaml } from '../api/go-yaml-marshal.js';
import type { Logger } from '../log.js';
import { negotiateOutput, type Output, type Restrictions } from './output-media-type.js';
import { isPrettyPrint } from './pretty-print.js';
import { warningHeaders } from './warning-recorder.js';
import { requestAuditOf } from '../audit/request-audit.js';

const isResourceRequest = (ctx: Context): boolean => (ctx.state as { info?: { isResourceRequest?: boolean } }).info?.isResourceRequest === true;
const agreedOutput = (ctx: Context): Output | undefined => (ctx.state as { output?: Output }).output;

/** A list's items are encoded this many a turn of the event loop (12 MB of CSRs held it ~60 ms). */
export const LIST_ENCODE_CHUNK = 500;

/** Marks an API object's encoding, the answers upstream's SerializeObject writes (compression.ts). */
function serialized(ctx: Context): void {
  (ctx.state as { serializedObject?: boolean }).serializedObject = true;
}

function write(ctx: Context, code: number, body: unknown, { media, pretty }: Output, contentType: string): void {
  serialized(ctx);
  // WriteObjectNegotiated's audit.LogResponseObject.
  requestAuditOf(ctx)?.logResponseObject(body);
  ctx.status = code;
  if (media === 'application/yaml') {
    // sigs.k8s.io/yaml of the JSON, as upstream's YAML serializer writes it.
    ctx.set('Content-Type', media);
    ctx.body = goYaml(JSON.parse(JSON.stringify(body)));
    return;
  }
  // Exactly the media type, as upstream's writers set it: koa's ctx.type would add "; charset=utf-8".
  ctx.set('Content-Type', contentType);
  ctx.body = goJsonEncode(body, pretty);
}

/**
 * The negotiated media type, or, where negotiation fails, what WriteObjectNegotiated then writes:
 * a failure's own Status, or the 406 in its place, as indented JSON (WriteRawJSON).
 */
function negotiated(ctx: Context, code: number, body: unknown, restrictions: Restrictions): Output | undefined {
  try {
    return negotiateOutput(ctx.get('accept') || undefined, restrictions, isPrettyPrint(ctx));
  } catch (e) {
    if (!isStatusError(e)) throw e;
    const failed = code < 200 || code >= 400;
    sendRawJson(ctx, failed ? body : e.status, failed ? code : e.status.code);
    return undefined;
  }
}

/**
 * A path that is no resource is answered in JSON whatever its Accept names, but indented as
 * upstream's negotiation (DefaultEndpointRestrictions) would have it; where that fails upstream
 * writes the answer with WriteRawJSON, which always indents.
 */
function nonResourceOutput(ctx: Context): Output {
  try {
    return { media: 'application/json', pretty: negotiateOutput(ctx.get('accept') || undefined, 'error', isPrettyPrint(ctx)).pretty };
  } catch (e) {
    if (!isStatusError(e)) throw e;
    return { media: 'application/json', pretty: true };
  }
}

/** serveResource agreed on it before doing anything; negotiate here only for what it did not. */
const answerOutput = (ctx: Context, code: number, body: unknown): Output | undefined =>
  agreedOutput(ctx) ?? (isResourceRequest(ctx) ? negotiated(ctx, code, body, 'resource') : nonResourceOutput(ctx));

export function sendJson(ctx: Context, code: number, body: unknown, contentType = 'application/json'): void {
  const output = answerOutput(ctx, code, body);
  if (output) write(ctx, code, body, output, contentType);
}

/**
 * A list (`head` is its kind, apiVersion and metadata): as sendJson would answer it, but the JSON
 * of many items, compact or indented, is encoded a chunk at a time, each in a turn of its own, so that a large
 * list does not hold every other request up while it is written.
 */
export async function sendJsonList(ctx: Context, head: { kind: string; apiVersion: string; metadata: object }, items: readonly unknown[]): Promise<void> {
  const output = answerOutput(ctx, 200, undefined);
  if (!output) return;
  if (output.media !== 'application/json' || items.length <= LIST_ENCODE_CHUNK) return write(ctx, 200, { ...head, items }, output, 'application/json');
  // Byte for byte goJsonEncode({ ...head, items }, pretty): the head's closing brace gives way to the items.
  requestAuditOf(ctx)?.logResponseObject({ ...head, items });
  const layout = output.pretty ? PRETTY_LIST : COMPACT_LIST;
  const parts = [goJsonEscape(layout.open(head))];
  for (let i = 0; i < items.length; i += LIST_ENCODE_CHUNK) {
    if (i > 0) await nextTurn();
    parts.push((i > 0 ? layout.comma : '') + goJsonEscape(items.slice(i, i + LIST_ENCODE_CHUNK).map(layout.item).join(layout.comma)));
  }
  parts.push(layout.close);
  serialized(ctx);
  ctx.status = 200;
  ctx.set('Content-Type', 'application/json');
  ctx.body = parts.join('');
}

/** How a list's JSON is laid out around its items, compact (json.Encoder) or indented (MarshalIndent). */
interface ListLayout { open(head: object): string; item(item: unknown): string; readonly comma: string; readonly close: string }
const COMPACT_LIST: ListLayout = {
  open: (head) => `${JSON.stringify(head).slice(0, -1)},"items":[`,
  item: (item) => JSON.stringify(item),
  comma: ',',
  close: ']}\n',
};
// An item's strings hold no raw newline (JSON escapes it), so every newline is layout to indent.
const PRETTY_LIST: ListLayout = {
  open: (head) => `${JSON.stringify(head, null, 2).slice(0, -2)},\n  "items": [\n`,
  item: (item) => `    ${JSON.stringify(item, null, 2).replace(/\n/g, '\n    ')}`,
  comma: ',\n',
  close: '\n  ]\n}',
};

/** A non-API object (/version, the root path list): always indented, as upstream's WriteRawJSON (MarshalIndent). */
export function sendRawJson(ctx: Context, body: unknown, code = 200): void {
  ctx.status = code;
  ctx.set('Content-Type', 'application/json');
  ctx.body = goJsonEncode(body, true);
}

export function sendStatus(ctx: Context, status: Status, headers: Record<string, string> = {}): void {
  for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
  // As ErrorNegotiated: a Status that says when to retry says it in the header too.
  const retryAfter = status.details?.retryAfterSeconds;
  if (retryAfter !== undefined && retryAfter > 0) ctx.set('Retry-After', String(retryAfter));
  const output = isResourceRequest(ctx) ? negotiated(ctx, status.code, status, 'error') : nonResourceOutput(ctx);
  if (output) write(ctx, status.code, status, output, 'application/json');
}

/** The `Warning` headers of warning-recorder.ts; its log line as utilruntime.HandleError's. */
export function setWarnings(ctx: Context, warnings: readonly string[], logger?: Logger): void {
  const { headers, truncated } = warningHeaders(warnings);
  if (truncated) logger?.error('Unhandled Error', { err: 'exceeded max warning header size, truncating' });
  if (headers.length) ctx.set('Warning', headers.map(headerBytes));
}
