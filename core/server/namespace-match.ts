// rest.EnsureObjectNamespaceMatchesRequestNamespace, as create, update and every patch run it on
// the object they are about to store: a namespaced object names the request's namespace or none.
import { errors } from '../api/errors.js';
import type { ApiObject } from '../api/meta.js';
import type { ResourceStore } from '../registry/store.js';

export function ensureNamespaceMatches(store: ResourceStore, namespace: string, obj: ApiObject): void {
  if (store.namespaced && obj.metadata.namespace && obj.metadata.namespace !== namespace) {
    throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
}
