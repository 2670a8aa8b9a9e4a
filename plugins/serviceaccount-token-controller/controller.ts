// Upstream's TokensController (pkg/controller/serviceaccount/tokens_controller.go) as of 1.32: it no
// longer makes tokens for accounts, it fills the token Secrets users make. Two queues:
// - accounts (`<ns>/<name>/<uid>`): an account gone deletes the token Secrets naming it;
// - token Secrets (namespace, name, uid and the account name and uid of its annotations): a Secret
//   whose account does not exist (or has another uid than the annotation says) is deleted; one
//   whose account exists gets `token` (a legacy JWT), `namespace` and `ca.crt` if it lacks them, and
//   the account's uid annotation; a Secret gone is taken out of its account's `secrets`.
// A failure that is worth another try is retried through the default controller rate limiter, at
// most ten times (retryOrForget); errors are logged in upstream's words.
import type { ApiObject } from '../../core/api/meta.js';
import { isApiError, type ResourceRef } from '../../core/client/rest-client.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import { objectKey } from '../../core/controller/informer.js';
import { defaultControllerRateLimiter } from '../../core/controller/rate-limiters.js';
import { WorkQueue } from '../../core/controller/workqueue.js';
import { whenAborted, sleep } from '../../core/abort-wait.js';
import type { ControllerContext, Runnable } from '../../core/lifecycle.js';
import {
  NAMESPACE_KEY, ROOT_CA_KEY, SERVICE_ACCOUNT_NAME_ANNOTATION, SERVICE_ACCOUNT_TOKEN_SECRET_TYPE, SERVICE_ACCOUNT_UID_ANNOTATION, TOKEN_KEY,
} from '../../core/authn/legacy-service-account-token.js';

export const SECRETS: ResourceRef = { group: '', version: 'v1', plural: 'secrets', kind: 'Secret' };
export const SERVICE_ACCOUNTS: ResourceRef = { group: '', version: 'v1', plural: 'serviceaccounts', kind: 'ServiceAccount' };

export interface Secret extends ApiObject { type?: string; data?: Record<string, string> | null }
export interface ServiceAccount extends ApiObject { secrets?: { name?: string }[] | null }

/** TokensControllerOptions' MaxRetries default. */
export const MAX_RETRIES = 10;
/** RemoveTokenBackoff: 10 steps of 100 ms, jitter 1.0. */
const REMOVE_TOKEN_BACKOFF = { steps: 10, durationMs: 100, jitter: 1.0 };

export interface TokensControllerOptions {
  /** Signs a Secret's token for an account (serviceaccount.LegacyClaims through the JWT generator). */
  readonly generateToken: (sa: ServiceAccount, secret: Secret) => string;
  /** Put into each Secret's `ca.crt` when given (a PEM bundle). */
  readonly rootCA?: Buffer;
  readonly workers: number;
  readonly maxRetries?: number;
}

interface SecretKey { namespace: string; name: string; uid: string; saName: string; saUID: string }

const b64 = (b: Buffer) => b.toString('base64');
const dataOf = (s: Secret, k: string) => Buffer.from(s.data?.[k] ?? '', 'base64');

export function tokensController(ctx: ControllerContext, controllerName: string, o: TokensControllerOptions): Runnable & { readonly secretQueue: WorkQueue<string>; readonly accountQueue: WorkQueue<string> } {
  const log = ctx.logger;
  const maxRetries = o.maxRetries ?? MAX_RETRIES;
  const rootCA = o.rootCA && o.rootCA.length > 0 ? o.rootCA : undefined;
  const accounts = ctx.informers.for<ServiceAccount>(SERVICE_ACCOUNTS);
  const secrets = ctx.informers.for<Secret>(SECRETS);
  const accountQueue = new WorkQueue<string>(defaultControllerRateLimiter<string>(), { name: 'serviceaccount_tokens_service', metrics: ctx.metrics });
  const secretQueue = new WorkQueue<string>(defaultControllerRateLimiter<string>(), { name: 'serviceaccount_tokens_secret', metrics: ctx.metrics });
  // updatedSecrets: the Secrets this controller wrote, newer than the informer may yet know.
  const written = new Map<string, Secret>();

  const accountKey = (sa: ServiceAccount) => JSON.stringify([sa.metadata.namespace ?? '', sa.metadata.name ?? '', sa.metadata.uid ?? '']);
  const secretKey = (s: Secret) => JSON.stringify([s.metadata.namespace ?? '', s.metadata.name ?? '', s.metadata.uid ?? '',
    s.metadata.annotations?.[SERVICE_ACCOUNT_NAME_ANNOTATION] ?? '', s.metadata.annotations?.[SERVICE_ACCOUNT_UID_ANNOTATION] ?? '']);
  const isToken = (s: Secret) => s.type === SERVICE_ACCOUNT_TOKEN_SECRET_TYPE;

  accounts.addHandlers({ add: (sa) => accountQueue.add(accountKey(sa)), update: (_o, sa) => accountQueue.add(accountKey(sa)), delete: (sa) => accountQueue.add(accountKey(sa)) });
  secrets.addHandlers({
    add: (s) => { if (isToken(s)) secretQueue.add(secretKey(s)); },
    update: (_o, s) => { if (isToken(s)) secretQueue.add(secretKey(s)); },
    // A deleted Secret's own write is forgotten too: it must not stand in for the Secret.
    delete: (s) => { written.delete(objectKey(s)); if (isToken(s)) secretQueue.add(secretKey(s)); },
  });

  /** getServiceAccount: the cache's if the uid fits, else (fetchOnCacheMiss) the server's; undefined: none that fits. */
  async function getServiceAccount(ns: string, name: string, uid: string, fetchOnCacheMiss: boolean, signal: AbortSignal): Promise<ServiceAccount | undefined> {
    const cached = accounts.get(`${ns}/${name}`);
    if (cached && (!uid || cached.metadata.uid === uid)) return cached;
    if (!fetchOnCacheMiss) return undefined;
    try {
      const live = await ctx.client.get<ServiceAccount>({ ...SERVICE_ACCOUNTS, namespace: ns }, name, undefined, { signal });
      return !uid || live.metadata.uid === uid ? live : undefined;
    } catch (e) {
      if (isApiError(e, 'NotFound')) return undefined;
      throw e;
    }
  }

  function getSecret(ns: string, name: string, uid: string): Secret | undefined {
    const key = `${ns}/${name}`;
    const cached = secrets.get(key);
    const mine = written.get(key);
    // The mutation cache's rule: ours while the informer has not seen a newer version.
    const s = mine && (!cached || Number(cached.metadata.resourceVersion) < Number(mine.metadata.resourceVersion)) ? mine : cached;
    if (mine && s === cached) written.delete(key);
    return s && (!uid || s.metadata.uid === uid) ? s : undefined;
  }

  /** deleteToken: true when a failure is worth another try (not NotFound, nor the uid precondition's Conflict). */
  async function deleteToken(ns: string, name: string, uid: string, signal: AbortSignal): Promise<[retry: boolean, err?: unknown]> {
    const options = { kind: 'DeleteOptions', apiVersion: 'v1', ...(uid ? { preconditions: { uid } } : {}) };
    try {
      await ctx.client.delete({ ...SECRETS, namespace: ns }, name, options, { signal });
      return [false];
    } catch (e) {
      if (isApiError(e, 'NotFound') || isApiError(e, 'Conflict')) return [false];
      return [true, e];
    }
  }

  /** IsServiceAccountToken: the name annotation is the account's, the uid one (if any) its uid. */
  const tokenOf = (s: Secret, ns: string, name: string, uid: string) => isToken(s) && s.metadata.namespace === ns
    && s.metadata.annotations?.[SERVICE_ACCOUNT_NAME_ANNOTATION] === name
    && (!s.metadata.annotations?.[SERVICE_ACCOUNT_UID_ANNOTATION] || s.metadata.annotations[SERVICE_ACCOUNT_UID_ANNOTATION] === uid);

  async function syncServiceAccount(key: string, signal: AbortSignal): Promise<boolean> {
    const [ns, name, uid] = JSON.parse(key) as [string, string, string];
    let sa: ServiceAccount | undefined;
    try {
      sa = await getServiceAccount(ns, name, uid, false, signal);
    } catch (e) {
      log.error('Getting service account', { err: goClientErrorText(e) });
      return true;
    }
    if (sa) return false;
    log.v(4).info('Service account deleted, removing tokens', { namespace: ns, serviceaccount: name });
    let retry = false;
    const errs: string[] = [];
    for (const s of secrets.list().filter((t) => tokenOf(t, ns, name, uid))) {
      const [r, err] = await deleteToken(ns, s.metadata.name ?? '', s.metadata.uid ?? '', signal);
      if (err !== undefined) errs.push(goClientErrorText(err));
      retry ||= r;
    }
    if (errs.length) log.error('Error deleting serviceaccount tokens', { err: errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`, namespace: ns, serviceaccount: name });
    return retry;
  }

  function updateNeeded(s: Secret): { ca: boolean; namespace: boolean; token: boolean } {
    return {
      ca: rootCA !== undefined && !dataOf(s, ROOT_CA_KEY).equals(rootCA),
      namespace: dataOf(s, NAMESPACE_KEY).length === 0,
      token: dataOf(s, TOKEN_KEY).length === 0,
    };
  }
  const anyNeeded = (n: ReturnType<typeof updateNeeded>) => n.ca || n.namespace || n.token;

  /** generateTokenIfNeeded: [retry, error]. */
  async function generateTokenIfNeeded(sa: ServiceAccount, cached: Secret, signal: AbortSignal): Promise<[boolean, unknown?]> {
    if (!anyNeeded(updateNeeded(cached))) return [false];
    const ref = { ...SECRETS, namespace: cached.metadata.namespace ?? '' };
    let live: Secret;
    try {
      live = await ctx.client.get<Secret>(ref, cached.metadata.name ?? '', undefined, { signal });
    } catch (e) {
      return [!isApiError(e, 'NotFound'), e];
    }
    if (live.metadata.resourceVersion !== cached.metadata.resourceVersion) {
      log.v(2).info('Secret is not up to date, skipping token population', { secret: objectKey(live) });
      return [false];
    }
    const needs = updateNeeded(live);
    if (!anyNeeded(needs)) return [false];
    const data = { ...live.data };
    if (needs.ca && rootCA) data[ROOT_CA_KEY] = b64(rootCA);
    if (needs.namespace) data[NAMESPACE_KEY] = b64(Buffer.from(live.metadata.namespace ?? ''));
    if (needs.token) {
      try {
        data[TOKEN_KEY] = b64(Buffer.from(o.generateToken(sa, live)));
      } catch (e) {
        return [false, e];
      }
    }
    const annotations = { ...live.metadata.annotations, [SERVICE_ACCOUNT_NAME_ANNOTATION]: sa.metadata.name ?? '', [SERVICE_ACCOUNT_UID_ANNOTATION]: sa.metadata.uid ?? '' };
    try {
      const updated = await ctx.client.update<Secret>(ref, { ...live, metadata: { ...live.metadata, annotations }, data }, undefined, { signal });
      written.set(objectKey(updated), updated);
      return [false];
    } catch (e) {
      // A Conflict: someone else wrote it, and its update event comes; NotFound: nothing to fill.
      if (isApiError(e, 'Conflict') || isApiError(e, 'NotFound')) return [false];
      return [true, e];
    }
  }

  /** removeSecretReference, retried on a Conflict as RetryOnConflict(RemoveTokenBackoff). */
  async function removeSecretReference(k: SecretKey, signal: AbortSignal): Promise<void> {
    const ref = { ...SERVICE_ACCOUNTS, namespace: k.namespace };
    for (let step = 0, wait = REMOVE_TOKEN_BACKOFF.durationMs; ; step++) {
      try {
        let sa: ServiceAccount;
        try { sa = await ctx.client.get<ServiceAccount>(ref, k.saName, undefined, { signal }); } catch (e) { if (isApiError(e, 'NotFound')) return; throw e; }
        if (k.saUID && k.saUID !== sa.metadata.uid) return;
        if (!(sa.secrets ?? []).some((s) => s.name === k.name)) return;
        try {
          await ctx.client.update(ref, { ...sa, secrets: (sa.secrets ?? []).filter((s) => s.name !== k.name) }, undefined, { signal });
        } catch (e) { if (isApiError(e, 'NotFound')) return; throw e; }
        return;
      } catch (e) {
        if (!isApiError(e, 'Conflict') || step + 1 >= REMOVE_TOKEN_BACKOFF.steps) throw e;
        await sleep(wait * (1 + Math.random() * REMOVE_TOKEN_BACKOFF.jitter), signal);
      }
    }
  }

  async function syncSecret(key: string, signal: AbortSignal): Promise<boolean> {
    const [namespace, name, uid, saName, saUID] = JSON.parse(key) as [string, string, string, string, string];
    const k: SecretKey = { namespace, name, uid, saName, saUID };
    const secret = getSecret(namespace, name, uid);
    if (!secret) {
      // The Secret is gone: its account, if still there, no longer lists it.
      let sa: ServiceAccount | undefined;
      try { sa = await getServiceAccount(namespace, saName, saUID, false, signal); } catch { sa = undefined; }
      if (sa) {
        try { await removeSecretReference(k, signal); } catch (e) { log.error('Removing secret reference', { err: goClientErrorText(e) }); }
      }
      return false;
    }
    let sa: ServiceAccount | undefined;
    try {
      sa = await getServiceAccount(namespace, saName, saUID, true, signal);
    } catch (e) {
      log.error('Getting service account', { err: goClientErrorText(e) });
      return true;
    }
    if (!sa) {
      log.v(4).info('Service account does not exist, deleting token', { secret: `${namespace}/${name}` });
      const [retry, err] = await deleteToken(namespace, name, uid, signal);
      if (err !== undefined) log.error('Deleting serviceaccount token', { err: goClientErrorText(err), secret: `${namespace}/${name}`, serviceAccount: `${namespace}/${saName}` });
      return retry;
    }
    const [retry, err] = await generateTokenIfNeeded(sa, secret, signal);
    if (err !== undefined) log.error('Populating serviceaccount token', { err: goClientErrorText(err), secret: `${namespace}/${name}`, serviceAccount: `${namespace}/${saName}` });
    return retry;
  }

  /** wait.UntilWithContext over one queue: each key synced, then retryOrForget. */
  async function work(queue: WorkQueue<string>, sync: (key: string, signal: AbortSignal) => Promise<boolean>, signal: AbortSignal): Promise<void> {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      let retry = false;
      try {
        // A refused leadership fence leaves the key for later, unsynced.
        retry = ctx.fence?.refusal() !== undefined ? true : await sync(key, signal);
      } catch (e) {
        if (!signal.aborted) log.error('Unhandled Error', { err: goClientErrorText(e), key });
        retry = !signal.aborted;
      } finally {
        if (!retry) queue.forget(key);
        else if (queue.numRequeues(key) < maxRetries) queue.addRateLimited(key);
        else { log.v(4).info('retried several times', { key, count: queue.numRequeues(key) }); queue.forget(key); }
        queue.done(key);
      }
    }
  }

  return {
    secretQueue, accountQueue,
    async run(signal: AbortSignal): Promise<void> {
      log.info('Starting controller', { controller: controllerName });
      await Promise.all([accounts.waitForSync(signal), secrets.waitForSync(signal)]);
      if (!signal.aborted) {
        log.v(5).info('Starting workers');
        const workers = Array.from({ length: Math.max(1, o.workers) }, () => [work(accountQueue, syncServiceAccount, signal), work(secretQueue, syncSecret, signal)]).flat();
        await whenAborted(signal);
        await Promise.all([accountQueue.shutDown(), secretQueue.shutDown()]);
        await Promise.all(workers);
      }
      log.v(1).info('Shutting down');
    },
  };
}
