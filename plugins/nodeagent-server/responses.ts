// The three ways upstream's node-agent server answers in plain text, kept apart because clients and
// scripts match their exact bytes: Go's http.Error (message plus newline, nosniff), go-restful's
// WriteErrorString (the message as is: "Unauthorized", "404: Page Not Found"), and a JSON body.
import type Koa from 'koa';
import { goJsonEncode } from '../../core/api/go-json-marshal.js';

/** net/http's Error. */
export function httpError(ctx: Koa.Context, code: number, message: string): void {
  ctx.status = code;
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = `${message}\n`;
}

/** go-restful's Response.WriteErrorString. */
export function restfulError(ctx: Koa.Context, code: number, message: string): void {
  ctx.status = code;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = message;
}

/**
 * writeJSONResponse of what encodePods encodes with the API machinery's JSON serializer (hence
 * its newline): exactly restful.MIME_JSON (koa's ctx.type would add a charset).
 */
export function jsonBody(ctx: Koa.Context, body: unknown): void {
  ctx.status = 200;
  ctx.set('Content-Type', 'application/json');
  ctx.body = goJsonEncode(body);
}

export const notFound = (ctx: Koa.Context): void => restfulError(ctx, 404, '404: Page Not Found');

/** A route that only answers GET: go-restful's answer to any other method. */
export function methodNotAllowed(ctx: Koa.Context, allow = 'GET'): void {
  ctx.set('Allow', allow);
  restfulError(ctx, 405, '405: Method Not Allowed');
}
