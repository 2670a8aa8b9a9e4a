// The few API calls the node subsystem makes, on whatever client `ctx.api` holds at the moment
// (the identity subsystem swaps it when the certificate rotates), each abortable by the subsystem's
// stop signal so that stopping the agent does not wait for a request to a server that is gone.
// Heartbeat calls (the status reports and the Lease) go as upstream's heartbeat client sends them:
// unthrottled and with a timeout of their own (see heartbeatTimeoutMs).
import type { ApiObject } from '../../core/api/meta.js';
import { resourcePath, type RequestOptions, type ResourceRef, type RestClient } from '../../core/client/rest-client.js';
import type { Slot } from '../../core/nodeagent/slot.js';

/** What makes a call a heartbeat call: its timeout. */
export interface Heartbeat { readonly timeoutMs: number }

/**
 * The heartbeat client's timeout (cmd/kubelet/app/server.go): nodeStatusUpdateFrequency, at most
 * the Lease's duration, so that a hung request gives way to the next try before the Lease expires.
 */
export const heartbeatTimeoutMs = (updateFrequencyMs: number, leaseDurationSeconds: number): number =>
  Math.min(updateFrequencyMs, leaseDurationSeconds * 1000);

export class ApiCalls {
  readonly #perCall: Omit<RequestOptions, 'signal'>;
  constructor(private readonly slot: Slot<RestClient>, private readonly signal: AbortSignal, heartbeat?: Heartbeat) {
    this.#perCall = heartbeat ? { timeoutMs: heartbeat.timeoutMs, unthrottled: true } : {};
  }

  #call<T>(method: string, path: string, o: Omit<RequestOptions, 'signal'> = {}): Promise<T> {
    const api = this.slot.get();
    if (!api) return Promise.reject(new Error('no API client'));
    return api.request<T>(method, path, { ...this.#perCall, ...o, signal: this.signal });
  }

  get<T extends ApiObject>(r: ResourceRef, name: string): Promise<T> {
    return this.#call<T>('GET', resourcePath(r, name));
  }
  create<T extends ApiObject>(r: ResourceRef, obj: T): Promise<T> {
    return this.#call<T>('POST', resourcePath(r), { body: obj });
  }
  update<T extends ApiObject>(r: ResourceRef, obj: T): Promise<T> {
    return this.#call<T>('PUT', resourcePath(r, obj.metadata.name), { body: obj });
  }
  patch<T extends ApiObject>(r: ResourceRef, name: string, patch: unknown, contentType: string, subresource?: string): Promise<T> {
    return this.#call<T>('PATCH', resourcePath(r, name, subresource), { body: patch, contentType });
  }
}
