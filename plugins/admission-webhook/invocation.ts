// Whether a webhook is called for a request (generic/webhook.go ShouldCallHook): namespace
// selector, object selector, rules, then match conditions. A selector that could not be
// evaluated (a missing namespace: 404) only fails the request when a rule selects it.
import type { AdmissionRequest } from '../../core/admission/request.js';
import { errors, isStatusError, StatusError } from '../../core/api/errors.js';
import { evaluateMatchConditions } from './cel/evaluate.js';
import type { DispatchContext } from './context.js';
import { requestAttributes, versioned } from './review.js';
import { ruleMatches } from './rules.js';
import { matchNamespaceSelector, matchObjectSelector } from './selectors.js';
import type { HookAccessor } from './source.js';

async function settle<T>(f: () => T | Promise<T>): Promise<{ value?: T; error?: StatusError }> {
  try {
    return { value: await f() };
  } catch (e) {
    if (isStatusError(e)) return { error: e };
    throw e;
  }
}

export async function shouldCallHook(hook: HookAccessor, req: AdmissionRequest, ctx: DispatchContext): Promise<boolean> {
  const h = hook.webhook;
  const ns = await settle(() => matchNamespaceSelector(h.namespaceSelector, req, ctx.namespaceLabels));
  if (!ns.error && !ns.value) return false;
  const obj = await settle(() => matchObjectSelector(h.objectSelector, req));
  if (!obj.error && !obj.value) return false;
  if (!(h.rules ?? []).some((r) => ruleMatches(r, req))) return false;
  if (ns.error) throw ns.error;
  if (obj.error) throw obj.error;
  const conditions = h.matchConditions ?? [];
  if (conditions.length === 0) return true;
  const result = await evaluateMatchConditions(conditions, h.failurePolicy ?? 'Fail', {
    object: versioned(req, req.object), oldObject: versioned(req, req.oldObject),
    request: { uid: '', ...requestAttributes(req), options: null },
    session: ctx.session,
    requestResource: { group: req.group, resource: req.resource, subresource: req.subresource, namespace: req.namespace, name: req.name },
    resolvePending: () => ctx.resolvePending(),
  });
  if ('error' in result) {
    ctx.logger.warn('Failed evaluating match conditions, failing closed', { webhook: h.name, error: result.error });
    throw errors.forbidden({ group: req.group, resource: req.resource }, req.name, result.error);
  }
  return result.matches;
}
