// kube-openapi's handler3 (the version kube-apiserver 1.32 vendors) for /openapi/v3 and the group
// version documents under it. Plain mux handlers, not go-restful routes: any method is served.
// The index carries the quoted SHA-512 of its own bytes as Etag; a document answers by Accept
// (406 where no clause names JSON or the OpenAPI protobuf; plat writes JSON for either), sends a
// stale `?hash=` to the current one with a 301, and marks a current one immutable for a year.
// Both go out through http.ServeContent, so a client's validators get 304s.
import type { Context } from 'koa';
import type { OpenApiDocs } from './openapi.js';
import { parseAccept } from './output-media-type.js';
import { serveContent } from './serve-content.js';

const ACCEPTED = ['json', 'com.github.proto-openapi.spec.v3.v1.0+protobuf', 'com.github.proto-openapi.spec.v3@v1.0+protobuf'];
const ONE_YEAR_IN_UTC = () => {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  // time.RFC1123 in the server's zone; kube-apiserver runs in UTC, which Go names "UTC".
  return d.toUTCString().replace(/GMT$/, 'UTC');
};

/** constructServerRelativeURL. */
export const serverRelativeUrl = (key: string, hash: string) => `/openapi/v3/${key}?hash=${hash}`;

/** HandleDiscovery. */
export function serveOpenApiIndex(ctx: Context, docs: OpenApiDocs): void {
  ctx.set('Etag', `"${docs.rootHash}"`);
  ctx.set('Content-Type', 'application/json');
  serveContent(ctx, docs.root, docs.builtAt);
}

/** HandleGroupVersion; `key` is the path after /openapi/v3/ as it came (api/v1, apis/<group>/<version>). */
export function serveOpenApiGroupVersion(ctx: Context, docs: OpenApiDocs, key: string): void {
  ctx.append('Vary', 'Accept');
  for (const clause of parseAccept(ctx.get('accept') || '*/*')) {
    for (const subType of ACCEPTED) {
      if ((clause.type !== 'application' && clause.type !== '*') || (clause.subType !== subType && clause.subType !== '*')) continue;
      const doc = docs.byGroupVersion.get(key);
      // Upstream's handler returns having written nothing: an empty 200.
      if (!doc) { ctx.status = 200; ctx.body = Buffer.alloc(0); return; }
      ctx.set('Content-Type', 'application/json');
      ctx.set('Etag', `"${doc.hash}"`);
      const hash = new URLSearchParams(ctx.querystring).get('hash');
      if (hash) {
        if (hash !== doc.hash) {
          // http.Redirect with a Content-Type already set: the Location and no body.
          ctx.set('Location', serverRelativeUrl(key, doc.hash));
          ctx.status = 301;
          ctx.body = Buffer.alloc(0);
          return;
        }
        ctx.set('Vary', 'Accept');
        ctx.set('Cache-Control', 'public, immutable');
        ctx.set('Expires', ONE_YEAR_IN_UTC());
      }
      serveContent(ctx, doc.body, docs.builtAt);
      return;
    }
  }
  ctx.status = 406;
  ctx.body = Buffer.alloc(0);
}
