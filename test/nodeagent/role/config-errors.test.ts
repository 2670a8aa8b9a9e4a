// `plat nodeagent --config F --config-dir D` refusing a file, as kubelet 1.32's loadConfigFile and
// mergeKubeletConfigurations word it: exit 1, the paths as given on the command line (a drop-in's
// joined onto the directory as WalkDir joins it), the main file's two wrappers, a drop-in's walk
// wrapper, repeated keys in a drop-in fatal, and only the decoder's first type error.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../../helpers/plat.js';
import { runPlat } from '../../helpers/run-plat.js';

const HEADER = 'apiVersion: nodeagent.config.platform/v1beta1\nkind: NodeAgentConfiguration\n';
const JSON_HEADER = '"apiVersion": "nodeagent.config.platform/v1beta1", "kind": "NodeAgentConfiguration"';
const MERGE = 'failed to merge nodeagent configs: failed to walk through nodeagent dropin directory';
const load = (inner: string) => `failed to load nodeagent config file, path: c.yaml, error: failed to load NodeAgent config file c.yaml, error ${inner}`;

interface Case { name: string; files: Record<string, string>; args: string[]; error: (dir: string) => string }

const CASES: Case[] = [
  {
    name: 'a YAML drop-in repeating a key',
    files: { 'd1/10-a.conf': `${HEADER}port: 1\nport: 2\n` },
    args: ['--config-dir=d1'],
    error: () => `${MERGE} "d1": failed to load nodeagent dropin file, path: d1/10-a.conf, error: strict decoding error: yaml: unmarshal errors:\n  line 4: key "port" already set in map`,
  },
  {
    name: 'a JSON drop-in repeating a key',
    files: { 'd1/sub/10-a.conf': `{${JSON_HEADER}, "port": 1, "port": 2}` },
    args: ['--config-dir=./d1/'],
    error: () => `${MERGE} "./d1/": failed to load nodeagent dropin file, path: d1/sub/10-a.conf, error: strict decoding error: duplicate field "port"`,
  },
  {
    name: 'a drop-in without a kind',
    files: { 'd2/10-a.conf': 'apiVersion: nodeagent.config.platform/v1beta1\nmaxPods: 3\n' },
    args: ['--config-dir=d2'],
    error: () => `${MERGE} "d2": failed to load nodeagent dropin file, path: d2/10-a.conf, error: Object 'Kind' is missing in 'apiVersion: nodeagent.config.platform/v1beta1\nmaxPods: 3\n'`,
  },
  {
    name: 'a missing drop-in directory',
    files: {},
    args: ['--config-dir=nodir'],
    error: () => `${MERGE} "nodir": lstat nodir: no such file or directory`,
  },
  {
    name: 'a missing main file',
    files: {},
    args: ['--config=c.yaml'],
    error: (dir) => load(`failed to read nodeagent config file "${dir}/c.yaml", error: open ${dir}/c.yaml: no such file or directory`),
  },
  {
    name: 'a main file without a kind',
    files: { 'c.yaml': 'apiVersion: nodeagent.config.platform/v1beta1\n' },
    args: ['--config=c.yaml'],
    error: () => load("failed to decode: Object 'Kind' is missing in 'apiVersion: nodeagent.config.platform/v1beta1\n'"),
  },
  {
    name: 'a main file without an apiVersion',
    files: { 'c.yaml': 'kind: NodeAgentConfiguration\n' },
    args: ['--config=c.yaml'],
    error: () => load("failed to decode: Object 'apiVersion' is missing in 'kind: NodeAgentConfiguration\n'"),
  },
  {
    name: 'a main file of an unregistered version',
    files: { 'c.yaml': 'apiVersion: nodeagent.config.platform/v1\nkind: NodeAgentConfiguration\n' },
    args: ['--config=c.yaml'],
    error: () => load('failed to decode: no kind "NodeAgentConfiguration" is registered for version "nodeagent.config.platform/v1" in scheme "pkg/kubelet/apis/config/scheme/scheme.go:33"'),
  },
  {
    name: 'YAML keys decoded sorted: the first mismatch by key wins',
    files: { 'c.yaml': `${HEADER}port: x\naddress: 1\n` },
    args: ['--config=c.yaml'],
    error: () => load('failed to decode: json: cannot unmarshal number into Go struct field NodeAgentConfiguration.address of type string'),
  },
  {
    name: 'JSON keys decoded in document order',
    files: { 'c.yaml': `{${JSON_HEADER}, "port": "x", "address": 1}` },
    args: ['--config=c.yaml'],
    error: () => load('failed to decode: json: cannot unmarshal string into Go struct field NodeAgentConfiguration.port of type int32'),
  },
  {
    name: 'the innermost struct, struct fields only',
    files: { 'c.yaml': `${HEADER}registerWithTaints:\n- key: a\n- key: 1\n` },
    args: ['--config=c.yaml'],
    error: () => load('failed to decode: json: cannot unmarshal number into Go struct field Taint.registerWithTaints.key of type string'),
  },
  {
    name: 'a nested struct field',
    files: { 'c.yaml': `${HEADER}authentication:\n  x509:\n    clientCAFile: 1\n` },
    args: ['--config=c.yaml'],
    error: () => load('failed to decode: json: cannot unmarshal number into Go struct field NodeAgentX509Authentication.authentication.x509.clientCAFile of type string'),
  },
  {
    name: 'a number for a duration, which metav1.Duration reads as a string',
    files: { 'c.yaml': `${HEADER}syncFrequency: 10\n` },
    args: ['--config=c.yaml'],
    error: () => load('failed to decode: json: cannot unmarshal number into Go struct field NodeAgentConfiguration.syncFrequency of type string'),
  },
  {
    name: "a duration's parse error, bare, ending decoding before a mismatch saved earlier",
    files: { 'c.yaml': `${HEADER}address: 1\nsyncFrequency: abc\n` },
    args: ['--config=c.yaml'],
    error: () => load('failed to decode: time: invalid duration "abc"'),
  },
];

describe('plat nodeagent refusing a config file or drop-in', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const dir = tempDir();
      for (const [name, body] of Object.entries(c.files)) {
        mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        writeFileSync(path.join(dir, name), body);
      }
      const r = runPlat(['nodeagent', ...c.args], { cwd: dir });
      assert.equal(r.stderr, `plat nodeagent: ${c.error(dir)}\n`);
      assert.equal(r.code, 1);
    });
  }
});
