// Header values that carry UTF-8 text (a Warning's), written as Go writes them: the text's bytes.
//
// Node takes a header value as one byte a character and refuses characters past U+00FF, so such a
// value is set as the latin1 reading of its UTF-8 bytes. node:http2 sends those bytes as they are;
// node:http does too, except that it writes the head together with a string body in the body's
// encoding, UTF-8, which encodes every byte past 0x7f a second time. A string body is therefore made
// a Buffer whenever a header holds such bytes.
import type { Context, Next } from 'koa';

export const headerBytes = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

const NOT_ASCII = /[^\x00-\x7f]/;

function hasNonAsciiHeader(ctx: Context): boolean {
  for (const value of Object.values(ctx.response.headers)) {
    for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string' && NOT_ASCII.test(v)) return true;
  }
  return false;
}

export async function headerBytesBody(ctx: Context, next: Next): Promise<void> {
  await next();
  if (typeof ctx.body === 'string' && hasNonAsciiHeader(ctx)) ctx.body = Buffer.from(ctx.body);
}
