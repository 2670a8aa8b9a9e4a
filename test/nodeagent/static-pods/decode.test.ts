// One manifest to one static pod, as upstream's tryDecodeSinglePod and tryDecodePodList make it:
// the scheme's defaults and the config source's (name suffixed with the node, UID hashed from pod
// and source, config.hash, the NoExecute toleration for file pods, status Pending), then
// ValidatePodCreate's field errors and the API-reference ban, each failure with upstream's text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { FeatureGates } from '../../../core/nodeagent/feature-gates.js';
import { tryDecodePodList as decodeList, tryDecodeSinglePod as decodeSingle } from '../../../plugins/nodeagent-static-pods/decode-pod.js';

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

/** The node agent's gates by default, the reference ban on. */
const GATES = FeatureGates.defaults();
const tryDecodeSinglePod = (data: string, source: typeof FILE, gates = GATES) => decodeSingle(data, source, gates);
const tryDecodePodList = (data: string, source: typeof FILE, gates = GATES) => decodeList(data, source, gates);

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
      ['apiVersion: v1\nkind: Pod\nmetadata: {name: p\n', "yaml: line 3: did not find expected ',' or '}'"],
      [pod('  containers: web'), 'json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container'],
      [pod('  containers: [{name: web, image: x, ports: [{containerPort: "80"}]}]'), 'json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32'],
      [pod('  hostNetwork: 1\n  containers: []'), 'json: cannot unmarshal number into Go struct field PodSpec.spec.hostNetwork of type bool'],
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
    assert.deepEqual(bad, { parsed: true, error: 'invalid pod: [spec.containers: Required value]' }, 'the item\'s error as it is, as upstream');
    assert.equal(tryDecodePodList(WEB, FILE).parsed, false, 'a single pod is not a list');
  });

  it('words syntax and type errors as go-yaml and encoding/json do', () => {
    const cases: [string, string][] = [
      // A mistyped `:` after a sibling key: go-yaml's stale required simple key, on the line of the `:`.
      ['apiVersion: v1\nkind: Pod\nmetadata;\n  name: p\nspec:\n  containers: []\n', "yaml: line 4: could not find expected ':'"],
      [pod('  containers: []\n  hostPID: true\n  dnsPolicy;\n    Default: x\n'), "yaml: line 8: could not find expected ':'"],
      // literalStore: a number where a non-integer belongs is just `number`; an integer field names the number it cannot hold.
      [pod('  containers: [{name: web, image: 123}]'), 'json: cannot unmarshal number into Go struct field Container.spec.containers.image of type string'],
      [pod('  containers: [{name: web, image: x, command: [sh, 1]}]'), 'json: cannot unmarshal number into Go struct field Container.spec.containers.command of type string'],
      [pod('  containers: 5'), 'json: cannot unmarshal number into Go struct field PodSpec.spec.containers of type []v1.Container'],
      [pod('  nodeSelector: {zone: 2}\n  containers: []'), 'json: cannot unmarshal number into Go struct field PodSpec.spec.nodeSelector of type string'],
      [pod('  containers: [{name: web, image: x, ports: [{containerPort: 4294967296}]}]'), 'json: cannot unmarshal number 4294967296 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32'],
    ];
    for (const [yaml, message] of cases) assert.deepEqual(tryDecodeSinglePod(yaml, FILE), { parsed: false, error: message }, yaml);
  });

  it('refuses a PodList item without a name, and says an item\'s error as upstream does', () => {
    const list = (items: unknown[]) => JSON.stringify({ apiVersion: 'v1', kind: 'PodList', items });
    const good = { metadata: { name: 'a' }, spec: { containers: [{ name: 'a', image: 'x' }] } };
    const url = { source: 'http://h/pods', isFile: false, nodeName: 'n' };
    const cases: [string, unknown[], string][] = [
      ['no metadata', [good, { spec: { containers: [{ name: 'b', image: 'x' }] } }], 'invalid pod: name is needed for the pod'],
      ['an empty name', [{ metadata: { name: '' }, spec: good.spec }, good], 'invalid pod: name is needed for the pod'],
      ['a null item', [good, null], 'invalid pod: name is needed for the pod'],
      ['a validation error', [good, { metadata: { name: 'c' }, spec: {} }], 'invalid pod: [spec.containers: Required value]'],
      ['a reference', [good, { metadata: { name: 'd' }, spec: { ...good.spec, serviceAccountName: 'sa' } }], 'static pods may not reference serviceaccounts'],
    ];
    for (const [what, items, message] of cases) assert.deepEqual(tryDecodePodList(list(items), url), { parsed: true, error: message }, what);
  });

  it('follows PreventStaticPodAPIReferences: off, only the older ClusterTrustBundle and ResourceClaims bans, and only for a single pod', () => {
    const off = FeatureGates.evaluate({ PreventStaticPodAPIReferences: false }).gates;
    const ctb = '  volumes: [{name: b, projected: {sources: [{clusterTrustBundle: {name: b, path: b.pem}}]}}]\n  containers: [{name: a, image: x}]';
    const claims = '  resourceClaims: [{name: gpu, resourceClaimName: gpu}]\n  containers: [{name: a, image: x}]';
    const secret = '  volumes: [{name: s, secret: {secretName: s}}]\n  containers: [{name: a, image: x}]';
    // spec, the error with the gate off (undefined: accepted), the error with it on
    const cases: [string, string | undefined, string][] = [
      [secret, undefined, 'static pods may not reference secrets'],
      ['  serviceAccountName: default\n  containers: [{name: a, image: x}]', undefined, 'static pods may not reference serviceaccounts'],
      [ctb, 'static pods may not use ClusterTrustBundle projected volume sources', 'static pods may not reference clustertrustbundles'],
      [claims, 'static pods may not use ResourceClaims', 'static pods may not reference resourceclaims'],
    ];
    for (const [spec, offError, onError] of cases) {
      const single = tryDecodeSinglePod(pod(spec), FILE, off);
      if (offError) assert.deepEqual(single, { parsed: true, error: offError }, spec);
      else assert.ok('value' in single, `${spec}: ${JSON.stringify(single)}`);
      assert.deepEqual(tryDecodeSinglePod(pod(spec), FILE), { parsed: true, error: onError }, spec);
      // Upstream's PodList loop checks nothing with the gate off.
      const doc = JSON.stringify({ apiVersion: 'v1', kind: 'PodList', items: [parse(pod(spec)) as unknown] });
      assert.ok('value' in tryDecodePodList(doc, FILE, off), spec);
      assert.deepEqual(tryDecodePodList(doc, FILE), { parsed: true, error: onError }, spec);
    }
  });

  it('replaces every NoExecute toleration matching the file pod\'s, as AddOrUpdateTolerationInPod does', () => {
    const tolerations = (list: string) => {
      const r = tryDecodeSinglePod(pod(`  tolerations: ${list}\n  containers: [{name: a, image: x}]`), FILE);
      assert.ok('value' in r, JSON.stringify(r));
      return r.value['spec']['tolerations'] as unknown[];
    };
    const exists = { operator: 'Exists', effect: 'NoExecute' };
    const cases: [string, string, unknown[]][] = [
      ['none', '[]', [exists]],
      ['two matching, both replaced', '[{operator: Exists, effect: NoExecute, tolerationSeconds: 5}, {key: k, operator: Exists}, {operator: Exists, effect: NoExecute, tolerationSeconds: 9}]',
        [exists, { key: 'k', operator: 'Exists' }, exists]],
      ['one already equal: the list as it is', '[{operator: Exists, effect: NoExecute, tolerationSeconds: 5}, {operator: Exists, effect: NoExecute}]',
        [{ operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }, exists]],
      ['other effects kept, ours added', '[{operator: Exists, effect: NoSchedule}]', [{ operator: 'Exists', effect: 'NoSchedule' }, exists]],
    ];
    for (const [what, list, want] of cases) assert.deepEqual(tolerations(list), want, what);
  });
});
