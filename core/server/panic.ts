// What upstream's WithPanicRecovery does with a handler that panics, for plat's equivalent: a
// throw that is neither a Status nor an error upstream's handlers return (a storage failure, a
// value no encryption provider can read, an authorizer's), so a bug in the server or in a plugin's
// code it runs. The client gets 500 with upstream's text and nothing of the error (it may quote the
// server's data or paths); the log gets the request and the stack. The audit sees it first (auditPanics: WithAudit's deferred recover,
// inside the recovery filter), as a Panic event in place of ResponseComplete.
import type { Context, Next } from 'koa';
import { isStatusError } from '../api/errors.js';
import type { AuditState } from '../audit/request-audit.js';
import { AuthorizationError } from '../authz/union.js';
import type { Logger } from '../log.js';
import { isStorageError } from '../storage/storage.js';
import { TransformError } from '../storage/encryption/encrypting-storage.js';
import { ContextError } from './request-signal.js';

export const PANIC_TEXT = "This request caused apiserver to panic. Look in the logs for details.";

/** A throw that upstream would have seen as a panic, not as an error a handler returned. */
// A call that failed because the request's context ended (its client gone, its deadline passed)
// returned ctx.Err(), which is no crash either.
export const isPanic = (e: unknown): boolean => !isStatusError(e) && !isStorageError(e) && !(e instanceof AuthorizationError) && !(e instanceof TransformError)
  && !(e instanceof ContextError);

/** WithAudit's recover: a panic under an audited request is its Panic event, then goes on up. */
export async function auditPanics(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (e) {
    const audit = (ctx.state as { audit?: AuditState }).audit?.request;
    if (audit && isPanic(e)) await audit.panic(e);
    throw e;
  }
}

/** WithPanicRecovery's crash handler: http.Error's plain text answer, and the log line. */
export function sendPanic(ctx: Context, log: Logger, e: unknown): void {
  log.error("apiserver panic'd", {
    method: ctx.method, URI: ctx.originalUrl, auditID: (ctx.state as { audit?: AuditState }).audit?.auditID ?? '',
    error: e instanceof Error ? e.stack ?? e.message : String(e),
  });
  // Headers gone already (a watch that crashed midway): the connection is cut, as net/http cuts
  // it when the panic reaches it, so the client cannot take a truncated answer for a whole one.
  if (ctx.headerSent) {
    ctx.res.destroy();
    return;
  }
  ctx.status = 500;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = `${PANIC_TEXT}\n`;
}
