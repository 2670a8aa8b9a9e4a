// CoreResourcesPlugin: the core group (`/api/v1`) with Namespace and Secret, the namespace
// lifecycle admission rule (no object in a namespace that does not exist, as upstream's
// NamespaceLifecycle), and the namespaces plat itself needs (`default`, `plat-system`,
// `plat-node-lease`) created at start-up when missing.
import { errors, hasReason, isStatusError, type StatusError } from '../../core/api/errors.js';
import { ADMISSION_PLUGIN_KIND, admissionStage, isAdmissionPluginEnabled } from '../../core/admission/plugins.js';
import type { AdmissionRequest } from '../../core/admission/request.js';
import type { ApiObject } from '../../core/api/meta.js';
import { MASTERS_GROUP } from '../../core/authn/user.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import type { ResourceStore } from '../../core/registry/store.js';
import { servedResources, servedStore } from '../../core/registry/stores.js';
import { namespaceResource, secretResource } from './resources.js';

const PLUGIN_NAME = 'CoreResourcesPlugin';
const NAMESPACE_LIFECYCLE = 'NamespaceLifecycle';

/** The namespace plat's own objects (bootstrap-token Secrets) live in. */
export const SYSTEM_NAMESPACE = 'plat-system';
export const DEFAULT_NAMESPACE = 'default';
/** Node agents' heartbeat Leases (upstream kube-node-lease, created by the same system-namespaces controller). */
export const NODE_LEASE_NAMESPACE = 'plat-node-lease';
const INITIAL_NAMESPACES = [DEFAULT_NAMESPACE, SYSTEM_NAMESPACE, NODE_LEASE_NAMESPACE];
/**
 * NamespaceLifecycle's immortal namespaces: upstream's default, kube-system and kube-public under
 * plat's names (plat creates no plat-public, but the name is as protected as kube-public is).
 */
const IMMORTAL_NAMESPACES = new Set([DEFAULT_NAMESPACE, SYSTEM_NAMESPACE, 'plat-public']);
const SYSTEM_NAMESPACE_RETRY_MS = 60_000;
/** Upstream's accessReviewResources (authorization.k8s.io). */
const ACCESS_REVIEW = { group: 'authorization.platform', resource: 'localsubjectaccessreviews' };

const SYSTEM_USER = { name: 'system:apiserver', groups: [MASTERS_GROUP] };

/** The generic store of a core/v1 resource of a running host, if the API server is up. */
export function coreStore(host: Host, plural: string): ResourceStore | undefined {
  return servedStore(host, '', 'v1', plural);
}

/**
 * A create in a namespace being deleted (held by its finalizers): admission.NewForbidden names the
 * object as extractResourceName does (its generateName when it has no name yet), and the lifecycle
 * plugin adds the NamespaceTerminating cause.
 */
function terminating(req: AdmissionRequest): StatusError {
  const meta = req.object?.metadata;
  const name = req.name || meta?.name || meta?.generateName || 'Unknown';
  const err = errors.forbidden({ group: req.group, resource: req.resource }, name,
    `unable to create new content in namespace ${req.namespace} because it is being terminated`);
  err.status.details!.causes = [{ reason: 'NamespaceTerminating', message: `namespace ${req.namespace} is being terminated`, field: 'metadata.namespace' }];
  return err;
}

export const CoreResourcesPlugin: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.hooks.resources.tap(PLUGIN_NAME, (registry) => {
      registry.register(namespaceResource);
      registry.register(secretResource);
    });

    // NamespaceLifecycle: the immortal namespaces cannot be deleted (a dry run neither), and
    // creating or updating a namespaced object needs its namespace to exist. Deletes, namespaces
    // themselves, access reviews (whose 404 would tell which namespaces exist) and updates of an
    // object being deleted are let through.
    host.capabilities.provide(ADMISSION_PLUGIN_KIND, NAMESPACE_LIFECYCLE, PLUGIN_NAME);
    host.hooks.configure.tap(PLUGIN_NAME, () => {
      if (!isAdmissionPluginEnabled(host, NAMESPACE_LIFECYCLE)) return;
      host.hooks.admitMutate.tapPromise({ name: NAMESPACE_LIFECYCLE, stage: admissionStage(NAMESPACE_LIFECYCLE) }, (req) => namespaceLifecycle(req));
    });
    const namespaceLifecycle = async (req: AdmissionRequest): Promise<void> => {
      const isNamespace = req.group === '' && req.kind === 'Namespace';
      if (req.operation === 'DELETE' && isNamespace && IMMORTAL_NAMESPACES.has(req.name)) {
        throw errors.forbidden({ group: '', resource: req.resource }, req.name, 'this namespace may not be deleted');
      }
      if (isNamespace || !req.namespace) return;
      if (req.operation !== 'CREATE' && req.operation !== 'UPDATE') return;
      if (req.group === ACCESS_REVIEW.group && req.resource === ACCESS_REVIEW.resource) return;
      if (servedResources(host)?.get(req.group, req.version, req.resource)?.scope !== 'Namespaced') return;
      // A namespace finalized by hand is gone with its content left behind: an object left there
      // being deleted must still be finalizable, or it would be stuck for good.
      if (req.operation === 'UPDATE' && req.oldObject?.metadata?.deletionTimestamp) return;
      const namespaces = servedStore(host, '', 'v1', 'namespaces');
      if (!namespaces) return;
      // A store that cannot answer is the server's failure, not a refusal (lifecycle's NewInternalError).
      const kv = await namespaces.storage.get(namespaces.keyFor('', req.namespace)).catch((e: unknown) => {
        throw isStatusError(e) ? e : errors.internal(e);
      });
      if (!kv) throw errors.notFound({ group: '', resource: 'namespaces' }, req.namespace);
      if (req.operation === 'CREATE' && (kv.value as { status?: { phase?: string } }).status?.phase === 'Terminating') throw terminating(req);
    };

    // After the API server opened storage (stage 10 runs after its stage-0 start tap). Created
    // through admission like any object; a refusal (AlwaysDeny, a webhook) does not stop the server:
    // as upstream's system-namespaces controller, log it and try again every minute.
    let retry: NodeJS.Timeout | undefined;
    const ensureNamespaces = async (): Promise<boolean> => {
      const namespaces = coreStore(host, 'namespaces');
      if (!namespaces) return true;
      let ok = true;
      for (const name of INITIAL_NAMESPACES) {
        if (await namespaces.storage.get(namespaces.keyFor('', name))) continue;
        const ns: ApiObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
        try {
          await namespaces.create({ user: SYSTEM_USER, namespace: '', dryRun: false, warnings: [] }, ns);
        } catch (e) {
          if (hasReason(e, 'AlreadyExists')) continue;
          ok = false;
          host.logger.child(PLUGIN_NAME).warn('cannot create a system namespace; retrying in a minute', { namespace: name, error: (e as Error).message });
        }
      }
      return ok;
    };
    host.hooks.start.tapPromise({ name: PLUGIN_NAME, stage: 10 }, async () => {
      if (await ensureNamespaces()) return;
      retry = setInterval(() => {
        void ensureNamespaces().then((ok) => { if (ok && retry) { clearInterval(retry); retry = undefined; } });
      }, SYSTEM_NAMESPACE_RETRY_MS);
      retry.unref();
    });
    host.hooks.shutdown.tap(PLUGIN_NAME, () => { if (retry) clearInterval(retry); });
  },
};
