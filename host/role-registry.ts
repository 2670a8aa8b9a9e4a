// plat's roles without their plugins: each role's profile is imported when that role runs, so
// `plat nodeagent` loads the node agent's plugins and not the API server's (the agent runs on
// every node, where its start-up time and memory count). What each role's plugins call is listed
// here too, for the warning on a tap its hook's command would call (core/uncalled-taps.ts);
// test/host/role-registry.test.ts holds the list to the profiles' plugins.
import type { Profile } from '../core/boot.js';
import type { HookName } from '../core/hooks.js';
import type { CommandCalls } from '../core/uncalled-taps.js';

export interface Role {
  load(): Promise<Profile>;
  /** The hooks the role's plugins call beyond HOST_CALLED. */
  readonly calls: readonly HookName[];
}

const API_SERVER_CALLS: readonly HookName[] = ['resources', 'authenticate', 'clientAuthorities', 'authorize', 'admitMutate', 'admitValidate', 'rulesFor', 'audit'];
const CONTROLLER_CALLS: readonly HookName[] = ['controllers', 'sign'];

/** In the order the warning names them. */
export const roles: Readonly<Record<string, Role>> = {
  apiserver: { load: async () => (await import('./profiles/apiserver.js')).apiserverProfile, calls: API_SERVER_CALLS },
  'controller-manager': { load: async () => (await import('./profiles/controller-manager.js')).controllerManagerProfile, calls: CONTROLLER_CALLS },
  all: { load: async () => (await import('./profiles/all.js')).allInOneProfile, calls: [...API_SERVER_CALLS, ...CONTROLLER_CALLS] },
  nodeagent: { load: async () => (await import('./profiles/nodeagent.js')).nodeAgentProfile, calls: ['nodeAgent'] },
};

/** Every role and the hooks it calls, for boot's `commands`. */
export const roleCalls: readonly CommandCalls[] = Object.entries(roles).map(([role, r]) => ({ role, calls: r.calls }));

/** Roles of the design that later issues bring. */
export const upcomingRoles: Record<string, string> = {};
