// A NodeAgentContext for testing one node-agent subsystem on its own: the defaulted configuration
// with overrides, fresh slots, and the flags the test defines. `plat nodeagent` builds the real one.
import { createHooks } from '../../core/hooks.js';
import { Flags } from '../../core/flags/flag-set.js';
import { silentLogger, type Logger } from '../../core/log.js';
import type { NodeAgentConfiguration } from '../../core/nodeagent/configuration.js';
import type { NodeAgentContext, NodeAddress, TlsPair } from '../../core/nodeagent/context.js';
import { defaultNodeAgentConfiguration } from '../../core/nodeagent/defaults.js';
import { FeatureGates } from '../../core/nodeagent/feature-gates.js';
import { EMULATED_KUBERNETES_VERSION } from '../../core/nodeagent/feature-gate-specs.js';
import { nodeAgentMetrics } from '../../core/metrics/nodeagent.js';
import { Slot } from '../../core/nodeagent/slot.js';
import type { RestClient } from '../../core/client/rest-client.js';

export interface TestContextOptions {
  config?: Partial<NodeAgentConfiguration>;
  nodeName?: string;
  standalone?: boolean;
  flags?: Flags;
  logger?: Logger;
}

export function nodeAgentTestContext(o: TestContextOptions = {}): NodeAgentContext {
  const nodeName = o.nodeName ?? 'node-1';
  const config = { ...defaultNodeAgentConfiguration(), ...o.config };
  return {
    config,
    gates: FeatureGates.evaluate(config.featureGates).gates,
    flags: o.flags ?? new Flags(),
    logger: o.logger ?? silentLogger,
    hooks: createHooks(),
    nodeName,
    hostname: nodeName,
    standalone: o.standalone ?? false,
    api: new Slot<RestClient>(),
    servingPair: new Slot<TlsPair | null>(),
    addresses: new Slot<readonly NodeAddress[]>(),
    healthChecks: [],
    staticPods: new Slot<readonly unknown[]>(),
    metrics: nodeAgentMetrics(nodeName, EMULATED_KUBERNETES_VERSION, config.showHiddenMetricsForVersion !== ''),
  };
}
