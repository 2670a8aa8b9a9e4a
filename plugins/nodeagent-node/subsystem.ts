// The `node` subsystem: everything the agent says about its Node. Built from the context, it checks
// the flags it owns at once (a bad --node-ip or --node-labels is a start-up error); run computes
// the node's addresses and, with an API server, registers the Node (when registerNode), keeps its
// status and renews its Lease until stopped. In standalone mode it only publishes the addresses.
import { NodeEvents } from './node-events.js';
import { whenAborted } from '../../core/abort-wait.js';
import { parseDuration } from '../../core/flags/duration.js';
import type { Runnable } from '../../core/lifecycle.js';
import type { NodeAddress, NodeAgentContext } from '../../core/nodeagent/context.js';
import type { Node } from '../../core/nodes/node-object.js';
import { defaultGitVersion } from '../../core/version.js';
import { setNodeAddresses } from './addresses.js';
import { heartbeatTimeoutMs } from './api-calls.js';
import { jitterUntil, realClock, type Clock } from './clock.js';
import { realHostNetwork, type HostNetwork } from './host-network.js';
import type { NodeInputs } from './initial-node.js';
import { realMachineInfo, type MachineInfoSource } from './machine.js';
import { nodeLabelsError } from './node-labels-flag.js';
import { NodeLeaseController } from './node-lease.js';
import { parseNodeIpArgument } from './node-ip.js';
import { NO_PRESSURE, type PressureSignals } from './node-status.js';
import { NodeSync } from './node-sync.js';

export interface NodeSubsystemOptions {
  /** plat's version: the Node reports its GitVersion (what `--version` prints) as its agent's version. */
  readonly version: string;
  /** The GitVersion `--version=vX.Y.Z...` asked for, reported instead (upstream's dynamic version). */
  readonly gitVersion?: string | undefined;
  readonly clock?: Clock;
  readonly random?: () => number;
  readonly network?: HostNetwork;
  readonly machine?: MachineInfoSource;
  readonly pressure?: PressureSignals;
  /** The wall clock (ms) of the node's Events (their names and timestamps). */
  readonly eventNow?: () => number;
}

const DEFAULT_ROOT_DIR = '/var/lib/nodeagent';
const STATUS_JITTER = 0.04;

/** A flag the role may or may not define (the role defines them all; a test context may not). */
function flag<T>(ctx: NodeAgentContext, name: string, fallback: T): T {
  return ctx.flags.has(name) ? ctx.flags.get<T>(name) ?? fallback : fallback;
}

export interface NodeSubsystem extends Runnable {
  readonly sync: NodeSync;
  readonly lease: NodeLeaseController;
  readonly inputs: NodeInputs;
}

export function nodeSubsystem(ctx: NodeAgentContext, options: NodeSubsystemOptions): NodeSubsystem {
  // The role hands every subsystem a logger named after it.
  const logger = ctx.logger;
  const cloudProvider = flag<string>(ctx, 'cloud-provider', '');
  const nodeIpText = flag<string>(ctx, 'node-ip', '');
  const { ips, invalid } = parseNodeIpArgument(nodeIpText, cloudProvider);
  if (invalid.length) logger.info('Could not parse some node IP(s), ignoring them', { IPs: invalid });
  const nodeLabels = flag<Record<string, string>>(ctx, 'node-labels', {});
  const labelsError = nodeLabelsError(nodeLabels);
  if (labelsError) throw new Error(`failed to validate nodeagent flags: ${labelsError}`);

  const clock = options.clock ?? realClock;
  const random = options.random ?? Math.random;
  const rootDir = flag<string>(ctx, 'root-dir', DEFAULT_ROOT_DIR);
  const machineSource = options.machine ?? realMachineInfo;
  const events = new NodeEvents({ nodeName: ctx.nodeName, eventRecordQPS: ctx.config.eventRecordQPS, eventBurst: ctx.config.eventBurst, logger, ...(options.eventNow ? { now: options.eventNow } : {}) });
  const inputs: NodeInputs = {
    nodeName: ctx.nodeName, hostname: ctx.hostname, nodeLabels, nodeIps: ips,
    externalCloudProvider: cloudProvider === 'external', net: options.network ?? realHostNetwork,
    config: ctx.config, version: options.gitVersion ?? defaultGitVersion(options.version), machine: () => machineSource(rootDir),
    pressure: options.pressure ?? NO_PRESSURE, now: () => new Date(clock.now()), logger, recordEvent: events.recordNodeStatusEvent,
  };
  const updateFrequencyMs = parseDuration(ctx.config.nodeStatusUpdateFrequency);
  const heartbeat = { timeoutMs: heartbeatTimeoutMs(updateFrequencyMs, ctx.config.nodeLeaseDurationSeconds) };
  const sync = new NodeSync({
    inputs, api: ctx.api, heartbeat, addresses: ctx.addresses, clock, logger,
    registerNode: ctx.config.registerNode, reportFrequencyMs: parseDuration(ctx.config.nodeStatusReportFrequency),
  });
  const lease = new NodeLeaseController({
    nodeName: ctx.nodeName, leaseDurationSeconds: ctx.config.nodeLeaseDurationSeconds, api: ctx.api, heartbeat, clock, random, logger,
  });

  /** Standalone: the addresses as the status setter finds them, for the server and /pods. */
  async function publishLocalAddresses(): Promise<void> {
    const node: Node = { metadata: { name: ctx.nodeName }, status: {} };
    try {
      await setNodeAddresses(node, inputs);
      ctx.addresses.set((node.status?.addresses ?? []) as NodeAddress[]);
    } catch (e) {
      logger.error('Failed to set some node status fields', { node: ctx.nodeName, err: (e as Error).message });
    }
  }

  return {
    sync, lease, inputs,
    async run(signal) {
      if (ctx.standalone) {
        await publishLocalAddresses();
        await whenAborted(signal);
        return;
      }
      try {
        await ctx.api.wait(signal);
      } catch {
        return; // stopped before the identity subsystem had a client
      }
      events.start(() => ctx.api.get()!);
      events.starting();
      try {
        await Promise.all([
          jitterUntil(() => sync.syncNodeStatus(signal), updateFrequencyMs, STATUS_JITTER, clock, random, signal),
          lease.run(signal),
        ]);
      } finally {
        events.shutdown();
      }
    },
  };
}
