// nodeidentifier.NewDefaultNodeIdentifier: a user is a node when it is in group system:nodes and
// its name starts with system:node:; the rest of the name is the node's (possibly empty).
import type { UserInfo } from '../../core/authn/user.js';

export const NODES_GROUP = 'system:nodes';
export const NODE_USER_PREFIX = 'system:node:';

/** The node name, or undefined when the user is not a node. */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.name.startsWith(NODE_USER_PREFIX) || !user.groups.includes(NODES_GROUP)) return undefined;
  return user.name.slice(NODE_USER_PREFIX.length);
}
