// The node's heartbeat: component-helpers' lease controller as the kubelet runs it (pkg/kubelet/
// nodelease). Lease `plat-node-lease/<node>`, holder the node name, duration
// nodeLeaseDurationSeconds, renewTime a MicroTime, owned by the Node (set as soon as the Node can
// be read, and only while the Lease has no owner, as setNodeOwnerFunc; upstream's garbage
// collector then deletes the Lease with its Node, plat has none: the Lease stays, renewed, with the
// deleted Node's uid). Renewed every renew interval (0.25 ×
// the lease duration, 10 s for 40) with 4% jitter, from the last Lease written (no read); a
// failed renewal is retried at once up to five times, re-reading the Lease after a conflict;
// making sure the Lease exists backs off from 200 ms doubling to 7 s. Every call (the Node's read
// for the owner reference too) goes as the kubelet's heartbeat client sends it.
import type { ApiObject } from '../../core/api/meta.js';
import { isApiError, type RestClient } from '../../core/client/rest-client.js';
import { microTime } from '../../core/controller/leader-election.js';
import type { Logger } from '../../core/log.js';
import type { Slot } from '../../core/nodeagent/slot.js';
import { LEASE_RESOURCE, NODE_LEASE_NAMESPACE, NODE_RESOURCE, type Node } from '../../core/nodes/node-object.js';
import { ApiCalls, type Heartbeat } from './api-calls.js';
import { jitterUntil, type Clock } from './clock.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import { formatDuration } from '../../core/flags/duration.js';

export const RENEW_INTERVAL_FRACTION = 0.25;
const MAX_UPDATE_RETRIES = 5;
const MAX_BACKOFF_MS = 7000;
const JITTER = 0.04;

export interface NodeLease extends ApiObject {
  spec: { holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string; [k: string]: unknown };
}

export interface LeaseDeps {
  readonly nodeName: string;
  readonly leaseDurationSeconds: number;
  readonly api: Slot<RestClient>;
  readonly heartbeat: Heartbeat;
  readonly clock: Clock;
  readonly random: () => number;
  readonly logger: Logger;
}

// client-go's words for a request that got no answer (`Get "<url>": dial tcp ...`), as upstream logs it.
const errText = goClientErrorText;
const leases = { ...LEASE_RESOURCE, namespace: NODE_LEASE_NAMESPACE };

export class NodeLeaseController {
  #latest: NodeLease | undefined;
  constructor(private readonly d: LeaseDeps) {}

  get renewIntervalMs(): number { return this.d.leaseDurationSeconds * 1000 * RENEW_INTERVAL_FRACTION; }
  get latest(): NodeLease | undefined { return this.#latest; }

  run(signal: AbortSignal): Promise<void> {
    return jitterUntil(() => this.sync(signal), this.renewIntervalMs, JITTER, this.d.clock, this.d.random, signal);
  }

  async sync(signal: AbortSignal): Promise<void> {
    if (this.#latest) {
      // Optimistically renew from the last write: no read, as long as nobody else writes the Lease.
      try {
        await this.#retryUpdate(this.#latest, signal);
        return;
      } catch (e) {
        if (signal.aborted) return;
        this.d.logger.info('failed to update lease using latest lease, fallback to ensure lease', { err: errText(e) });
      }
    }
    const { lease, created } = await this.#backoffEnsure(signal);
    this.#latest = lease;
    if (!created && lease) {
      try {
        await this.#retryUpdate(lease, signal);
      } catch (e) {
        if (!signal.aborted) this.d.logger.error('Will retry updating lease', { interval: `${this.renewIntervalMs / 1000}s`, err: errText(e) });
      }
    }
  }

  async #backoffEnsure(signal: AbortSignal): Promise<{ lease?: NodeLease; created: boolean }> {
    let sleep = 100;
    for (;;) {
      try {
        return await this.#ensure(signal);
      } catch (e) {
        if (signal.aborted) return { created: false };
        sleep = Math.min(2 * sleep, MAX_BACKOFF_MS);
        this.d.logger.error('Failed to ensure lease exists, will retry', { interval: formatDuration(sleep), err: errText(e) });
        await this.d.clock.sleep(sleep, signal);
        if (signal.aborted) return { created: false };
      }
    }
  }

  async #ensure(signal: AbortSignal): Promise<{ lease?: NodeLease; created: boolean }> {
    const api = new ApiCalls(this.d.api, signal, this.d.heartbeat);
    try {
      return { lease: await api.get<NodeLease>(leases, this.d.nodeName), created: false };
    } catch (e) {
      if (!isApiError(e, 'NotFound')) throw e;
    }
    let fresh: NodeLease;
    try {
      fresh = await this.#newLease(undefined, api);
    } catch {
      // The owner reference could not be set: create nothing this time, try again next round.
      return { created: false };
    }
    return { lease: await api.create(leases, fresh), created: true };
  }

  async #retryUpdate(base: NodeLease, signal: AbortSignal): Promise<void> {
    const api = new ApiCalls(this.d.api, signal, this.d.heartbeat);
    let current: NodeLease | undefined = base;
    for (let i = 0; i < MAX_UPDATE_RETRIES; i++) {
      if (signal.aborted) return;
      try {
        const next = await this.#newLease(current, api).catch(() => this.#renewed(current!));
        this.#latest = await api.update(leases, next);
        return;
      } catch (e) {
        if (signal.aborted) return;
        this.d.logger.error('Failed to update lease', { err: errText(e) });
        if (isApiError(e, 'Conflict')) {
          // Someone else wrote it: renew from what is stored now.
          current = (await this.#backoffEnsure(signal)).lease;
          if (!current) break;
        }
      }
    }
    throw new Error(`failed ${MAX_UPDATE_RETRIES} attempts to update lease`);
  }

  #renewed(base: NodeLease): NodeLease {
    const lease = JSON.parse(JSON.stringify(base)) as NodeLease;
    lease.spec = { ...lease.spec, renewTime: microTime(this.d.clock.now()) };
    return lease;
  }

  /** newLease + SetNodeOwnerFunc: a fresh Lease or a renewed copy, owned by the Node once it can be read. */
  async #newLease(base: NodeLease | undefined, api: ApiCalls): Promise<NodeLease> {
    const lease: NodeLease = base ? this.#renewed(base) : {
      apiVersion: 'coordination.platform/v1', kind: 'Lease',
      metadata: { name: this.d.nodeName, namespace: NODE_LEASE_NAMESPACE },
      spec: { holderIdentity: this.d.nodeName, leaseDurationSeconds: this.d.leaseDurationSeconds, renewTime: microTime(this.d.clock.now()) },
    };
    if (!lease.metadata.ownerReferences?.length) {
      try {
        const node = await api.get<Node>(NODE_RESOURCE, this.d.nodeName);
        lease.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Node', name: this.d.nodeName, uid: node.metadata.uid ?? '' }];
      } catch (e) {
        this.d.logger.error('Failed to get node when trying to set owner ref to the node lease', { node: this.d.nodeName, err: errText(e) });
        throw e;
      }
    }
    return lease;
  }
}
