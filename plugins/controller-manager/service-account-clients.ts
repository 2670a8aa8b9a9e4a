// --use-service-account-credentials: each controller's own API client acts as a service account of
// plat-system (upstream's DynamicControllerClientBuilder over kube-system), so RBAC grants every
// controller only what its role allows (system:controller:certificate-controller for the CSR
// controllers) instead of the controller manager's own rights. The account is created when
// missing (and its namespace, tolerating failure); the client carries no credentials of the
// controller manager, only a bearer token from a TokenRequest (1 hour), fetched on first use and
// renewed once 80% of its life has passed, or at once after a 401. Informers and leader election
// keep the controller manager's own client, as upstream.
import { isApiError, RestClient, type RestClientOptions, type TokenSource } from '../../core/client/rest-client.js';
import type { ClientConnection } from '../../core/client/connection.js';
import { addUserAgent } from '../../core/client/user-agent.js';
import type { Logger } from '../../core/log.js';
import { sleep as wait } from '../../core/abort-wait.js';

export const SERVICE_ACCOUNT_NAMESPACE = 'plat-system';
/** Upstream's defaultExpirationSeconds and defaultLeewayPercent. */
const EXPIRATION_SECONDS = 3600;
const LEEWAY_PERCENT = 20;
const MIN_LIFETIME_MS = 10 * 60_000;
/** wait.Backoff{Duration: 500ms, Factor: 2, Steps: 4}. */
const BACKOFF_MS = [500, 1000, 2000];

/**
 * A 404 that names no object: the path itself is not served. plat's API server serves the token
 * subresource only with service account tokens configured (upstream's always has an issuer).
 */
const noTokenRequests = (e: unknown): e is Error =>
  isApiError(e) && e.code === 404 && !(e.body as { details?: { kind?: string } } | undefined)?.details?.kind;

const saPath = (name = '') => `/api/v1/namespaces/${SERVICE_ACCOUNT_NAMESPACE}/serviceaccounts${name ? `/${encodeURIComponent(name)}` : ''}`;

export interface ServiceAccountClientsOptions {
  /** The controller manager's own client: creates the accounts and requests their tokens. */
  readonly root: RestClient;
  readonly rootConnection: ClientConnection;
  readonly clientOptions: RestClientOptions;
  /** rest.DefaultKubernetesUserAgent's agent, which each account's own is built on. */
  readonly defaultAgent: string;
  readonly logger: Logger;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

export class ServiceAccountClients {
  readonly #clients = new Map<string, RestClient>();
  constructor(private readonly o: ServiceAccountClientsOptions) {}

  /** The client acting as service account `name`; the account exists once this resolves. */
  async clientFor(name: string): Promise<RestClient> {
    await this.#getOrCreate(name);
    let client = this.#clients.get(name);
    if (!client) {
      // restclient.AnonymousClientConfig: the server and its trust, none of the root's credentials.
      const { server, ca, insecureSkipTlsVerify, tlsServerName, dial } = this.o.rootConnection;
      const anonymous: ClientConnection = {
        server, ...(ca ? { ca } : {}), ...(insecureSkipTlsVerify ? { insecureSkipTlsVerify } : {}),
        ...(tlsServerName ? { tlsServerName } : {}), ...(dial ? { dial } : {}),
      };
      // constructClient: AddUserAgent with the account's username, over the default agent.
      const userAgent = addUserAgent(this.o.defaultAgent, `system:serviceaccount:${SERVICE_ACCOUNT_NAMESPACE}:${name}`);
      client = new RestClient(anonymous, { ...this.o.clientOptions, userAgent, tokenSource: this.#tokenSource(name) });
      this.#clients.set(name, client);
    }
    return client;
  }

  close(): void {
    for (const c of this.#clients.values()) c.close();
    this.#clients.clear();
  }

  /** getOrCreateServiceAccount. */
  async #getOrCreate(name: string): Promise<void> {
    const root = this.o.root;
    try {
      await root.request('GET', saPath(name));
      return;
    } catch (e) {
      if (!(isApiError(e) && e.code === 404)) throw e;
    }
    // Tolerated: this component may not be allowed to create namespaces.
    try {
      await root.request('GET', `/api/v1/namespaces/${SERVICE_ACCOUNT_NAMESPACE}`);
    } catch (e) {
      if (isApiError(e) && e.code === 404) {
        try {
          await root.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: SERVICE_ACCOUNT_NAMESPACE } } });
        } catch (c) {
          if (!(isApiError(c) && c.code === 409)) this.o.logger.warn(`create non-exist namespace ${SERVICE_ACCOUNT_NAMESPACE} failed:${(c as Error).message}`);
        }
      }
    }
    try {
      await root.request('POST', saPath(), { body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: SERVICE_ACCOUNT_NAMESPACE } } });
      this.o.logger.info('created the service account of a controller', { serviceAccount: `${SERVICE_ACCOUNT_NAMESPACE}/${name}` });
    } catch (e) {
      // Someone else created it first: fine.
      if (!(isApiError(e) && e.code === 409)) throw e;
    }
  }

  /** tokenSourceImpl behind a CachedTokenSource that a 401 resets. */
  #tokenSource(name: string): TokenSource {
    const now = this.o.now ?? Date.now;
    const sleep = this.o.sleep ?? wait;
    let cached: { token: string; renewAt: number } | undefined;
    let pending: Promise<string> | undefined;
    const fetch = async (): Promise<string> => {
      let lastError: unknown;
      for (let attempt = 0; attempt <= BACKOFF_MS.length; attempt++) {
        if (attempt > 0) await sleep(BACKOFF_MS[attempt - 1]!);
        try {
          await this.#getOrCreate(name);
        } catch (e) {
          lastError = e;
          this.o.logger.warn(`get or create service account failed: ${(e as Error).message}`);
          continue;
        }
        try {
          const tr = await this.o.root.request<{ status?: { token?: string; expirationTimestamp?: string } }>('POST', `${saPath(name)}/token`, {
            body: { apiVersion: 'authentication.platform/v1', kind: 'TokenRequest', spec: { expirationSeconds: EXPIRATION_SECONDS } },
          });
          const token = tr.status?.token;
          const expires = Date.parse(tr.status?.expirationTimestamp ?? '');
          if (!token || Number.isNaN(expires)) throw new Error('the TokenRequest answer has no token or expiration');
          // Clock skew: never less than the minimum lifetime a token can be asked for.
          const lifetime = Math.max(expires - now(), MIN_LIFETIME_MS);
          cached = { token, renewAt: now() + lifetime - (lifetime * LEEWAY_PERCENT) / 100 };
          return token;
        } catch (e) {
          lastError = noTokenRequests(e)
            ? new Error(`${e.message} (the API server serves no TokenRequests: it needs --service-account-issuer and --service-account-signing-key-file)`)
            : e;
          this.o.logger.warn(`requesting token for service account failed: ${(lastError as Error).message}`);
        }
      }
      throw new Error(`failed to get token for ${SERVICE_ACCOUNT_NAMESPACE}/${name}: ${(lastError as Error)?.message ?? 'unknown error'}`);
    };
    return {
      token: async () => {
        if (cached && now() < cached.renewAt) return cached.token;
        // One TokenRequest at a time, however many requests are waiting for it.
        pending ??= fetch().finally(() => { pending = undefined; });
        return pending;
      },
      reset: () => { cached = undefined; },
    };
  }
}
