// Defaulting of a static pod, in upstream's two steps: the core/v1 scheme defaults the decoder
// applies (SetDefaults_Pod, _PodSpec, _Container, _ContainerPort, _Volume: the fields validation
// then reads), and the config source's applyDefaults (pkg/kubelet/config/common.go): a UID hashed
// from the pod and its source, the name suffixed with the node's, namespace `default`, spec.nodeName,
// the config.hash annotation, a NoExecute toleration for file pods, status Pending.
import { createHash } from 'node:crypto';

export type Obj = Record<string, any>;

/** Upstream's kubernetes.io/config.* annotations, renamed. */
export const CONFIG_HASH_ANNOTATION = 'platform/config.hash';
export const CONFIG_SOURCE_ANNOTATION = 'platform/config.source';
export const CONFIG_SEEN_ANNOTATION = 'platform/config.seen';

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (parent: Obj, key: string): Obj => (isObj(parent[key]) ? parent[key] : (parent[key] = {}));
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** docker/distribution's reference grammar (domain, path components, tag, digest), for ParseImageName's verdict. */
const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const REFERENCE = new RegExp(`^(?:(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?)/)?${COMPONENT}(?:/${COMPONENT})*(?::([\\w][\\w.-]{0,127}))?(@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$`);

/**
 * The tag ParseImageName finds: "latest" when the reference names neither tag nor digest, "" when
 * it has only a digest or does not parse (SetDefaults_Container ignores the error).
 */
export function imageTag(image: string): string {
  const m = REFERENCE.exec(image);
  if (!m) return '';
  return m[1] ?? (m[2] ? '' : 'latest');
}

function defaultContainer(c: Obj, hostNetwork: boolean): void {
  if (!c['imagePullPolicy']) c['imagePullPolicy'] = imageTag(typeof c['image'] === 'string' ? c['image'] : '') === 'latest' ? 'Always' : 'IfNotPresent';
  if (!c['terminationMessagePath']) c['terminationMessagePath'] = '/dev/termination-log';
  if (!c['terminationMessagePolicy']) c['terminationMessagePolicy'] = 'File';
  if (!isObj(c['resources'])) c['resources'] = {};
  for (const p of list(c['ports'])) {
    if (!p['protocol']) p['protocol'] = 'TCP';
    // defaultHostNetworkPorts: with the host's network the container port is the host port.
    if (hostNetwork && !p['hostPort']) p['hostPort'] = p['containerPort'];
  }
}

/** The scheme defaults upstream's decoder applies to a v1 Pod. */
export function applySchemeDefaults(pod: Obj): void {
  const spec = obj(pod, 'spec');
  const hostNetwork = spec['hostNetwork'] === true;
  if (!spec['dnsPolicy']) spec['dnsPolicy'] = 'ClusterFirst';
  if (!spec['restartPolicy']) spec['restartPolicy'] = 'Always';
  if (!isObj(spec['securityContext'])) spec['securityContext'] = {};
  if (spec['terminationGracePeriodSeconds'] === undefined || spec['terminationGracePeriodSeconds'] === null) spec['terminationGracePeriodSeconds'] = 30;
  if (!spec['schedulerName']) spec['schedulerName'] = 'default-scheduler';
  if (spec['enableServiceLinks'] === undefined || spec['enableServiceLinks'] === null) spec['enableServiceLinks'] = true;
  for (const c of [...list(spec['initContainers']), ...list(spec['containers'])]) defaultContainer(c, hostNetwork);
  for (const v of list(spec['volumes'])) {
    // SetDefaults_Volume: a volume naming no source is an emptyDir.
    if (Object.keys(v).every((k) => k === 'name')) v['emptyDir'] = {};
  }
}

/** JSON with sorted keys: equal pods hash equally whatever their key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObj(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

export interface SourceDefaults {
  /** The file path or the URL the pod came from. */
  readonly source: string;
  readonly isFile: boolean;
  readonly nodeName: string;
}

/** applyDefaults of pkg/kubelet/config/common.go. */
export function applySourceDefaults(pod: Obj, s: SourceDefaults): void {
  const meta = obj(pod, 'metadata');
  if (!meta['uid']) {
    // Upstream hashes a dump of the Go object, then the source; plat hashes the pod's canonical JSON.
    const h = createHash('md5').update(canonical(pod));
    if (s.isFile) h.update(`host:${s.nodeName}`).update(`file:${s.source}`);
    else h.update(`url:${s.source}`);
    meta['uid'] = h.digest('hex');
  }
  meta['name'] = `${String(meta['name'])}-${s.nodeName.toLowerCase()}`;
  if (!meta['namespace']) meta['namespace'] = 'default';
  obj(pod, 'spec')['nodeName'] = s.nodeName;
  obj(meta, 'annotations')[CONFIG_HASH_ANNOTATION] = meta['uid'];
  if (meta['creationTimestamp'] === undefined) meta['creationTimestamp'] = null;
  if (s.isFile) addOrUpdateToleration(obj(pod, 'spec'), { operator: 'Exists', effect: 'NoExecute' });
  obj(pod, 'status')['phase'] = 'Pending';
}

/**
 * helper.AddOrUpdateTolerationInPod: every toleration matching key, operator, value and effect is
 * replaced, or `t` is added when none matches; one that already equals `t` leaves the list as it is.
 */
export function addOrUpdateToleration(spec: Obj, t: Obj): void {
  const same = (a: Obj, b: Obj) => (a['key'] ?? '') === (b['key'] ?? '') && (a['operator'] ?? '') === (b['operator'] ?? '')
    && (a['value'] ?? '') === (b['value'] ?? '') && (a['effect'] ?? '') === (b['effect'] ?? '');
  const current = list(spec['tolerations']);
  const matching = current.filter((x) => same(x, t));
  if (matching.some((x) => canonical(x) === canonical(t))) return;
  spec['tolerations'] = matching.length ? current.map((x) => (same(x, t) ? { ...t } : x)) : [...current, { ...t }];
}
