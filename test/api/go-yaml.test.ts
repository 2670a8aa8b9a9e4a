// YAML bodies read as sigs.k8s.io/yaml reads them (go-yaml v2: YAML 1.1 scalars without base-60
// numbers, timestamps kept as text), both where the API server decodes application/yaml and where
// the node agent decodes a static pod manifest.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FeatureGates } from '../../core/nodeagent/feature-gates.js';
import { parseDocument } from '../../core/server/body.js';
import { tryDecodeSinglePod } from '../../plugins/nodeagent-static-pods/decode-pod.js';

const CASES: Array<[string, unknown]> = [
  ['yes', true], ['No', false], ['on', true], ['OFF', false], ['y', true], ['n', false], ['true', true],
  ['0777', 511], ['0x1F', 31], ['1_000', 1000], ['12', 12], ['1.5', 1.5], ['~', null], ['null', null],
  ['12:30', '12:30'], ['190:20:30', '190:20:30'], ['2001-12-14', '2001-12-14'], ['2001-12-14T21:59:43.10-05:00', '2001-12-14T21:59:43.10-05:00'],
  ['"yes"', 'yes'], ["'0777'", '0777'], ['plain text', 'plain text'],
  // go-yaml's resolve(): a float only after a sign, digit or '.' hint, and only what Go parses;
  // the yaml package's YAML 1.1 floats would make e1, '.', '-.' and '._' NaN.
  ['e1', 'e1'], ['E2', 'E2'], ['e+1', 'e+1'], ['e10', 'e10'], ['.', '.'], ['-.', '-.'], ['+.', '+.'], ['._', '._'], ['._5', '._5'],
  ['.5_0', '.5_0'], ['-e1', '-e1'], ['e2e', 'e2e'],
  ['1.', 1], ['-.5', -0.5], ['+.5', 0.5], ['.5', 0.5], ['.5e3', 500], ['1_000.5', 1000.5], ['1e5', 100000], ['1_e_5', 100000], ['1E5', 100000],
  ['0o17', 15], ['-0o17', -15], ['017', 15], ['0b101', 5], ['08', 8], ['.inf', Infinity], ['-.Inf', -Infinity],
];

describe('YAML as upstream reads it', () => {
  it('resolves each plain scalar as go-yaml v2 does (application/yaml bodies)', () => {
    for (const [text, want] of CASES) {
      const { value } = parseDocument(Buffer.from(`v: ${text}\n`), 'application/yaml');
      assert.deepEqual(value, { v: want }, text);
    }
    // A YAML 1.1 boolean key becomes its JSON text, as sigs.k8s.io/yaml writes non-string keys.
    assert.deepEqual(parseDocument(Buffer.from('n: 1\nyes: 2\n'), 'application/yaml').value, { false: 1, true: 2 });
  });

  it('reads a static pod manifest the same way', () => {
    const r = tryDecodeSinglePod('apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations: {at: "x", window: 12:30}\nspec:\n  containers:\n  - {name: c, image: busybox}\n',
      { source: '/etc/plat/manifests/p.yaml', isFile: true, nodeName: 'node-1' }, FeatureGates.defaults());
    assert.ok('value' in r, JSON.stringify(r));
    assert.equal(r.value['metadata']['annotations']['window'], '12:30');
  });
});
