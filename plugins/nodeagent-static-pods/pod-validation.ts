// The part of core/v1 ValidatePodCreate that matters for a manifest the node agent reads, with
// upstream's field paths, messages and order: metadata (name, namespace, labels, annotations),
// volumes (names, one source, hostPath.path), containers and init containers (names unique across
// both, image, ports, volume mounts, pull and termination-message policies), the host-network port
// rule, restartPolicy, dnsPolicy, nodeSelector, serviceAccountName, nodeName,
// activeDeadlineSeconds, hostname, subdomain, tolerations. Security contexts, resources, probes,
// affinity and the rest are not checked: plat runs no containers.
import { fieldError, type FieldError } from '../../core/api/field-errors.js';
import { dns1123LabelErrors, dns1123SubdomainErrors, labelValueErrors, qualifiedNameErrors } from '../../core/api/selectors/label-syntax.js';
import type { Obj } from './pod-defaults.js';

const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
/** The volume sources of core/v1 VolumeSource: a volume names exactly one. */
const VOLUME_SOURCES = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile', 'configMap',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume', 'scaleIO', 'storageos', 'csi',
  'ephemeral', 'image',
];

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const notFound = (field: string, value: string): FieldError => ({ type: 'FieldValueInvalid', field, message: `Not found: ${JSON.stringify(value)}` });
const inclusiveRange = (lo: number, hi: number) => `must be between ${lo} and ${hi}, inclusive`;

function each(field: string, value: string, msgs: readonly string[]): FieldError[] {
  return msgs.map((m) => fieldError.invalid(field, value, m));
}

function validateLabels(labels: unknown, field: string): FieldError[] {
  if (!isObj(labels)) return [];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels)) {
    errs.push(...each(field, k, qualifiedNameErrors(k)));
    errs.push(...each(field, str(v), labelValueErrors(str(v))));
  }
  return errs;
}

function validateMetadata(meta: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(meta['name']);
  if (!name) errs.push(fieldError.required('metadata.name', 'name or generateName is required'));
  else errs.push(...each('metadata.name', name, dns1123SubdomainErrors(name)));
  const ns = str(meta['namespace']);
  if (!ns) errs.push(fieldError.required('metadata.namespace'));
  else errs.push(...each('metadata.namespace', ns, dns1123LabelErrors(ns)));
  errs.push(...validateLabels(meta['labels'], 'metadata.labels'));
  if (isObj(meta['annotations'])) {
    let size = 0;
    for (const [k, v] of Object.entries(meta['annotations'])) {
      errs.push(...each('metadata.annotations', k, qualifiedNameErrors(k.toLowerCase())));
      size += Buffer.byteLength(k) + Buffer.byteLength(str(v));
    }
    if (size > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(fieldError.tooLong('metadata.annotations', TOTAL_ANNOTATION_SIZE_LIMIT));
  }
  return errs;
}

function validateVolumes(volumes: Obj[]): { errs: FieldError[]; names: Set<string> } {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  volumes.forEach((v, i) => {
    const at = `spec.volumes[${i}]`;
    const name = str(v['name']);
    if (!name) errs.push(fieldError.required(`${at}.name`));
    else errs.push(...each(`${at}.name`, name, dns1123LabelErrors(name)));
    if (name && names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
    else if (name) names.add(name);
    const sources = VOLUME_SOURCES.filter((s) => v[s] !== undefined && v[s] !== null);
    if (sources.length === 0) errs.push(fieldError.required(at, 'must specify a volume type'));
    for (const extra of sources.slice(1)) errs.push(fieldError.forbidden(`${at}.${extra}`, 'may not specify more than 1 volume type'));
    if (sources[0] === 'hostPath' && isObj(v['hostPath']) && !str(v['hostPath']['path'])) errs.push(fieldError.required(`${at}.hostPath.path`));
  });
  return { errs, names };
}

function validatePorts(ports: Obj[], at: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const idx = `${at}[${i}]`;
    const name = str(p['name']);
    if (name) {
      const msgs = portNameErrors(name);
      if (msgs.length) errs.push(...each(`${idx}.name`, name, msgs));
      else if (names.has(name)) errs.push(fieldError.duplicate(`${idx}.name`, name));
      else names.add(name);
    }
    const cp = typeof p['containerPort'] === 'number' ? p['containerPort'] : 0;
    if (cp === 0) errs.push(fieldError.required(`${idx}.containerPort`));
    else if (cp < 1 || cp > 65535) errs.push(fieldError.invalid(`${idx}.containerPort`, cp, inclusiveRange(1, 65535)));
    const hp = typeof p['hostPort'] === 'number' ? p['hostPort'] : 0;
    if (hp !== 0 && (hp < 1 || hp > 65535)) errs.push(fieldError.invalid(`${idx}.hostPort`, hp, inclusiveRange(1, 65535)));
    const proto = str(p['protocol']);
    if (!proto) errs.push(fieldError.required(`${idx}.protocol`));
    else if (!PROTOCOLS.includes(proto)) errs.push(fieldError.notSupported(`${idx}.protocol`, proto, PROTOCOLS));
  });
  return errs;
}

/** IsValidPortName (IANA service names). */
export function portNameErrors(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.startsWith('-') || port.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

function validateContainer(c: Obj, at: string, volumes: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(c['name']);
  if (!name) errs.push(fieldError.required(`${at}.name`));
  else errs.push(...each(`${at}.name`, name, dns1123LabelErrors(name)));
  if (!str(c['image'])) errs.push(fieldError.required(`${at}.image`));
  errs.push(...validatePorts(list(c['ports']), `${at}.ports`));
  list(c['volumeMounts']).forEach((m, i) => {
    const mName = str(m['name']);
    if (!mName) errs.push(fieldError.required(`${at}.volumeMounts[${i}].name`));
    else if (!volumes.has(mName)) errs.push(notFound(`${at}.volumeMounts[${i}].name`, mName));
    if (!str(m['mountPath'])) errs.push(fieldError.required(`${at}.volumeMounts[${i}].mountPath`));
  });
  const pull = str(c['imagePullPolicy']);
  if (!pull) errs.push(fieldError.required(`${at}.imagePullPolicy`));
  else if (!PULL_POLICIES.includes(pull)) errs.push(fieldError.notSupported(`${at}.imagePullPolicy`, pull, PULL_POLICIES));
  const tmp = str(c['terminationMessagePolicy']);
  if (!tmp) errs.push(fieldError.required(`${at}.terminationMessagePolicy`));
  else if (tmp !== 'File' && tmp !== 'FallbackToLogsOnError') errs.push(fieldError.notSupported(`${at}.terminationMessagePolicy`, tmp, ['File', 'FallbackToLogsOnError']));
  return errs;
}

/** Go's %#v of a core.Toleration, as field.Invalid prints the whole toleration. */
function goToleration(t: Obj): string {
  const q = (k: string) => JSON.stringify(str(t[k]));
  const seconds = t['tolerationSeconds'] === undefined || t['tolerationSeconds'] === null ? '(*int64)(nil)' : `(*int64)(${String(t['tolerationSeconds'])})`;
  return `core.Toleration{Key:${q('key')}, Operator:${q('operator')}, Value:${q('value')}, Effect:${q('effect')}, TolerationSeconds:${seconds}}`;
}

function validateTolerations(tolerations: Obj[]): FieldError[] {
  const errs: FieldError[] = [];
  tolerations.forEach((t, i) => {
    const at = `spec.tolerations[${i}]`;
    const key = str(t['key']);
    const op = str(t['operator']);
    const effect = str(t['effect']);
    if (key) errs.push(...each(`${at}.key`, key, qualifiedNameErrors(key)));
    if (!key && op !== 'Exists') errs.push(fieldError.invalid(`${at}.operator`, op, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    if (t['tolerationSeconds'] !== undefined && t['tolerationSeconds'] !== null && effect !== 'NoExecute') {
      errs.push(fieldError.invalid(`${at}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (op === 'Equal' || op === '') {
      const msgs = labelValueErrors(str(t['value']));
      if (msgs.length) errs.push(fieldError.invalid(`${at}.operator`, str(t['value']), msgs.join(';')));
    } else if (op === 'Exists') {
      if (str(t['value'])) errs.push({ type: 'FieldValueInvalid', field: `${at}.operator`, message: `Invalid value: ${goToleration(t)}: value must be empty when \`operator\` is 'Exists'` });
    } else {
      errs.push(fieldError.notSupported(`${at}.operator`, op, ['Equal', 'Exists']));
    }
    if (effect && !TAINT_EFFECTS.includes(effect)) errs.push(fieldError.notSupported(`${at}.effect`, effect, TAINT_EFFECTS));
  });
  return errs;
}

/** The pod's validation errors, in upstream's order; empty when the pod is valid. */
export function validatePod(pod: Obj): FieldError[] {
  const meta = isObj(pod['metadata']) ? pod['metadata'] : {};
  const spec = isObj(pod['spec']) ? pod['spec'] : {};
  const errs = validateMetadata(meta);
  const vols = validateVolumes(list(spec['volumes']));
  errs.push(...vols.errs);

  const containers = list(spec['containers']);
  if (containers.length === 0) errs.push(fieldError.required('spec.containers'));
  const names = new Set<string>();
  containers.forEach((c, i) => {
    errs.push(...validateContainer(c, `spec.containers[${i}]`, vols.names));
    const name = str(c['name']);
    if (names.has(name)) errs.push(fieldError.duplicate(`spec.containers[${i}].name`, name));
    else names.add(name);
  });
  list(spec['initContainers']).forEach((c, i) => {
    const name = str(c['name']);
    if (names.has(name)) errs.push(fieldError.duplicate(`spec.initContainers[${i}].name`, name));
    else names.add(name);
    errs.push(...validateContainer(c, `spec.initContainers[${i}]`, vols.names));
  });

  if (spec['hostNetwork'] === true) {
    containers.forEach((c, i) => list(c['ports']).forEach((p, j) => {
      if ((p['hostPort'] ?? 0) !== (p['containerPort'] ?? 0)) {
        errs.push(fieldError.invalid(`spec.containers[${i}].ports[${j}].hostPort`, p['hostPort'] as number, 'must match `containerPort` when `hostNetwork` is true'));
      }
    }));
  }
  const restart = str(spec['restartPolicy']);
  if (!restart) errs.push(fieldError.required('spec.restartPolicy'));
  else if (!RESTART_POLICIES.includes(restart)) errs.push(fieldError.notSupported('spec.restartPolicy', restart, RESTART_POLICIES));
  const dns = str(spec['dnsPolicy']);
  if (!dns) errs.push(fieldError.required('spec.dnsPolicy'));
  else if (!DNS_POLICIES.includes(dns)) errs.push(fieldError.notSupported('spec.dnsPolicy', dns, DNS_POLICIES));
  errs.push(...validateLabels(spec['nodeSelector'], 'spec.nodeSelector'));
  const sa = str(spec['serviceAccountName']);
  if (sa) errs.push(...each('spec.serviceAccountName', sa, dns1123SubdomainErrors(sa)));
  const nodeName = str(spec['nodeName']);
  if (nodeName) errs.push(...each('spec.nodeName', nodeName, dns1123SubdomainErrors(nodeName)));
  const deadline = spec['activeDeadlineSeconds'];
  if (typeof deadline === 'number' && (deadline < 1 || deadline > 2147483647)) {
    errs.push(fieldError.invalid('spec.activeDeadlineSeconds', deadline, inclusiveRange(1, 2147483647)));
  }
  for (const f of ['hostname', 'subdomain']) {
    const v = str(spec[f]);
    if (v) errs.push(...each(`spec.${f}`, v, dns1123LabelErrors(v)));
  }
  errs.push(...validateTolerations(list(spec['tolerations'])));
  containers.forEach((c, i) => {
    const image = str(c['image']);
    if (image && image.trim() !== image) errs.push(fieldError.invalid(`spec.containers[${i}].image`, image, 'must not have leading or trailing whitespace'));
  });
  return errs;
}
