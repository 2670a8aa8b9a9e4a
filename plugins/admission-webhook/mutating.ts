// MutatingAdmissionWebhook (mutating/dispatcher.go): webhooks in order, each seeing the object as
// the previous ones left it; a JSON patch in the answer replaces the object. Reinvocation: when a
// webhook changes the object, the webhooks with reinvocationPolicy IfNeeded that ran before it are
// called once more after the first pass (only those; a webhook skipped in the first pass is not
// called for the first time then). Admission plugins after this one do not mutate in plat, so the
// webhooks' own changes are the only ones that trigger a second pass. Each call leaves its audit
// annotations (annotations.ts): whether it mutated, the patch it applied, a failure let through.
import type { AdmissionRequest } from '../../core/admission/request.js';
import { errors } from '../../core/api/errors.js';
import { performance } from 'node:perf_hooks';
import { callWebhook } from './call.js';
import type { DispatchContext } from './context.js';
import { CallingWebhookError, failClosed, rejection } from './errors.js';
import { observeCall } from './metrics.js';
import { shouldCallHook } from './invocation.js';
import { applyPatch, decodePatch, UndecodablePatch } from './patch.js';
import { versioned } from './review.js';
import type { HookAccessor } from './source.js';
import { MutatingAnnotator } from './annotations.js';

interface Reinvocation {
  previouslyInvoked: Set<string>;
  reinvoke: Set<string>;
  needed: boolean;
}

/** Calls one webhook and applies its patch; true when the object changed. */
async function callAndPatch(hook: HookAccessor, req: AdmissionRequest, ctx: DispatchContext, annotator: MutatingAnnotator): Promise<boolean> {
  const h = hook.webhook;
  const response = await callWebhook(h, req, true, ctx);
  if (response.patch === undefined) return false;
  let operations: unknown[];
  try {
    operations = decodePatch(response.patch);
  } catch (e) {
    if (e instanceof UndecodablePatch) throw new CallingWebhookError(h.name ?? '', e.message, 503);
    throw e;
  }
  if (operations.length === 0) return false;
  if (!req.object) throw errors.internal(new Error(`admission webhook ${JSON.stringify(h.name ?? '')} attempted to modify the object, which is not supported for this operation`));
  if (response.patchType !== 'JSONPatch') {
    throw new CallingWebhookError(h.name ?? '', `unsupported patch type ${JSON.stringify(response.patchType ?? '')}`, rejection(h.name ?? '', response.result).status.code);
  }
  const { object, changed } = applyPatch(versioned(req, req.object)!, operations, ctx.schema(req));
  annotator.patch(operations);
  req.object = object;
  return changed;
}

async function pass(hooks: readonly HookAccessor[], req: AdmissionRequest, ctx: DispatchContext, state: Reinvocation, round: 0 | 1): Promise<void> {
  for (const [index, hook] of hooks.entries()) {
    if (!(await shouldCallHook(hook, req, ctx))) continue;
    if (round === 1 && !state.reinvoke.has(hook.uid)) continue;
    const h = hook.webhook;
    const annotator = new MutatingAnnotator(req, ctx.logger, round, index, hook.configurationName, h.name ?? '');
    let changed = false;
    let failure: unknown;
    const start = performance.now();
    try {
      changed = await callAndPatch(hook, req, ctx, annotator);
    } catch (e) {
      failure = e;
    }
    annotator.mutation(changed);
    observeCall(ctx.metrics, h, req, true, failure, (performance.now() - start) / 1000);
    if (changed) {
      for (const uid of state.previouslyInvoked) state.reinvoke.add(uid);
      state.previouslyInvoked.clear();
      state.needed = true;
    }
    if (h.reinvocationPolicy === 'IfNeeded') state.previouslyInvoked.add(hook.uid);
    if (failure === undefined) continue;
    if (failure instanceof CallingWebhookError) {
      if (h.failurePolicy === 'Ignore') {
        ctx.logger.warn(failure.canceled ? 'Context canceled when calling webhook' : 'Failed calling webhook, failing open', { webhook: failure.webhookName, error: failure.message });
        if (!failure.canceled) annotator.failedOpen();
        continue;
      }
      ctx.logger.warn('Failed calling webhook, failing closed', { webhook: failure.webhookName, error: failure.message });
      throw failClosed(failure);
    }
    throw failure;
  }
}

export async function dispatchMutating(hooks: readonly HookAccessor[], req: AdmissionRequest, ctx: DispatchContext): Promise<void> {
  const state: Reinvocation = { previouslyInvoked: new Set(), reinvoke: new Set(), needed: false };
  await pass(hooks, req, ctx, state, 0);
  if (state.needed && state.reinvoke.size > 0) await pass(hooks, req, ctx, state, 1);
}
