// The NodeAgentContext every subsystem gets: the configuration, the flags, the node's name
// (upstream's nodeutil.GetHostname: --hostname-override or the machine's hostname, trimmed and
// lower-cased, empty refused), standalone mode when there is no --platconfig, and fresh slots.
import os from 'node:os';
import type { RestClient } from '../../core/client/rest-client.js';
import type { FlagSet } from '../../core/flags/types.js';
import type { Hooks } from '../../core/hooks.js';
import type { Logger } from '../../core/log.js';
import type { NodeAgentConfiguration } from '../../core/nodeagent/configuration.js';
import type { NodeAddress, NodeAgentContext, TlsPair } from '../../core/nodeagent/context.js';
import { FeatureGates } from '../../core/nodeagent/feature-gates.js';
import { EMULATED_KUBERNETES_VERSION } from '../../core/nodeagent/feature-gate-specs.js';
import { nodeAgentMetrics } from '../../core/metrics/nodeagent.js';
import { Slot } from '../../core/nodeagent/slot.js';

/** nodeutil.GetHostname; throws with upstream's texts. */
export function nodeHostname(override: string, machine: () => string = os.hostname): string {
  let name = override;
  if (name.length === 0) {
    try {
      name = machine();
    } catch (e) {
      throw new Error(`couldn't determine hostname: ${(e as Error).message}`);
    }
  }
  name = name.trim();
  if (name.length === 0) throw new Error('empty hostname is invalid');
  return name.toLowerCase();
}

export interface ContextInput {
  readonly config: NodeAgentConfiguration;
  /** The gates the configuration was validated with; evaluated from `config.featureGates` when not given. */
  readonly gates?: FeatureGates;
  readonly flags: FlagSet;
  readonly logger: Logger;
  readonly hooks: Hooks;
  readonly machineHostname?: () => string;
}

export function buildNodeAgentContext(i: ContextInput): NodeAgentContext {
  const hostname = nodeHostname(i.flags.get<string>('hostname-override'), i.machineHostname);
  return {
    config: Object.freeze(i.config),
    gates: i.gates ?? FeatureGates.evaluate(i.config.featureGates).gates,
    flags: i.flags,
    logger: i.logger,
    hooks: i.hooks,
    nodeName: hostname,
    hostname,
    standalone: i.flags.get<string>('platconfig') === '',
    api: new Slot<RestClient>(),
    servingPair: new Slot<TlsPair | null>(),
    addresses: new Slot<readonly NodeAddress[]>(),
    healthChecks: [],
    staticPods: new Slot<readonly unknown[]>(),
    metrics: nodeAgentMetrics(hostname, EMULATED_KUBERNETES_VERSION, i.config.showHiddenMetricsForVersion !== ''),
  };
}
