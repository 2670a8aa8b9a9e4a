import type { SubresourceDefinition } from '../registry/strategy.js';

/** Verbs a subresource serves: its own list, else get/update/patch with a strategy, create when it has a handler. */
export function subresourceVerbs(s: SubresourceDefinition): string[] {
  if (s.verbs) return [...s.verbs];
  if (s.create) return s.strategy ? ['create', 'get', 'patch', 'update'] : ['create'];
  return s.strategy ? ['get', 'patch', 'update'] : ['get'];
}
