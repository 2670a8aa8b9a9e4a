// Asking the authorizer chain from outside the request path: admission plugins checking a verb
// (approve, sign), RBAC's escalation check, the access-review APIs. Core owns the hook's call.
import type { Host } from '../host.js';
import type { Attributes, Decision } from './attributes.js';
import { authorizeUnion } from './union.js';

export function authorize(host: Host, attributes: Attributes): Promise<Decision | undefined> {
  return authorizeUnion(host.hooks.authorize, attributes);
}

/** True only for an explicit allow: deny and no opinion are both "no". */
export async function isAllowed(host: Host, attributes: Attributes): Promise<boolean> {
  return (await authorize(host, attributes))?.decision === 'allow';
}
