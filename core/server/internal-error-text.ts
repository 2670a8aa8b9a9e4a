// responsewriters.InternalError: what upstream's handler chains answer when the authorizer fails
// (an error and no allow). Plain text, not a Status: the request URI and the error, HTML-escaped.
import type Koa from 'koa';
import { sanitizeHtml } from '../authz/forbidden.js';
import { goQuote } from '../go-quote.js';

export const internalErrorText = (uri: string, message: string): string => `${sanitizeHtml(`Internal Server Error: ${goQuote(uri)}: ${message}`)}\n`;

export function sendInternalErrorText(ctx: Koa.Context, message: string): void {
  ctx.status = 500;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = internalErrorText(ctx.url, message);
}
