// `plat nodeagent`: before configure, build the NodeAgentConfiguration from the option defaults,
// the --config file, the --config-dir drop-ins and the flags given, and validate it, so that a bad
// configuration stops start-up (exit 1, every problem listed) before anything is configured.
import type { Flags } from '../../core/flags/flag-set.js';
import type { Host } from '../../core/host.js';
import { prepareNodeAgentConfiguration } from '../../plugins/nodeagent/index.js';

export async function prepareNodeAgent(host: Host, flags: Flags): Promise<void> {
  prepareNodeAgentConfiguration(host, flags);
}
