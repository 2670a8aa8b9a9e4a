// A static pod must not reference API objects (upstream's PreventStaticPodAPIReferences, on by
// default; with it off only the older ClusterTrustBundle and ResourceClaims bans remain): a node agent reads manifests without asking anyone, so a manifest naming a Secret,
// ConfigMap, service account, claim or CSI driver would reach objects no one authorized for it.
// podutil.HasAPIObjectReference's checks and resource names, in its order.
import type { Obj } from './pod-defaults.js';

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const has = (o: Obj, k: string) => o[k] !== undefined && o[k] !== null;

/** Volume sources that need no API object. */
const LOCAL_SOURCES = [
  'awsElasticBlockStore', 'azureDisk', 'cephfs', 'cinder', 'downwardAPI', 'emptyDir', 'fc', 'flexVolume', 'flocker',
  'gcePersistentDisk', 'gitRepo', 'hostPath', 'image', 'iscsi', 'nfs', 'photonPersistentDisk', 'portworxVolume', 'quobyte',
  'rbd', 'scaleIO', 'storageos', 'vsphereVolume',
];
/** Volume sources whose `secretRef` names a Secret (VisitPodSecretNames). */
const SECRET_REF_SOURCES = ['cephfs', 'cinder', 'flexVolume', 'rbd', 'iscsi', 'scaleIO', 'storageos'];

function containers(spec: Obj): Obj[] {
  return [...list(spec['initContainers']), ...list(spec['containers']), ...list(spec['ephemeralContainers'])];
}

function envRefs(spec: Obj, ref: 'secretKeyRef' | 'configMapKeyRef', fromRef: 'secretRef' | 'configMapRef'): boolean {
  return containers(spec).some((c) =>
    list(c['env']).some((e) => isObj(e['valueFrom']) && has(e['valueFrom'], ref)) || list(c['envFrom']).some((e) => has(e, fromRef)));
}

function referencesSecrets(spec: Obj): boolean {
  if (list(spec['imagePullSecrets']).length > 0) return true;
  for (const v of list(spec['volumes'])) {
    if (has(v, 'secret') || has(v, 'azureFile')) return true;
    if (SECRET_REF_SOURCES.some((s) => isObj(v[s]) && has(v[s], 'secretRef'))) return true;
    if (isObj(v['csi']) && has(v['csi'], 'nodePublishSecretRef')) return true;
    if (isObj(v['projected']) && list(v['projected']['sources']).some((s) => has(s, 'secret'))) return true;
  }
  return envRefs(spec, 'secretKeyRef', 'secretRef');
}

function referencesConfigMaps(spec: Obj): boolean {
  for (const v of list(spec['volumes'])) {
    if (has(v, 'configMap')) return true;
    if (isObj(v['projected']) && list(v['projected']['sources']).some((s) => has(s, 'configMap'))) return true;
  }
  return envRefs(spec, 'configMapKeyRef', 'configMapRef');
}

/** The plural resource the pod references, or an error for a volume type not known; undefined when it references none. */
export function apiObjectReference(pod: Obj): { resource: string } | { error: string } | undefined {
  const spec = isObj(pod['spec']) ? pod['spec'] : {};
  if (typeof spec['serviceAccountName'] === 'string' && spec['serviceAccountName'] !== '') return { resource: 'serviceaccounts' };
  if (referencesSecrets(spec)) return { resource: 'secrets' };
  if (referencesConfigMaps(spec)) return { resource: 'configmaps' };
  if (list(spec['resourceClaims']).length > 0) return { resource: 'resourceclaims' };
  for (const v of list(spec['volumes'])) {
    if (LOCAL_SOURCES.some((s) => has(v, s))) continue;
    if (has(v, 'csi')) return { resource: 'csidrivers (via CSI volumes)' };
    if (has(v, 'glusterfs')) return { resource: 'endpoints (via glusterFS volumes)' };
    if (has(v, 'persistentVolumeClaim')) return { resource: 'persistentvolumeclaims' };
    if (has(v, 'ephemeral')) return { resource: 'persistentvolumeclaims (via ephemeral volumes)' };
    if (isObj(v['projected'])) {
      for (const s of list(v['projected']['sources'])) {
        if (has(s, 'serviceAccountToken')) return { resource: 'serviceaccounts (via projected volumes)' };
        if (has(s, 'clusterTrustBundle')) return { resource: 'clustertrustbundles' };
        if (has(s, 'podCertificate')) return { resource: 'podcertificates' };
        if (has(s, 'downwardAPI')) continue;
        return { error: `unknown source for projected volume ${JSON.stringify(v['name'] ?? '')}` };
      }
      continue;
    }
    return { error: `unknown volume type for volume  ${JSON.stringify(v['name'] ?? '')}` };
  }
  return undefined;
}

/** The reference ban's error (PreventStaticPodAPIReferences on), in upstream's words. */
export function apiReferenceError(pod: Obj): string | undefined {
  const ref = apiObjectReference(pod);
  if (ref && 'error' in ref) return ref.error;
  return ref ? `static pods may not reference ${ref.resource}` : undefined;
}

/** ErrStaticPodTriedToUseClusterTrustBundle and ErrStaticPodTriedToUseResourceClaims: the gate-off check. */
export function legacyReferenceError(pod: Obj): string | undefined {
  const spec = isObj(pod['spec']) ? pod['spec'] : {};
  for (const v of list(spec['volumes'])) {
    if (isObj(v['projected']) && list(v['projected']['sources']).some((s) => has(s, 'clusterTrustBundle'))) {
      return 'static pods may not use ClusterTrustBundle projected volume sources';
    }
  }
  return list(spec['resourceClaims']).length > 0 ? 'static pods may not use ResourceClaims' : undefined;
}
