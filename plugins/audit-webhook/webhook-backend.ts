// Upstream's audit webhook backend: each batch (one event in the blocking modes) is POSTed as one
// EventList in --audit-webhook-version to the config file's server. Every failed attempt is tried
// again (upstream's retryOnError: an audit sink that is down for a moment should not lose events),
// from --audit-webhook-initial-backoff, ×1.5, jitter 0.2, 5 attempts at most
// (DefaultRetryBackoffWithInitialDelay); any 2xx answer is success, its body unread. A batch that
// still failed is logged with its events (HandlePluginError) and reported, which blocking-strict
// turns into a failed request.
import type { AuditBackend } from '../../core/audit/backend.js';
import { handlePluginError } from '../../core/audit/backend.js';
import type { AuditEvent } from '../../core/audit/event.js';
import { goJsonEncode } from '../../core/api/go-json-marshal.js';
import type { WebhookConnection } from '../../core/client/kubeconfig.js';
import { WebhookClient, type Backoff } from '../../core/client/webhook-client.js';
import type { Logger } from '../../core/log.js';
import type { AuditErrorCounter } from '../../core/metrics/apiserver-audit.js';

/** upstream's PluginName, which its error lines name. */
export const PLUGIN = 'webhook';

/** webhook.DefaultRetryBackoffWithInitialDelay. */
export const retryBackoff = (initialMs: number): Backoff => ({ initialMs, factor: 1.5, jitter: 0.2, steps: 5 });

export interface WebhookBackendOptions {
  readonly connection: WebhookConnection;
  readonly apiVersion: string;
  readonly initialBackoffMs: number;
  readonly logger: Logger;
  /** apiserver_audit_error_total, for the events a batch that failed took with it. */
  readonly count?: AuditErrorCounter;
}

/** The body, as apimachinery's encoder writes an EventList: its items carry no kind of their own. */
export function eventListJson(events: readonly AuditEvent[], apiVersion: string): string {
  return goJsonEncode({ kind: 'EventList', apiVersion, metadata: {}, items: events });
}

export class WebhookBackend implements AuditBackend {
  readonly #client: WebhookClient;
  readonly #apiVersion: string;
  readonly #logger: Logger;
  readonly #count: AuditErrorCounter | undefined;

  /** Throws (at start-up) on the connection's unusable TLS material, as WebhookClient does. */
  constructor(o: WebhookBackendOptions) {
    this.#apiVersion = o.apiVersion;
    this.#logger = o.logger;
    this.#count = o.count;
    // LoadKubeconfig's 30s is the REST client's own timeout (http.Client.Timeout).
    this.#client = new WebhookClient({
      connection: o.connection, clientTimeout: true, backoff: retryBackoff(o.initialBackoffMs),
      retryEveryError: true, ignoreAnswer: true, logger: o.logger,
    });
  }

  async processEvents(events: readonly AuditEvent[]): Promise<boolean> {
    try {
      await this.#client.post(eventListJson(events, this.#apiVersion));
      return true;
    } catch (e) {
      handlePluginError(this.#logger, PLUGIN, e, events, this.#count);
      return false;
    }
  }

  async shutdown(): Promise<void> { this.#client.close(); }
}
