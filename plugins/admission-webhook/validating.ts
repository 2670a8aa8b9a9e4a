// ValidatingAdmissionWebhook (validating/dispatcher.go): decide every webhook first, then call
// the chosen ones in parallel; calling failures follow each webhook's failure policy. Upstream
// returns whichever error arrives first; here it is the first in configuration order, so the
// answer does not depend on timing.
import type { AdmissionRequest } from '../../core/admission/request.js';
import { performance } from 'node:perf_hooks';
import { callWebhook } from './call.js';
import type { DispatchContext } from './context.js';
import { CallingWebhookError, failClosed } from './errors.js';
import { shouldCallHook } from './invocation.js';
import { observeCall } from './metrics.js';
import type { HookAccessor } from './source.js';
import { addValidatingFailedOpen } from './annotations.js';

export async function dispatchValidating(hooks: readonly HookAccessor[], req: AdmissionRequest, ctx: DispatchContext): Promise<void> {
  const relevant: HookAccessor[] = [];
  for (const hook of hooks) if (await shouldCallHook(hook, req, ctx)) relevant.push(hook);
  if (relevant.length === 0) return;
  const outcomes = await Promise.all(relevant.map(async (hook, index) => {
    const start = performance.now();
    try {
      await callWebhook(hook.webhook, req, false, ctx);
      observeCall(ctx.metrics, hook.webhook, req, false, undefined, (performance.now() - start) / 1000);
      return undefined;
    } catch (e) {
      observeCall(ctx.metrics, hook.webhook, req, false, e, (performance.now() - start) / 1000);
      if (!(e instanceof CallingWebhookError)) return e;
      if (hook.webhook.failurePolicy === 'Ignore') {
        ctx.logger.warn(e.canceled ? 'Context canceled when calling webhook' : 'Failed calling webhook, failing open', { webhook: e.webhookName, error: e.message });
        if (!e.canceled) addValidatingFailedOpen(req, ctx.logger, index, hook.webhook.name ?? '');
        return undefined;
      }
      ctx.logger.warn('Failed calling webhook, failing closed', { webhook: e.webhookName, error: e.message });
      return failClosed(e);
    }
  }));
  const errs = outcomes.filter((e) => e !== undefined);
  if (errs.length > 0) throw errs[0];
}
