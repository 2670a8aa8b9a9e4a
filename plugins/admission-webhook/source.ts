// The webhooks in force, read from the store on every admission so that a configuration written
// a moment ago applies to the next request. Each stored configuration is flattened once per
// resourceVersion (defaults applied); configurations run in name order, webhooks in list order,
// as upstream's configuration managers sort them.
import type { Host } from '../../core/host.js';
import { servedStore } from '../../core/registry/stores.js';
import { applyDefaults } from './defaults.js';
import { GROUP, VERSION, type Webhook, type WebhookConfiguration } from './types.js';

export interface HookAccessor {
  /** Stable within one admission: `<configuration>/<webhook>/<index>`. */
  readonly uid: string;
  readonly configurationName: string;
  readonly webhook: Webhook;
}

interface Cached { readonly revision: number; readonly name: string; readonly hooks: readonly HookAccessor[] }

export class WebhookSource {
  readonly #cache = new Map<string, Cached>();
  constructor(private readonly host: Host, private readonly plural: string, private readonly mutating: boolean) {}

  async webhooks(): Promise<HookAccessor[]> {
    const store = servedStore(this.host, GROUP, VERSION, this.plural);
    if (!store) return [];
    const listed = await store.storage.list(store.prefixFor(''));
    const seen = new Set<string>();
    const configs: Cached[] = [];
    for (const kv of listed.items) {
      seen.add(kv.key);
      let c = this.#cache.get(kv.key);
      if (!c || c.revision !== kv.modRevision) {
        const obj = store.toObject(kv) as WebhookConfiguration;
        applyDefaults(obj, this.mutating);
        const name = obj.metadata.name ?? '';
        const hooks = (obj.webhooks ?? []).map((webhook, i) => ({ uid: `${name}/${webhook.name ?? ''}/${i}`, configurationName: name, webhook }));
        c = { revision: kv.modRevision, name, hooks };
        this.#cache.set(kv.key, c);
      }
      configs.push(c);
    }
    for (const key of this.#cache.keys()) if (!seen.has(key)) this.#cache.delete(key);
    configs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return configs.flatMap((c) => c.hooks);
  }
}
