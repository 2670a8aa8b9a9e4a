// What the dispatchers record of one webhook call, as upstream's mutating and validating
// dispatchers observe it: the call's duration and code, the rejection's kind (the webhook said no,
// it could not be called, or anything else went wrong: code 0) and a failure let through under
// failurePolicy Ignore. Nothing when the API server keeps no metrics (a bare host in a test).
import { isStatusError } from '../../core/api/errors.js';
import type { AdmissionRequest } from '../../core/admission/request.js';
import type { AdmissionMetrics } from '../../core/metrics/apiserver-admission.js';
import { CallingWebhookError, callingCode, WebhookRejection } from './errors.js';
import type { Webhook } from './types.js';

export function observeCall(metrics: AdmissionMetrics | undefined, h: Webhook, req: AdmissionRequest, mutating: boolean,
  error: unknown, seconds: number): void {
  if (!metrics) return;
  const name = h.name ?? '';
  const type = mutating ? 'admit' : 'validating';
  const op = req.operation;
  if (error === undefined) return metrics.webhook(name, type, op, false, 200, seconds);
  if (error instanceof CallingWebhookError) {
    const code = callingCode(error, mutating);
    const ignored = h.failurePolicy === 'Ignore';
    if (!ignored) metrics.webhookRejection(name, type, op, 'calling_webhook_error', code);
    metrics.webhook(name, type, op, !ignored, code, seconds);
    // Upstream's dispatchers leave a canceled call (the client went away) out of the fail-opens.
    if (ignored && !error.canceled) metrics.webhookFailOpen(name, type);
    return;
  }
  if (error instanceof WebhookRejection && isStatusError(error)) {
    metrics.webhookRejection(name, type, op, 'no_error', error.status.code);
    return metrics.webhook(name, type, op, true, error.status.code, seconds);
  }
  metrics.webhookRejection(name, type, op, 'apiserver_internal_error', 0);
  metrics.webhook(name, type, op, true, 0, seconds);
}
