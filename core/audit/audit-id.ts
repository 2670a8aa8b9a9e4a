// WithAuditInit and WithRequestReceivedTimestamp: a request's Audit-ID is the one its client sent
// (kept as it is) or a new UUID, and the answer carries it back in the Audit-ID header.
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { preciseNow } from './time.js';

export function withAuditId(ctx: Context, next: Next): Promise<void> {
  const received = preciseNow();
  const given = ctx.req.headers['audit-id'];
  const auditID = (Array.isArray(given) ? given[0] : given) || randomUUID();
  // Go's Header.Set writes the name canonical: Audit-Id.
  ctx.set('Audit-Id', auditID);
  ctx.state.audit = { auditID, received };
  return next();
}
