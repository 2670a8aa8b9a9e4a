// Who is a node: nodeidentifier.NewDefaultNodeIdentifier. A user named `system:node:<name>` who is
// in group `system:nodes`; either alone is not a node. A node whose name part is empty is a node
// nobody can place, and gets nothing.
import type { UserInfo } from '../../core/authn/user.js';

export const NODE_USER_PREFIX = 'system:node:';
export const NODES_GROUP = 'system:nodes';

export function nodeIdentity(user: UserInfo): { readonly isNode: boolean; readonly nodeName: string } {
  if (!user.name.startsWith(NODE_USER_PREFIX) || !user.groups.includes(NODES_GROUP)) return { isNode: false, nodeName: '' };
  return { isNode: true, nodeName: user.name.slice(NODE_USER_PREFIX.length) };
}
