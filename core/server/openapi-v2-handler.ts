// kube-openapi's handler (pkg/handler, the version kube-apiserver 1.32 vendors) for /openapi/v2:
// a plain mux handler (any method), inside NYTimes' gziphandler. The first Accept clause, in
// goautoneg's order, that names JSON or the OpenAPI v2 protobuf (either spelling; both answer as
// `application/com.github.proto-openapi.spec.v2.v1.0+protobuf`) picks the encoding, an Accept
// that names neither is an empty 406. Both encodings carry the quoted SHA-512 of the JSON as Etag
// (the Vary header keeps them apart) and the build time as Last-Modified, and go out through
// http.ServeContent (304s, ranges). gziphandler adds `Vary: Accept-Encoding` to every answer and
// compresses a body of 1400 bytes or more when Accept-Encoding gives gzip a q above 0; the whole
// document's gzip is made once and kept.
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Context } from 'koa';
import type { OpenApiV2 } from './openapi-v2.js';
import { parseAccept } from './output-media-type.js';
import { serveContent } from './serve-content.js';

const PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const ACCEPTED: readonly [subType: string, contentType: string, proto: boolean][] = [
  ['json', 'application/json', false],
  ['com.github.proto-openapi.spec.v2@v1.0+protobuf', PROTOBUF, true],
  ['com.github.proto-openapi.spec.v2.v1.0+protobuf', PROTOBUF, true],
];
/** gziphandler's DefaultMinSize. */
const GZIP_MIN_SIZE = 1400;
const gzipAsync = promisify(gzip);

/** gziphandler's acceptsGzip: the q parseEncodings gives `gzip` (each `;` part resets it to 1) is above 0. */
export function gzipHandlerAccepts(header: string): boolean {
  const codings = new Map<string, number>();
  for (const coding of header.split(',')) {
    let name = '';
    let q = 1;
    let failed = false;
    coding.split(';').forEach((raw, i) => {
      const part = raw.trim();
      q = 1;
      if (i === 0) { name = part.toLowerCase(); return; }
      if (!part.startsWith('q=')) return;
      const t = part.slice(2);
      // strconv.ParseFloat: an error leaves 0 (and the coding unrecorded).
      failed = !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t);
      q = failed ? 0 : Math.min(Math.max(Number(t), 0), 1);
    });
    if (name !== '' && !failed) codings.set(name, q);
  }
  return (codings.get('gzip') ?? 0) > 0;
}

export interface OpenApiV2Service {
  readonly doc: () => OpenApiV2;
  /** The gzip of each whole encoding, made on first use. */
  readonly gzipped: WeakMap<Buffer, Promise<Buffer>>;
}

export function openApiV2Service(doc: () => OpenApiV2): OpenApiV2Service {
  return { doc, gzipped: new WeakMap() };
}

export async function serveOpenApiV2(ctx: Context, service: OpenApiV2Service): Promise<void> {
  ctx.append('Vary', 'Accept-Encoding');
  ctx.append('Vary', 'Accept');
  for (const clause of parseAccept(ctx.get('accept') || '*/*')) {
    for (const [subType, contentType, proto] of ACCEPTED) {
      if ((clause.type !== 'application' && clause.type !== '*') || (clause.subType !== subType && clause.subType !== '*')) continue;
      const doc = service.doc();
      const data = proto ? doc.proto() : doc.json;
      ctx.set('Content-Type', contentType);
      ctx.set('Etag', `"${doc.etag}"`);
      serveContent(ctx, data, doc.builtAt);
      const body: unknown = ctx.body;
      if (ctx.method === 'HEAD' || !Buffer.isBuffer(body) || body.length < GZIP_MIN_SIZE || !gzipHandlerAccepts(ctx.get('accept-encoding'))) return;
      let zipped: Promise<Buffer>;
      if (body === data) {
        zipped = service.gzipped.get(data) ?? gzipAsync(data);
        service.gzipped.set(data, zipped);
      } else {
        zipped = gzipAsync(body);
      }
      const type = ctx.response.get('Content-Type');
      ctx.body = await zipped;
      ctx.set('Content-Type', type);
      ctx.set('Content-Encoding', 'gzip');
      return;
    }
  }
  // WriteHeader alone: no body, so Go sets no Content-Type either.
  ctx.status = 406;
  ctx.body = Buffer.alloc(0);
  ctx.remove('Content-Type');
}
