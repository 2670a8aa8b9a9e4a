// rest.EnsureObjectNamespaceMatchesRequestNamespace: the create and update handlers run it on the
// decoded body, every patch on the patched object, and rest.BeforeCreate/BeforeUpdate once more on
// what mutating admission left, so a webhook cannot move an object to another namespace.
import { errors } from '../api/errors.js';
import type { ApiObject } from '../api/meta.js';

/**
 * A namespaced object takes the request's namespace when it names none and is refused when it
 * names another; a cluster-scoped object's namespace is cleared. A namespaced request without a
 * namespace (a caller inside the process) keeps the object's own.
 */
export function ensureNamespaceMatches(namespaced: boolean, namespace: string, obj: ApiObject): void {
  const meta = obj.metadata;
  if (!namespaced) { delete meta.namespace; return; }
  if (!namespace) return;
  if (meta.namespace && meta.namespace !== namespace) {
    throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  meta.namespace = namespace;
}
