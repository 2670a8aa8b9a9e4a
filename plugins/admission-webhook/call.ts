// One call of one webhook: the dry-run guard, the review, the HTTPS exchange, the answer's
// checks, its warnings and verdict. Failures to call are CallingWebhookError (the failure policy
// decides); a denial or an unsupported dry run is a StatusError (always final).
import type { AdmissionRequest } from '../../core/admission/request.js';
import { CallFailure, endpointOf, postReview } from './client.js';
import type { DispatchContext } from './context.js';
import { CallingWebhookError, dryRunUnsupported, rejection } from './errors.js';
import { createReview, InvalidResponse, UndecodableResponse, verifyResponse, type ReviewResponse } from './review.js';
import type { Webhook } from './types.js';
import { addResponseAnnotations } from './annotations.js';

/** As the dispatchers' context.WithTimeout(ctx, timeoutSeconds): the earlier of the webhook's and the request's deadlines. */
function callDeadline(timeoutSeconds: number, requestDeadline: number | undefined): number {
  const own = Date.now() + timeoutSeconds * 1000;
  return requestDeadline === undefined ? own : Math.min(own, requestDeadline);
}

export async function callWebhook(h: Webhook, req: AdmissionRequest, mutating: boolean, ctx: DispatchContext): Promise<ReviewResponse> {
  const name = h.name ?? '';
  if (req.dryRun) {
    if (h.sideEffects === undefined) throw new CallingWebhookError(name, 'Webhook SideEffects is nil', 400);
    if (h.sideEffects !== 'None' && h.sideEffects !== 'NoneOnDryRun') throw dryRunUnsupported(name);
  }
  const review = createReview(req, h.admissionReviewVersions ?? []);
  if (!review) throw new CallingWebhookError(name, 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)', 400);
  let answer: unknown;
  try {
    const endpoint = endpointOf(h.clientConfig ?? {});
    answer = await postReview(endpoint, JSON.stringify(review.body), callDeadline(h.timeoutSeconds ?? 10, req.deadline), ctx.agents, req.signal);
  } catch (e) {
    if (e instanceof CallFailure) throw new CallingWebhookError(name, e.message, e.code ?? 'call', e.canceled);
    throw e;
  }
  let response: ReviewResponse;
  try {
    response = verifyResponse(review, answer, mutating);
  } catch (e) {
    if (e instanceof InvalidResponse) throw new CallingWebhookError(name, `received invalid webhook response: ${e.message}`, 503);
    if (e instanceof UndecodableResponse) throw new CallingWebhookError(name, `failed to call webhook: ${e.message}`);
    throw e;
  }
  addResponseAnnotations(req, ctx.logger, name, mutating, response.auditAnnotations);
  req.warnings.push(...response.warnings);
  if (!response.allowed) throw rejection(name, response.result);
  return response;
}
