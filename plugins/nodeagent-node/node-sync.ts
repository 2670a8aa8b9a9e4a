// Registration and status reporting (kubelet_node_status.go): register once, retrying with
// upstream's backoff (100 ms doubling to 7 s, before every attempt); on AlreadyExists reconcile the
// existing Node (the labels and annotation the agent owns) instead of failing. Then every sync
// reads the Node, puts back its platform/os and platform/arch labels (updateNode), recomputes its
// status and patches nodes/status (the labels travel in the patch's metadata) only when a label
// was put back, the status changed or nodeStatusReportFrequency has passed since the last report
// (the Lease is the heartbeat), with up to five tries, on the heartbeat client (registration uses
// the ordinary one). A status that made it to the server hands its addresses to the other subsystems.
import { isApiError, type RestClient } from '../../core/client/rest-client.js';
import { ApiCalls, type Heartbeat } from './api-calls.js';
import type { Logger } from '../../core/log.js';
import type { NodeAddress } from '../../core/nodeagent/context.js';
import type { Slot } from '../../core/nodeagent/slot.js';
import { NODE_RESOURCE, type Node } from '../../core/nodes/node-object.js';
import type { Clock } from './clock.js';
import { initialNode, reconcileAttachDetachAnnotation, restoreRequiredLabels, updateDefaultLabels, type NodeInputs } from './initial-node.js';
import { nodeStatusHasChanged, setNodeStatus } from './node-status.js';
import { nodeStatusPatch } from './status-patch.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';

const SMP = 'application/strategic-merge-patch+json';
const NODE_STATUS_UPDATE_RETRY = 5;
const REGISTER_FIRST_STEP_MS = 100;
const REGISTER_MAX_STEP_MS = 7000;

export interface NodeSyncDeps {
  readonly inputs: NodeInputs;
  readonly api: Slot<RestClient>;
  readonly heartbeat: Heartbeat;
  readonly addresses: Slot<readonly NodeAddress[]>;
  readonly clock: Clock;
  readonly registerNode: boolean;
  readonly reportFrequencyMs: number;
  readonly logger: Logger;
}

// client-go's words for a request that got no answer (`Get "<url>": dial tcp ...`), as upstream logs it.
const errText = goClientErrorText;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** PatchNodeStatus: the patch taking `original` to `updated`, sent to nodes/status. */
async function patchNodeStatus(api: ApiCalls, name: string, original: Node, updated: Node): Promise<Node> {
  const patch = nodeStatusPatch(original, updated);
  try {
    return await api.patch<Node>(NODE_RESOURCE, name, patch, SMP, 'status');
  } catch (e) {
    throw new Error(`failed to patch status ${JSON.stringify(JSON.stringify(patch))} for node ${JSON.stringify(name)}: ${errText(e)}`);
  }
}

export class NodeSync {
  #registered = false;
  #lastStatusReport = -Infinity;
  constructor(private readonly d: NodeSyncDeps) {}

  get registered(): boolean { return this.#registered; }
  get #name(): string { return this.d.inputs.nodeName; }

  /** syncNodeStatus: register if asked (once), then report the status. */
  async syncNodeStatus(signal: AbortSignal): Promise<void> {
    if (this.d.registerNode && !(await this.registerWithApiServer(signal))) return;
    try {
      await this.updateNodeStatus(signal);
    } catch (e) {
      if (!signal.aborted) this.d.logger.error('Unable to update node status', { err: errText(e) });
    }
  }

  /** registerWithAPIServer: true once registered, false when stopped first. */
  async registerWithApiServer(signal: AbortSignal): Promise<boolean> {
    let step = REGISTER_FIRST_STEP_MS;
    while (!this.#registered) {
      await this.d.clock.sleep(step, signal);
      if (signal.aborted) return false;
      step = Math.min(step * 2, REGISTER_MAX_STEP_MS);
      let node: Node;
      try {
        node = await initialNode(this.d.inputs);
      } catch (e) {
        this.d.logger.error('Unable to construct v1.Node object for nodeagent', { err: errText(e) });
        continue;
      }
      this.d.logger.info('Attempting to register node', { node: this.#name });
      if (await this.tryRegisterWithApiServer(node, signal)) {
        this.d.logger.info('Successfully registered node', { node: this.#name });
        this.#registered = true;
      }
    }
    return true;
  }

  /** tryRegisterWithAPIServer: create; on AlreadyExists reconcile the existing Node. */
  async tryRegisterWithApiServer(node: Node, signal: AbortSignal): Promise<boolean> {
    const api = new ApiCalls(this.d.api, signal);
    try {
      await api.create(NODE_RESOURCE, node);
      return true;
    } catch (e) {
      if (!isApiError(e, 'AlreadyExists')) {
        if (!signal.aborted) this.d.logger.error('Unable to register node with API server', { node: this.#name, err: errText(e) });
        return false;
      }
    }
    let existing: Node;
    try {
      existing = await api.get<Node>(NODE_RESOURCE, this.#name);
    } catch (e) {
      this.d.logger.error('Unable to register node with API server, error getting existing node', { node: this.#name, err: errText(e) });
      return false;
    }
    const original = clone(existing);
    this.d.logger.info('Node was previously registered', { node: this.#name });
    let requiresUpdate = reconcileAttachDetachAnnotation(node, existing, this.d.logger);
    requiresUpdate = updateDefaultLabels(node, existing) || requiresUpdate;
    if (requiresUpdate) {
      try {
        await patchNodeStatus(api, this.#name, original, existing);
      } catch (e) {
        this.d.logger.error('Unable to reconcile node with API server,error updating node', { node: this.#name, err: errText(e) });
        return false;
      }
    }
    return true;
  }

  /** updateNodeStatus: up to five tries. */
  async updateNodeStatus(signal: AbortSignal): Promise<void> {
    for (let i = 0; i < NODE_STATUS_UPDATE_RETRY && !signal.aborted; i++) {
      try {
        await this.tryUpdateNodeStatus(signal);
        return;
      } catch (e) {
        if (!signal.aborted) this.d.logger.error('Error updating node status, will retry', { err: errText(e) });
      }
    }
    throw new Error('update node status exceeds retry count');
  }

  /** tryUpdateNodeStatus and updateNode: read, fix the required labels, recompute, and patch when changed or due. */
  async tryUpdateNodeStatus(signal: AbortSignal): Promise<void> {
    const api = new ApiCalls(this.d.api, signal, this.d.heartbeat);
    let node: Node;
    try {
      node = await api.get<Node>(NODE_RESOURCE, this.#name);
    } catch (e) {
      throw new Error(`error getting node ${JSON.stringify(this.#name)}: ${errText(e)}`);
    }
    const original = clone(node);
    const labelsRestored = restoreRequiredLabels(node);
    await setNodeStatus(node, this.d.inputs);
    const changed = nodeStatusHasChanged(original.status, node.status) || labelsRestored;
    const now = this.d.clock.now();
    if (!changed && now < this.#lastStatusReport + this.d.reportFrequencyMs) return;
    const updated = await patchNodeStatus(api, this.#name, original, node);
    this.#lastStatusReport = now;
    this.#observeAddresses(updated);
  }

  /** setLastObservedNodeAddresses: what the server now holds, for the serving certificate's SANs. */
  #observeAddresses(node: Node): void {
    const addresses = (node.status?.addresses ?? []).map((a) => ({ type: a.type, address: a.address }) as NodeAddress);
    const current = this.d.addresses.get();
    if (current && JSON.stringify(current) === JSON.stringify(addresses)) return;
    this.d.addresses.set(addresses);
  }
}
