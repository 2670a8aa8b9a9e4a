// The webhooks in force. Listing the configurations on every admission cost ~5% of the API
// server's CPU when there were none, so the flattened list is kept until a watch on the
// configurations reports a change (upstream's configuration managers are informers too); the
// watch's event arrives as the write commits, before the writer has its answer. Each stored
// configuration is flattened once per resourceVersion (defaults applied); configurations run in
// name order, webhooks in list order, as upstream's configuration managers sort them.
import type { Host } from '../../core/host.js';
import { servedStore } from '../../core/registry/stores.js';
import type { Watch } from '../../core/storage/storage.js';
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

  /** The flattened list, valid while the watch has reported no change. */
  #current: HookAccessor[] | undefined;
  #watch: Watch | undefined;
  /** Changes the watch has reported: a list taken while one arrived is used once, not kept. */
  #changes = 0;

  async webhooks(): Promise<HookAccessor[]> {
    if (this.#current && this.#watch) return this.#current;
    const store = servedStore(this.host, GROUP, VERSION, this.plural);
    if (!store) return [];
    const prefix = store.prefixFor('');
    const changesBefore = this.#changes;
    const listed = await store.storage.list(prefix);
    if (!this.#watch) this.#follow(store.storage.watch(prefix, { fromRevision: listed.revision }));
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
    const hooks = configs.flatMap((c) => c.hooks);
    if (this.#watch && this.#changes === changesBefore) this.#current = hooks;
    return hooks;
  }

  /** Forgets the list on any change; when the watch ends (storage closed, fell behind) the next call lists and watches again. */
  #follow(watch: Watch): void {
    this.#watch = watch;
    void (async () => {
      try {
        for await (const _ of watch) { this.#changes++; this.#current = undefined; }
      } catch { /* ended: listed again below */ }
      if (this.#watch === watch) { this.#watch = undefined; this.#current = undefined; }
    })();
  }

  close(): void { this.#watch?.close(); }
}
