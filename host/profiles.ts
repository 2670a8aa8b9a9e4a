// Every role's profile at once, for tests and benchmarks that run several roles (the `plat` command
// loads only the one it runs, host/role-registry.ts). Each profile is the plugins the host loads
// for its role, in order, and the spec's full flag catalogue (flags no plugin implements yet are
// listed in --help and refused if given).
import type { Profile } from '../core/boot.js';
import { allInOneProfile } from './profiles/all.js';
import { apiserverProfile } from './profiles/apiserver.js';
import { controllerManagerProfile } from './profiles/controller-manager.js';
import { nodeAgentProfile } from './profiles/nodeagent.js';

export { controllerManagerPlugins } from './profiles/controllers.js';
export { nodeAgentPlugins } from './profiles/nodeagent.js';

/** In host/role-registry.ts's order. */
export const profiles: Record<string, Profile> = {
  apiserver: apiserverProfile,
  'controller-manager': controllerManagerProfile,
  all: allInOneProfile,
  nodeagent: nodeAgentProfile,
};
