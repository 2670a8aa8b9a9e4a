// The few API calls the node subsystem makes, on whatever client `ctx.api` holds at the moment
// (the identity subsystem swaps it when the certificate rotates), each abortable by the subsystem's
// stop signal so that stopping the agent does not wait for a request to a server that is gone.
import type { ApiObject } from '../../core/api/meta.js';
import { resourcePath, type RequestOptions, type ResourceRef, type RestClient } from '../../core/client/rest-client.js';
import type { Slot } from '../../core/nodeagent/slot.js';

export class ApiCalls {
  constructor(private readonly slot: Slot<RestClient>, private readonly signal: AbortSignal) {}

  #call<T>(method: string, path: string, o: Omit<RequestOptions, 'signal'> = {}): Promise<T> {
    const api = this.slot.get();
    if (!api) return Promise.reject(new Error('no API client'));
    return api.request<T>(method, path, { ...o, signal: this.signal });
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
