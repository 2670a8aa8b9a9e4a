// `plat nodeagent`: the role (flags, configuration, context, running the subsystems), then the
// subsystems, each registering itself through hooks.nodeAgent.
import type { Profile } from '../../core/boot.js';
import type { Plugin } from '../../core/plugin.js';
import { NodeAgentPlugin } from '../../plugins/nodeagent/index.js';
import { NodeAgentIdentity } from '../../plugins/nodeagent-identity/index.js';
import { NodeAgentNodePlugin } from '../../plugins/nodeagent-node/index.js';
import { NodeAgentServer } from '../../plugins/nodeagent-server/index.js';
import { NodeAgentStaticPods } from '../../plugins/nodeagent-static-pods/index.js';
import { nodeAgentFlagCatalogue } from '../flag-catalogue/nodeagent.js';
import { prepareNodeAgent } from '../roles/nodeagent.js';

export const nodeAgentPlugins: readonly Plugin[] = [NodeAgentPlugin, NodeAgentIdentity, NodeAgentNodePlugin, NodeAgentServer, NodeAgentStaticPods];

export const nodeAgentProfile: Profile = {
  role: 'nodeagent',
  description: 'The node agent runs on each node: it owns the node\'s identity (TLS bootstrap, client and serving certificates), registers the node, keeps its lease and serves its endpoints. Its subsystems are plugins (hooks.nodeAgent); it runs no containers.',
  plugins: nodeAgentPlugins,
  catalogue: nodeAgentFlagCatalogue,
  argumentsCheck: 'kubelet',
  prepare: prepareNodeAgent,
};
