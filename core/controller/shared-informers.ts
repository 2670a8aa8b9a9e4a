// One informer per resource for all controllers of a process (client-go's SharedInformerFactory):
// the CSR signing, approving and cleaning controllers share one list and one watch.
import type { ApiObject } from '../api/meta.js';
import type { ResourceRef, RestClient } from '../client/rest-client.js';
import type { Logger } from '../log.js';
import { Informer } from './informer.js';

/** The reflector name of the shared informers (upstream's is the factory's file:line, k8s.io/client-go/informers/factory.go:160). */
export const SHARED_INFORMERS_NAME = 'core/controller/shared-informers.ts';

export class SharedInformers {
  readonly #informers = new Map<string, Informer<ApiObject>>();
  readonly #running: Promise<void>[] = [];
  #signal: AbortSignal | undefined;
  /**
   * --min-resync-period randomised between one and two times itself, once for all the informers:
   * kube-controller-manager draws ResyncPeriod(s)() once, when it makes its informer factory.
   */
  readonly #resyncMs: number;

  constructor(private readonly client: RestClient, private readonly o: { minResyncMs?: number; logger?: Logger } = {}) {
    this.#resyncMs = o.minResyncMs ? Math.floor(o.minResyncMs * (1 + Math.random())) : 0;
  }

  for<T extends ApiObject>(resource: ResourceRef): Informer<T> {
    const key = `${resource.group}/${resource.version}/${resource.plural}/${resource.namespace ?? ''}`;
    let inf = this.#informers.get(key);
    if (!inf) {
      // pageSize: the pager's default, as the factory's informers leave it.
      inf = new Informer<ApiObject>({ client: this.client, resource, resyncMs: this.#resyncMs, ...(this.o.logger ? { logger: this.o.logger } : {}), pageSize: 500, name: SHARED_INFORMERS_NAME });
      this.#informers.set(key, inf);
      if (this.#signal) this.#running.push(inf.run(this.#signal));
    }
    return inf as unknown as Informer<T>;
  }

  /** Starts every informer asked for so far (and any asked for later) until `signal` aborts. */
  start(signal: AbortSignal): void {
    if (this.#signal) return;
    this.#signal = signal;
    for (const inf of this.#informers.values()) this.#running.push(inf.run(signal));
  }

  async waitForSync(signal: AbortSignal): Promise<void> {
    await Promise.all([...this.#informers.values()].map((i) => i.waitForSync(signal)));
  }

  /** Resolves when every started informer has stopped. */
  async stopped(): Promise<void> { await Promise.all(this.#running); }
}
