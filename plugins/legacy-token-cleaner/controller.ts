// Upstream's LegacySATokenCleaner (pkg/controller/serviceaccount/legacy_serviceaccount_token_cleaner.go):
// once a sync interval (a day), every auto-generated legacy token (a `platform/service-account-token`
// Secret its account lists under `secrets`) made more than the clean-up period ago and not used
// within it (its last-used label, none meaning never) is labelled invalid since today; one labelled
// invalid for longer than the period is deleted (resourceVersion precondition). Two differences,
// both because of what plat is: upstream first reads since when its API servers track use (a
// ConfigMap their tracking controller writes) and waits a period from then; plat's API server has
// recorded every use since it could authenticate these tokens at all, and no token plat filled
// predates that, so a Secret's own creation is when its tracking began. And upstream spares a token
// a Pod mounts; plat runs no Pods.
import type { ApiObject } from '../../core/api/meta.js';
import { sleep } from '../../core/abort-wait.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import { isApiError, objectPath, type ResourceRef } from '../../core/client/rest-client.js';
import { objectKey } from '../../core/controller/informer.js';
import type { ControllerContext, Runnable } from '../../core/lifecycle.js';
import {
  INVALID_SINCE_LABEL, LAST_USED_LABEL, legacyTokenDate, SERVICE_ACCOUNT_NAME_ANNOTATION, SERVICE_ACCOUNT_TOKEN_SECRET_TYPE, SERVICE_ACCOUNT_UID_ANNOTATION,
} from '../../core/authn/legacy-service-account-token.js';

export const SECRETS: ResourceRef = { group: '', version: 'v1', plural: 'secrets', kind: 'Secret' };
export const SERVICE_ACCOUNTS: ResourceRef = { group: '', version: 'v1', plural: 'serviceaccounts', kind: 'ServiceAccount' };
/** DefaultCleanerSyncInterval. */
export const DEFAULT_SYNC_INTERVAL_MS = 24 * 3_600_000;

type Secret = ApiObject & { type?: string };
type ServiceAccount = ApiObject & { secrets?: { name?: string }[] | null };

export interface LegacyTokenCleanerOptions {
  /** --legacy-service-account-token-clean-up-period. */
  readonly cleanUpPeriodMs: number;
  readonly syncIntervalMs: number;
  readonly now: () => Date;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** time.Parse("2006-01-02", s) succeeds. */
function isDate(s: string | undefined): s is string {
  const m = s === undefined ? null : DATE.exec(s);
  if (!m) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && legacyTokenDate(d) === s;
}

export function legacyTokenCleaner(ctx: ControllerContext, controllerName: string, o: LegacyTokenCleanerOptions): Runnable & { evaluate(signal: AbortSignal): Promise<void> } {
  if (!(o.cleanUpPeriodMs > 0)) throw new Error(`failed to start the legacy service account token cleaner: invalid CleanUpPeriod: ${o.cleanUpPeriodMs}ms`);
  if (!(o.syncIntervalMs > 0)) throw new Error(`failed to start the legacy service account token cleaner: invalid SyncInterval: ${o.syncIntervalMs}ms`);
  const log = ctx.logger;
  const accounts = ctx.informers.for<ServiceAccount>(SERVICE_ACCOUNTS);
  const secrets = ctx.informers.for<Secret>(SECRETS);

  /** getServiceAccount: the annotation's account if its uid fits (or the Secret names none). */
  function accountOf(s: Secret): ServiceAccount | undefined {
    const name = s.metadata.annotations?.[SERVICE_ACCOUNT_NAME_ANNOTATION];
    if (!name) return undefined;
    const sa = accounts.get(`${s.metadata.namespace}/${name}`);
    const uid = s.metadata.annotations?.[SERVICE_ACCOUNT_UID_ANNOTATION];
    return sa && (!uid || uid === sa.metadata.uid) ? sa : undefined;
  }

  async function evaluate(signal: AbortSignal): Promise<void> {
    const now = o.now();
    const preserveCreatedOnOrAfter = now.getTime() - o.cleanUpPeriodMs;
    const preserveUsedOnOrAfter = legacyTokenDate(new Date(preserveCreatedOnOrAfter));
    for (const s of secrets.list()) {
      if (signal.aborted) return;
      if (s.type !== SERVICE_ACCOUNT_TOKEN_SECRET_TYPE) continue;
      if (!(Date.parse(s.metadata.creationTimestamp ?? '') < preserveCreatedOnOrAfter)) continue;
      if (s.metadata.deletionTimestamp) continue;
      const lastUsed = s.metadata.labels?.[LAST_USED_LABEL];
      if (lastUsed !== undefined && lastUsed >= preserveUsedOnOrAfter) continue;
      const sa = accountOf(s);
      // Only auto-generated tokens: those their account lists.
      if (!sa || !(sa.secrets ?? []).some((r) => r.name === s.metadata.name)) continue;
      const ref = { ...SECRETS, namespace: s.metadata.namespace ?? '' };
      let invalidSince = s.metadata.labels?.[INVALID_SINCE_LABEL];
      if (!isDate(invalidSince)) {
        invalidSince = legacyTokenDate(now);
        log.info('Mark the auto-generated service account token as invalid', { invalidSince, secret: objectKey(s) });
        // applyv1.Secret(...).WithUID(...).WithLabels(...) as a merge patch: a Secret made again is not this one.
        const body = { kind: 'Secret', apiVersion: 'v1', metadata: { name: s.metadata.name, namespace: s.metadata.namespace, uid: s.metadata.uid, labels: { [INVALID_SINCE_LABEL]: invalidSince } } };
        try {
          await ctx.client.request('PATCH', objectPath(ref, s.metadata.name ?? ''), { body, contentType: 'application/merge-patch+json', signal });
        } catch (e) {
          log.error('Failed to label legacy service account token secret with invalid since date', { err: goClientErrorText(e) });
          continue;
        }
      }
      if (invalidSince >= preserveUsedOnOrAfter) continue;
      log.info('Deleting legacy service account token that has been invalid for a long time', { secret: objectKey(s) });
      try {
        await ctx.client.delete(ref, s.metadata.name ?? '', { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { resourceVersion: s.metadata.resourceVersion } }, { signal });
      } catch (e) {
        if (!isApiError(e, 'Conflict') && !isApiError(e, 'NotFound')) log.error('Deleting legacy service account token', { err: goClientErrorText(e) });
      }
    }
  }

  return {
    evaluate,
    async run(signal: AbortSignal): Promise<void> {
      log.info('Starting legacy service account token cleaner controller');
      try {
        await Promise.all([accounts.waitForSync(signal), secrets.waitForSync(signal)]);
        // wait.UntilWithContext: at once, then an interval after each pass ends.
        while (!signal.aborted) {
          if (ctx.fence?.refusal() === undefined) await evaluate(signal);
          await sleep(o.syncIntervalMs, signal);
        }
      } finally {
        log.info('Shutting down legacy service account token cleaner controller');
      }
    },
  };
}
