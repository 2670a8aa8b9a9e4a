// The JSON types of the Pod fields the node agent reads, checked as Go's decoder into v1.Pod would
// check them, with its message (`json: cannot unmarshal string into Go struct field
// PodSpec.spec.containers of type []v1.Container`): a manifest with a wrong type does not parse.
// Fields outside this subset are passed through unchecked (upstream drops unknown fields; plat
// keeps them, having no full Pod schema).
import { unmarshalValueWord } from '../../core/api/go-types.js';

type Shape =
  | 'string' | 'bool' | 'int32' | 'int64' | 'strings' | 'stringMap'
  | { readonly struct: string; readonly fields: Readonly<Record<string, Shape>> }
  | { readonly list: Shape; readonly goType: string };

const struct = (name: string, fields: Record<string, Shape>): Shape => ({ struct: name, fields });
const list = (of: Shape, goType: string): Shape => ({ list: of, goType });

const CONTAINER = struct('Container', {
  name: 'string', image: 'string', command: 'strings', args: 'strings', workingDir: 'string',
  ports: list(struct('ContainerPort', { name: 'string', hostPort: 'int32', containerPort: 'int32', protocol: 'string', hostIP: 'string' }), '[]v1.ContainerPort'),
  env: list(struct('EnvVar', { name: 'string', value: 'string' }), '[]v1.EnvVar'),
  volumeMounts: list(struct('VolumeMount', { name: 'string', readOnly: 'bool', mountPath: 'string', subPath: 'string' }), '[]v1.VolumeMount'),
  imagePullPolicy: 'string', terminationMessagePath: 'string', terminationMessagePolicy: 'string',
});

const POD_SPEC = struct('PodSpec', {
  volumes: list(struct('Volume', { name: 'string', hostPath: struct('HostPathVolumeSource', { path: 'string', type: 'string' }) }), '[]v1.Volume'),
  initContainers: list(CONTAINER, '[]v1.Container'),
  containers: list(CONTAINER, '[]v1.Container'),
  restartPolicy: 'string', terminationGracePeriodSeconds: 'int64', activeDeadlineSeconds: 'int64', dnsPolicy: 'string',
  nodeSelector: 'stringMap', serviceAccountName: 'string', nodeName: 'string',
  hostNetwork: 'bool', hostPID: 'bool', hostIPC: 'bool', hostname: 'string', subdomain: 'string', schedulerName: 'string',
  tolerations: list(struct('Toleration', { key: 'string', operator: 'string', value: 'string', effect: 'string', tolerationSeconds: 'int64' }), '[]v1.Toleration'),
  priorityClassName: 'string', enableServiceLinks: 'bool',
  imagePullSecrets: list(struct('LocalObjectReference', { name: 'string' }), '[]v1.LocalObjectReference'),
});

const OBJECT_META = struct('ObjectMeta', { name: 'string', generateName: 'string', namespace: 'string', uid: 'string', labels: 'stringMap', annotations: 'stringMap' });
export const POD = struct('Pod', { apiVersion: 'string', kind: 'string', metadata: OBJECT_META, spec: POD_SPEC });
export const POD_LIST = struct('PodList', { apiVersion: 'string', kind: 'string', items: list(POD, '[]v1.Pod') });

const GO_TYPES: Readonly<Record<string, string>> = { string: 'string', bool: 'bool', int32: 'int32', int64: 'int64', strings: '[]string', stringMap: 'map[string]string' };

const goTypeOf = (s: Shape): string => (typeof s === 'string' ? GO_TYPES[s]! : 'list' in s ? s.goType : `v1.${s.struct}`);

function mismatch(v: unknown, owner: string, path: string, s: Shape): string {
  return `json: cannot unmarshal ${unmarshalValueWord(v, goTypeOf(s))} into Go struct field ${owner}.${path} of type ${goTypeOf(s)}`;
}

/** The first type error in document order, or undefined. `owner`/`path` name the field as Go does. */
function check(v: unknown, s: Shape, owner: string, path: string): string | undefined {
  if (v === null) return undefined;
  if (typeof s === 'string') {
    switch (s) {
      case 'string': return typeof v === 'string' ? undefined : mismatch(v, owner, path, s);
      case 'bool': return typeof v === 'boolean' ? undefined : mismatch(v, owner, path, s);
      case 'int32':
      case 'int64': {
        if (typeof v !== 'number') return mismatch(v, owner, path, s);
        const max = s === 'int32' ? 2 ** 31 : 2 ** 63;
        return Number.isInteger(v) && v >= -max && v < max ? undefined : mismatch(v, owner, path, s);
      }
      case 'strings':
        if (!Array.isArray(v)) return mismatch(v, owner, path, s);
        for (const x of v) if (x !== null && typeof x !== 'string') return mismatch(x, owner, path, 'string');
        return undefined;
      case 'stringMap':
        if (typeof v !== 'object' || Array.isArray(v)) return mismatch(v, owner, path, s);
        for (const x of Object.values(v as object)) if (x !== null && typeof x !== 'string') return mismatch(x, owner, path, 'string');
        return undefined;
    }
  }
  if ('list' in s) {
    if (!Array.isArray(v)) return mismatch(v, owner, path, s);
    for (const item of v) {
      const e = check(item, s.list, owner, path);
      if (e) return e;
    }
    return undefined;
  }
  if (typeof v !== 'object' || Array.isArray(v)) return mismatch(v, owner, path, s);
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const field = s.fields[k];
    if (!field) continue;
    const e = check(x, field, s.struct, path ? `${path}.${k}` : k);
    if (e) return e;
  }
  return undefined;
}

/** Go's decoding error for `obj` as a v1 Pod or PodList, or undefined when the types fit. */
export function shapeError(obj: unknown, shape: Shape): string | undefined {
  return check(obj, shape, '', '');
}
