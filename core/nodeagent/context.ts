// What a node-agent subsystem (hooks.nodeAgent) gets from `plat nodeagent`: the merged
// configuration, the node's names, and slots through which subsystems hand each other what they
// own (the identity subsystem the API client and the serving pair, the node subsystem the node's
// addresses) without importing one another.
import type { RestClient } from '../client/rest-client.js';
import type { FlagSet } from '../flags/types.js';
import type { Hooks } from '../hooks.js';
import type { Logger } from '../log.js';
import type { MetricsRegistry } from '../metrics/registry.js';
import type { NodeAgentConfiguration } from './configuration.js';
import type { FeatureGates } from './feature-gates.js';
import { Slot } from './slot.js';

export interface NodeAddress { type: 'Hostname' | 'InternalIP' | 'ExternalIP' | 'InternalDNS' | 'ExternalDNS'; address: string }

/** A PEM certificate chain and its key, as a TLS server or client uses them. */
export interface TlsPair { readonly cert: string; readonly key: string }

/** One health check of the agent's healthz endpoints (/healthz/<name>). */
export interface HealthCheck { readonly name: string; check(): Promise<void> | void }

export interface NodeAgentContext {
  readonly config: Readonly<NodeAgentConfiguration>;
  /** The feature gates in force: `config.featureGates` (file, drop-ins and --feature-gates) over the defaults. */
  readonly gates: FeatureGates;
  /** The node agent's flags after the config file (for the flags that have no config field: --platconfig, --bootstrap-kubeconfig, --cert-dir, --root-dir, --hostname-override, --node-ip, --node-labels). */
  readonly flags: FlagSet;
  readonly logger: Logger;
  readonly hooks: Hooks;
  /** --hostname-override or the machine's hostname, lower-cased: the Node's name. */
  readonly nodeName: string;
  readonly hostname: string;
  /** No --platconfig: no API server, no registration, no certificates from the API. */
  readonly standalone: boolean;
  /** The API client authenticated as the node (its current client certificate); set by the identity subsystem, never in standalone mode. */
  readonly api: Slot<RestClient>;
  /**
   * The secure server's current certificate and key; set by the identity subsystem (given files,
   * self-signed, or issued), changed on rotation. `null`: no serving certificate (serverTLSBootstrap
   * before one is issued, or after it expired): the port listens and every handshake fails.
   */
  readonly servingPair: Slot<TlsPair | null>;
  /** The node's addresses (status.addresses order); set by the node subsystem from --node-ip and the hostname. */
  readonly addresses: Slot<readonly NodeAddress[]>;
  /** Health checks the healthz endpoint runs; any subsystem may add one while it is built. */
  readonly healthChecks: HealthCheck[];
  /** The objects `/configz` and `/pods` report: the server reads them, their owners set them. */
  readonly staticPods: Slot<readonly unknown[]>;
  /** What `/metrics` serves (core/metrics/nodeagent.ts); subsystems register their families and record into it. */
  readonly metrics: MetricsRegistry;
}

/**
 * The legacy TLS bootstrap (no rotateCertificates, a --bootstrap-kubeconfig): upstream's kubelet
 * loads the client certificate (LoadClientCert) in run(), before it starts anything else.
 */
export function legacyBootstrap(ctx: Pick<NodeAgentContext, 'config' | 'flags' | 'standalone'>): boolean {
  if (ctx.standalone || ctx.config.rotateCertificates || !ctx.flags.has('bootstrap-kubeconfig')) return false;
  return (ctx.flags.get<string>('bootstrap-kubeconfig') ?? '') !== '';
}
