// /debug/flags/v: PUT the new log verbosity, as upstream's routes.StringFlagPutHandler with
// logs.GlogSetter does it: the body is parsed like klog's Level.Set (strconv.ParseInt, base 10,
// 32 bits: no spaces, no newline), the answer is plain text with a trailing newline, any other
// method is 406. The level is process-wide, as klog's is.
import type Koa from 'koa';
import type { Logger } from '../../log.js';

const MAX_BODY_BYTES = 64 * 1024;
const INT32_MIN = -2147483648n;
const INT32_MAX = 2147483647n;

function writePlainText(ctx: Koa.Context, code: number, text: string): void {
  ctx.status = code;
  ctx.body = `${text}\n`;
  // Exactly upstream's header: koa's ctx.type would add a charset.
  ctx.set('Content-Type', 'text/plain');
  ctx.set('X-Content-Type-Options', 'nosniff');
}

/** Go's strconv.ParseInt(s, 10, 32), with its error texts. */
export function parseInt32(s: string): number {
  if (!/^[+-]?[0-9]+$/.test(s)) throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(s)}: invalid syntax`);
  const v = BigInt(s);
  if (v < INT32_MIN || v > INT32_MAX) throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(s)}: value out of range`);
  return Number(v);
}

async function readBody(req: Koa.Request['req']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error(`http: request body too large`);
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function serveDebugFlagV(ctx: Koa.Context, logger: Logger): Promise<void> {
  if (ctx.method !== 'PUT') return writePlainText(ctx, 406, 'unsupported http method');
  let body: string;
  try {
    body = await readBody(ctx.req);
  } catch (e) {
    return writePlainText(ctx, 400, `error reading request body: ${(e as Error).message}`);
  }
  let level: number;
  try {
    level = parseInt32(body);
  } catch (e) {
    return writePlainText(ctx, 400, `failed set klog.logging.verbosity ${body}: ${(e as Error).message}`);
  }
  if (!logger.setVerbosity) return writePlainText(ctx, 400, 'failed set klog.logging.verbosity: this logger has no verbosity to set');
  logger.setVerbosity(level);
  logger.info('log verbosity changed through /debug/flags/v', { v: level });
  writePlainText(ctx, 200, `successfully set klog.logging.verbosity to ${body}`);
}
