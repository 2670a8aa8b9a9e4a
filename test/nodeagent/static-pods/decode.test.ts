// One manifest to one static pod, as upstream's tryDecodeSinglePod and tryDecodePodList make it:
// the scheme's defaults and the config source's (name suffixed with the node, UID hashed from pod
// and source, config.hash, the NoExecute toleration for file pods, status Pending), then
// ValidatePodCreate's field errors and the API-reference ban, each failure with upstream's text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tryDecodePodList, tryDecodeSinglePod } from '../../../plugins/nodeagent-static-pods/decode-pod.js';

const FILE = { source: '/etc/plat/manifests/web.yaml', isFile: true, nodeName: 'node-1' };
const WEB = `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {app: web}
spec:
  hostNetwork: true
  containers:
  - name: web
    image: nginx
    ports:
    - containerPort: 8080
  - name: side
    image: busybox:1.36
`;

function error(yaml: string): string {
  const r = tryDecodeSinglePod(yaml, FILE);
  assert.ok('error' in r, `expected an error for:\n${yaml}`);
  return r.error;
}

const pod = (spec: string, meta = 'name: p') => `apiVersion: v1\nkind: Pod\nmetadata: {${meta}}\nspec:\n${spec}`;

describe('static pod decoding', () => {
  it('defaults a file pod as upstream\'s applyDefaults and the v1 scheme do', () => {
    const r = tryDecodeSinglePod(WEB, FILE);
    assert.ok(r.parsed && 'value' in r, JSON.stringify(r));
    const p = r.value;
    assert.equal(p['apiVersion'], undefined, 'converted pods carry no TypeMeta');
    assert.equal(p['metadata']['name'], 'web-node-1');
    assert.equal(p['metadata']['namespace'], 'default');
    assert.match(p['metadata']['uid'], /^[0-9a-f]{32}$/);
    assert.deepEqual(p['metadata']['annotations'], { 'platform/config.hash': p['metadata']['uid'] });
    assert.equal(p['metadata']['creationTimestamp'], null);
    assert.equal(p['spec']['nodeName'], 'node-1');
    assert.deepEqual(p['spec']['tolerations'], [{ operator: 'Exists', effect: 'NoExecute' }]);
    assert.deepEqual(p['status'], { phase: 'Pending' });
    assert.equal(p['spec']['restartPolicy'], 'Always');
    assert.equal(p['spec']['dnsPolicy'], 'ClusterFirst');
    assert.equal(p['spec']['terminationGracePeriodSeconds'], 30);
    assert.equal(p['spec']['schedulerName'], 'default-scheduler');
    const [web, side] = p['spec']['containers'];
    assert.equal(web.imagePullPolicy, 'Always', 'no tag is latest');
    assert.equal(side.imagePullPolicy, 'IfNotPresent');
    assert.deepEqual(web.ports, [{ containerPort: 8080, protocol: 'TCP', hostPort: 8080 }], 'host network: hostPort defaults to containerPort');
    assert.equal(web.terminationMessagePath, '/dev/termination-log');
    assert.equal(web.terminationMessagePolicy, 'File');
  });

  it('hashes the UID from the pod, the node and the source', () => {
    const uid = (yaml: string, s = FILE) => { const r = tryDecodeSinglePod(yaml, s); assert.ok('value' in r); return r.value['metadata']['uid'] as string; };
    assert.equal(uid(WEB), uid(WEB.replace('labels: {app: web}', 'labels: {"app": "web"}')), 'same pod, same UID');
    assert.notEqual(uid(WEB), uid(WEB.replace('nginx', 'nginx:1.27')));
    assert.notEqual(uid(WEB), uid(WEB, { ...FILE, source: '/elsewhere/web.yaml' }));
    assert.notEqual(uid(WEB), uid(WEB, { ...FILE, nodeName: 'node-2' }));
    assert.equal(uid(WEB.replace('name: web\n  labels', 'name: web\n  uid: given\n  labels')), 'given');
    const url = tryDecodeSinglePod(WEB, { source: 'http://config/pods', isFile: false, nodeName: 'node-1' });
    assert.ok('value' in url);
    assert.equal(url.value['spec']['tolerations'], undefined, 'URL pods get no toleration (isFile false)');
  });

  it('refuses what the universal decoder refuses, as "not parsed"', () => {
    const cases: [string, string][] = [
      ['kind: Pod\nmetadata: {name: p}\n', `Object 'apiVersion' is missing in '{"kind":"Pod","metadata":{"name":"p"}}'`],
      ['apiVersion: v1\nmetadata: {name: p}\n', `Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{"name":"p"}}'`],
      ['', "Object 'Kind' is missing in 'null'"],
      ['apiVersion: apps/v1\nkind: Deployment\n', 'no kind "Deployment" is registered for version "apps/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"'],
      ['apiVersion: v1\nkind: Pod\nmetadata: {name: p\n', 'yaml: Flow map in block collection must be sufficiently indented and end with a } at line 4, column 1:'],
      [pod('  containers: web'), 'json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container'],
      [pod('  containers: [{name: web, image: x, ports: [{containerPort: "80"}]}]'), 'json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32'],
      [pod('  hostNetwork: 1\n  containers: []'), 'json: cannot unmarshal number 1 into Go struct field PodSpec.spec.hostNetwork of type bool'],
      ['apiVersion: v1\nkind: 5\n', "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string"],
      ['- a\n- b\n', `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`],
    ];
    for (const [yaml, message] of cases) {
      const r = tryDecodeSinglePod(yaml, FILE);
      assert.equal(r.parsed, false, yaml);
      assert.ok('error' in r);
      if (message.endsWith(':')) assert.ok(r.error.startsWith(message), `${r.error} should start with ${message}`);
      else assert.equal(r.error, message);
    }
    const secret = tryDecodeSinglePod('apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n', FILE);
    assert.deepEqual(secret, { parsed: false, error: 'invalid pod: the document is a Secret, not a Pod' });
  });

  it('reports every validation error with its field path, in upstream\'s order', () => {
    assert.equal(error('apiVersion: v1\nkind: Pod\nmetadata: {namespace: x}\nspec: {containers: []}\n'), 'invalid pod: name is needed for the pod');
    assert.equal(error(pod('  containers: []')), 'invalid pod: [spec.containers: Required value]');
    assert.equal(error(pod(`  restartPolicy: Sometimes
  dnsPolicy: Nearby
  activeDeadlineSeconds: 0
  containers:
  - name: Web_1
    ports: [{containerPort: 70000, protocol: QUIC, name: "http--x"}]
  - name: Web_1
    image: " nginx"
    imagePullPolicy: Sometimes
    volumeMounts: [{name: data, mountPath: /data}]`, 'name: Bad_Name, namespace: Kube.System')), 'invalid pod: ['
      + 'metadata.name: Invalid value: "Bad_Name-node-1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\') '
      + 'metadata.namespace: Invalid value: "Kube.System": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\') '
      + 'spec.containers[0].name: Invalid value: "Web_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\') '
      + 'spec.containers[0].image: Required value '
      + 'spec.containers[0].ports[0].name: Invalid value: "http--x": must not contain consecutive hyphens '
      + 'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive '
      + 'spec.containers[0].ports[0].protocol: Unsupported value: "QUIC": supported values: "SCTP", "TCP", "UDP" '
      + 'spec.containers[1].name: Invalid value: "Web_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\') '
      + 'spec.containers[1].volumeMounts[0].name: Not found: "data" '
      + 'spec.containers[1].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never" '
      + 'spec.containers[1].name: Duplicate value: "Web_1" '
      + 'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never" '
      + 'spec.dnsPolicy: Unsupported value: "Nearby": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None" '
      + 'spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive '
      + 'spec.containers[1].image: Invalid value: " nginx": must not have leading or trailing whitespace]');
    assert.equal(error(pod('  hostNetwork: true\n  containers: [{name: a, image: x, ports: [{containerPort: 80, hostPort: 8080}]}]')),
      'invalid pod: [spec.containers[0].ports[0].hostPort: Invalid value: 8080: must match `containerPort` when `hostNetwork` is true]');
    assert.equal(error(pod('  initContainers: [{name: a, image: x}]\n  containers: [{name: a, image: x}]')), 'invalid pod: [spec.initContainers[0].name: Duplicate value: "a"]');
    assert.equal(error(pod('  volumes: [{name: v, hostPath: {path: ""}}, {name: v, emptyDir: {}, secret: {secretName: s}}]\n  containers: [{name: a, image: x}]')),
      'invalid pod: [spec.volumes[0].hostPath.path: Required value spec.volumes[1].name: Duplicate value: "v" spec.volumes[1].secret: Forbidden: may not specify more than 1 volume type]');
  });

  it('refuses references to API objects (PreventStaticPodAPIReferences)', () => {
    const cases: [string, string][] = [
      ['  serviceAccountName: default\n  containers: [{name: a, image: x}]', 'serviceaccounts'],
      ['  imagePullSecrets: [{name: regcred}]\n  containers: [{name: a, image: x}]', 'secrets'],
      ['  volumes: [{name: s, secret: {secretName: s}}]\n  containers: [{name: a, image: x}]', 'secrets'],
      ['  containers: [{name: a, image: x, env: [{name: K, valueFrom: {configMapKeyRef: {name: c, key: k}}}]}]', 'configmaps'],
      ['  volumes: [{name: c, persistentVolumeClaim: {claimName: c}}]\n  containers: [{name: a, image: x}]', 'persistentvolumeclaims'],
      ['  volumes: [{name: t, projected: {sources: [{serviceAccountToken: {path: t}}]}}]\n  containers: [{name: a, image: x}]', 'serviceaccounts (via projected volumes)'],
    ];
    for (const [spec, resource] of cases) assert.equal(error(pod(spec)), `static pods may not reference ${resource}`, spec);
    const ok = tryDecodeSinglePod(pod('  volumes: [{name: etc, hostPath: {path: /etc/plat}}, {name: scratch}]\n  containers: [{name: a, image: x, volumeMounts: [{name: etc, mountPath: /etc/plat}]}]'), FILE);
    assert.ok('value' in ok, JSON.stringify(ok));
    assert.deepEqual(ok.value['spec']['volumes'][1], { name: 'scratch', emptyDir: {} }, 'a volume with no source is an emptyDir');
  });

  it('decodes a PodList; one bad item refuses the list', () => {
    const list = (items: unknown[]) => JSON.stringify({ apiVersion: 'v1', kind: 'PodList', items });
    const good = { metadata: { name: 'a' }, spec: { containers: [{ name: 'a', image: 'x' }] } };
    const r = tryDecodePodList(list([good, { ...good, metadata: { name: 'b' } }]), { source: 'http://h/pods', isFile: false, nodeName: 'n' });
    assert.ok('value' in r);
    assert.deepEqual(r.value.map((p) => p['metadata']['name']), ['a-n', 'b-n']);
    const bad = tryDecodePodList(list([good, { metadata: { name: 'c' }, spec: {} }]), { source: 'http://h/pods', isFile: false, nodeName: 'n' });
    assert.deepEqual(bad, { parsed: true, error: 'items[1]: invalid pod: [spec.containers: Required value]' });
    assert.equal(tryDecodePodList(WEB, FILE).parsed, false, 'a single pod is not a list');
  });
});
