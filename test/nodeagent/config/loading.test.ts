// Reading the --config file as upstream's loader does: YAML or JSON, apiVersion and kind checked,
// wrong types fatal with the field's path, unknown and duplicate fields logged (lenient decoding
// after a failed strict one), empty and missing files refused, and the relative paths of
// KubeletConfigurationPathRefs resolved against the file's directory (not in drop-ins).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../../helpers/plat.js';
import { build, ok } from './support.js';

const LOAD = 'failed to load nodeagent config file, path: ';
/** loadConfigFile's inner wrapper, then the caller's. */
const load = (given: string, inner: string) => `${LOAD}${given}, error: failed to load NodeAgent config file ${given}, error ${inner}`;

describe('the --config file', () => {
  it('may be YAML or JSON', () => {
    assert.equal(ok({ file: 'apiVersion: nodeagent.config.platform/v1beta1\nkind: NodeAgentConfiguration\nmaxPods: 20\n' }).maxPods, 20);
    assert.equal(ok({ file: '{"apiVersion": "nodeagent.config.platform/v1beta1", "kind": "NodeAgentConfiguration", "maxPods": 21}' }).maxPods, 21);
  });

  it('must name nodeagent.config.platform/v1beta1 NodeAgentConfiguration', () => {
    const wrong = build({ raw: true, file: { apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration' } });
    assert.equal(wrong.error, load(wrong.file!, 'failed to decode: no kind "KubeletConfiguration" is registered for version "kubelet.config.k8s.io/v1beta1" in scheme "pkg/kubelet/apis/config/scheme/scheme.go:33"'));
    const noKind = build({ raw: true, file: { apiVersion: 'nodeagent.config.platform/v1beta1' } });
    assert.match(noKind.error ?? '', /error failed to decode: Object 'Kind' is missing in '/);
    const noVersion = build({ raw: true, file: { kind: 'NodeAgentConfiguration' } });
    assert.match(noVersion.error ?? '', /error failed to decode: Object 'apiVersion' is missing in '/);
  });

  it('refuses wrong types, naming the field and the Go type', () => {
    const r = build({ file: { port: '10250', authentication: { webhook: { enabled: 'yes' } }, registerWithTaints: [{ key: 1 }] } });
    assert.equal(r.error, load(r.file!, 'failed to decode: json: cannot unmarshal string into Go struct field NodeAgentWebhookAuthentication.authentication.webhook.enabled of type bool'));
    const fraction = build({ file: { maxPods: 1.5 } });
    assert.match(fraction.error ?? '', /cannot unmarshal number 1\.5 into Go struct field NodeAgentConfiguration\.maxPods of type int32/);
    const range = build({ file: { port: 2 ** 31 } });
    assert.match(range.error ?? '', /cannot unmarshal number 2147483648 into Go struct field NodeAgentConfiguration\.port of type int32/);
  });

  it('logs repeated keys and unknown fields and goes on with lenient decoding', () => {
    const r = build({ file: 'apiVersion: nodeagent.config.platform/v1beta1\nkind: NodeAgentConfiguration\nmaxPods: 20\nmaxPods: 30\nfoo: 1\nauthentication:\n  bar: true\n' });
    assert.equal(r.error, undefined, r.error);
    assert.equal(r.config?.maxPods, 30);
    assert.match(r.logs, /^I.* Using lenient decoding as strict decoding failed err="strict decoding error: yaml: unmarshal errors:\\n  line 4: key \\"maxPods\\" already set in map, unknown field \\"authentication\.bar\\", unknown field \\"foo\\""/m);
  });

  it('reads plain scalars by YAML 1.1, as upstream (sigs.k8s.io/yaml) does, in the file and in drop-ins', () => {
    const c = ok({
      file: 'apiVersion: nodeagent.config.platform/v1beta1\nkind: NodeAgentConfiguration\nfailSwapOn: no\nmaxPods: 0110\nclusterDomain: "on"\n',
      dropIns: { '10-a.conf': 'apiVersion: nodeagent.config.platform/v1beta1\nkind: NodeAgentConfiguration\nregisterNode: Off\nrotateCertificates: y\n' },
    });
    assert.deepEqual([c.failSwapOn, c.maxPods, c.clusterDomain, c.registerNode, c.rotateCertificates], [false, 0o110, 'on', false, true]);
    // No base-60 numbers in go-yaml v2: `1:30` stays text (YAML 1.1 proper would make it 90).
    const base60 = build({ file: 'apiVersion: nodeagent.config.platform/v1beta1\nkind: NodeAgentConfiguration\nsyncFrequency: 1:30\n' });
    assert.match(base60.error ?? '', /error failed to decode: time: unknown unit ":" in duration "1:30"$/);
  });

  it('treats null as unset', () => {
    assert.equal(ok({ file: { maxPods: null, syncFrequency: null } }).maxPods, 110);
  });

  it('must exist, be readable YAML, and not be empty', () => {
    const dir = tempDir('nodeagent-config-');
    const missing = build({ dir, args: ['--config=nope.yaml'] });
    assert.equal(missing.error, load('nope.yaml', `failed to read nodeagent config file "${dir}/nope.yaml", error: open ${dir}/nope.yaml: no such file or directory`));
    const empty = build({ file: '' });
    assert.equal(empty.error, load(empty.file!, `nodeagent config file "${empty.file}" was empty`));
    const broken = build({ file: 'apiVersion: [unclosed\n' });
    assert.match(broken.error ?? '', /error failed to decode: yaml: /);
  });

  it('is found relative to the working directory', () => {
    const dir = tempDir('nodeagent-config-');
    mkdirSync(path.join(dir, 'etc'));
    writeFileSync(path.join(dir, 'etc/na.yaml'), 'apiVersion: nodeagent.config.platform/v1beta1\nkind: NodeAgentConfiguration\nmaxPods: 7\n');
    assert.equal(ok({ dir, args: ['--config=etc/na.yaml'] }).maxPods, 7);
  });
});

describe('relative paths', () => {
  it('resolve against the config file\'s directory for the path fields; absolute and empty ones stay', () => {
    const dir = tempDir('nodeagent-config-');
    const c = ok({
      dir,
      file: {
        staticPodPath: 'manifests', tlsCertFile: 'pki/serving.crt', tlsPrivateKeyFile: './pki/../pki/serving.key',
        authentication: { x509: { clientCAFile: 'ca.crt' } }, resolvConf: 'resolv.conf', volumePluginDir: '/opt/plugins',
        podLogsDir: 'logs', staticPodURL: 'relative/url',
      },
    });
    assert.equal(c.staticPodPath, path.join(dir, 'manifests'));
    assert.equal(c.tlsCertFile, path.join(dir, 'pki/serving.crt'));
    assert.equal(c.tlsPrivateKeyFile, path.join(dir, 'pki/serving.key'));
    assert.equal(c.authentication.x509.clientCAFile, path.join(dir, 'ca.crt'));
    assert.equal(c.resolvConf, path.join(dir, 'resolv.conf'));
    assert.equal(c.volumePluginDir, '/opt/plugins');
    assert.equal(c.podLogsDir, path.join(dir, 'logs'));
    assert.equal(c.staticPodURL, 'relative/url', 'not a path field');
    assert.equal(ok({ file: { resolvConf: '' } }).resolvConf, '');
  });

  it('stay as given in drop-ins and on the command line, as upstream', () => {
    const c = ok({ file: {}, dropIns: { '10.conf': { staticPodPath: 'manifests' } }, args: ['--tls-cert-file=a.crt', '--tls-private-key-file=a.key'] });
    assert.equal(c.staticPodPath, 'manifests');
    assert.equal(c.tlsCertFile, 'a.crt');
  });
});
