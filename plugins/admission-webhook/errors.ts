// The errors of webhook admission, worded as upstream's webhook/errors and util/webhook:
// a rejection carries the webhook's own Status; a failure to call is `failed calling webhook
// "<name>": <reason>` and becomes a 500 InternalError under failurePolicy Fail.
import { errors, StatusError, type Status } from '../../core/api/errors.js';

/** webhookutil.ErrCallingWebhook: the webhook could not be asked (or answered nonsense). */
export class CallingWebhookError extends Error {
  /**
   * The code of upstream's ErrCallingWebhook.Status (webhook metrics): a number, or what the
   * dispatcher decides: `call` (no answer: 400 validating, 503 mutating), `client` (no client: 400, 500).
   */
  constructor(readonly webhookName: string, readonly reason: string, readonly code: number | 'call' | 'client' = 'call',
    /** The request's context was canceled (the client went away): under Ignore no fail-open is counted or logged. */
    readonly canceled = false) {
    super(`failed calling webhook "${webhookName}": ${reason}`);
    this.name = 'CallingWebhookError';
  }
}

/** webhookutil.ErrWebhookRejection: the webhook said no (the metrics tell it from other errors). */
export class WebhookRejection extends StatusError {}

/** The code a calling error is reported with by the validating or the mutating dispatcher. */
export function callingCode(e: CallingWebhookError, mutating: boolean): number {
  if (typeof e.code === 'number') return e.code;
  if (e.code === 'client') return mutating ? 500 : 400;
  return mutating ? 503 : 400;
}

/** errors.ToStatusErr: the webhook's verdict, never below 400 and never "Success". */
export function rejection(webhookName: string, result: unknown): StatusError {
  const deniedBy = `admission webhook "${webhookName}" denied the request`;
  const r = (typeof result === 'object' && result !== null && !Array.isArray(result) ? result : {}) as Partial<Status> & Record<string, unknown>;
  const code = typeof r.code === 'number' && r.code >= 400 ? r.code : 400;
  const message = typeof r.message === 'string' ? r.message : '';
  const reason = typeof r.reason === 'string' ? r.reason : '';
  const text = message ? `${deniedBy}: ${message}` : reason ? `${deniedBy}: ${reason}` : `${deniedBy} without explanation`;
  const details = typeof r.details === 'object' && r.details !== null ? r.details : undefined;
  return new WebhookRejection({
    code, message: text,
    ...(reason ? { reason } : {}),
    ...(details ? { details: details as Status['details'] & object } : {}),
    ...(typeof r.metadata === 'object' && r.metadata !== null ? { metadata: r.metadata as Status['metadata'] } : {}),
  });
}

/** NewDryRunUnsupportedErr. */
export const dryRunUnsupported = (webhookName: string): StatusError =>
  errors.badRequest(`admission webhook "${webhookName}" does not support dry run`);

/** What failing closed sends: apierrors.NewInternalError(err). */
export const failClosed = (e: CallingWebhookError): StatusError => errors.internal(e);
