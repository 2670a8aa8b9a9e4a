// A kubeconfig plat cannot read is said as clientcmd's loading rules say it: os.Stat's error for a
// missing file, `error loading config file "F": <os error>` for any other failure; Go's texts, not Node's.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { KubeconfigError, loadKubeconfig, loadKubeconfigs } from '../../core/client/kubeconfig.js';
import { tempDir } from '../helpers/plat.js';

test('unreadable kubeconfigs fail with clientcmd\'s and Go\'s texts, naming the file', () => {
  const dir = tempDir();
  const file = path.join(dir, 'admin.conf');
  writeFileSync(file, 'not a directory');
  const sub = path.join(dir, 'sub');
  mkdirSync(sub);
  const cases: [string, string][] = [
    [path.join(dir, 'missing.conf'), `stat ${path.join(dir, 'missing.conf')}: no such file or directory`],
    [sub, `error loading config file "${sub}": read ${sub}: is a directory`],
    [path.join(file, 'x'), `error loading config file "${path.join(file, 'x')}": open ${path.join(file, 'x')}: not a directory`],
  ];
  for (const [target, message] of cases) {
    assert.throws(() => loadKubeconfig(target), (e: Error) => e instanceof KubeconfigError && e.message === message, target);
    assert.throws(() => loadKubeconfigs([target]), (e: Error) => e.message === message, target);
  }
});

test('an unreadable file the kubeconfig names says Go\'s open error', () => {
  const dir = tempDir();
  const file = path.join(dir, 'k.conf');
  writeFileSync(file, 'clusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\n    certificate-authority: nope.crt\n');
  const ca = path.join(dir, 'nope.crt');
  assert.throws(() => loadKubeconfig(file), { message: `invalid configuration: unable to read certificate-authority ${ca} for c due to open ${ca}: no such file or directory` });
});

test('only the first YAML document of a kubeconfig counts, as yaml.Unmarshal reads it', () => {
  const dir = tempDir();
  const file = path.join(dir, 'two.conf');
  writeFileSync(file, [
    'clusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\n',
    'contexts:\n- name: x\n  context: {cluster: nowhere}\ncurrent-context: x\n',
    ': this: is [not yaml\n',
  ].join('---\n'));
  assert.equal(loadKubeconfig(file).server.href, 'https://127.0.0.1:1/');
  writeFileSync(file, 'clusters: [\n---\nclusters: []\n');
  assert.throws(() => loadKubeconfig(file), (e: Error) => e instanceof KubeconfigError && e.message.startsWith(`error loading config file "${file}": yaml: line `), 'the file is named before the parser\'s words');
});

test('a missing client certificate or key file is said in clientcmd\'s validateAuthInfo words', () => {
  const dir = tempDir();
  const file = path.join(dir, 'u.conf');
  writeFileSync(file, 'clusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:1"}\nusers:\n- name: u\n  user: {client-certificate: n.crt, client-key: n.key}\n'
    + 'contexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n');
  const crt = path.join(dir, 'n.crt');
  const key = path.join(dir, 'n.key');
  // ConfirmUsable reports every problem at once, as utilerrors.NewAggregate lists them.
  assert.throws(() => loadKubeconfig(file), { message: `invalid configuration: [unable to read client-cert ${crt} for u due to open ${crt}: no such file or directory, `
    + `unable to read client-key ${key} for u due to open ${key}: no such file or directory]` });
  writeFileSync(crt, 'x');
  assert.throws(() => loadKubeconfig(file), { message: `invalid configuration: unable to read client-key ${key} for u due to open ${key}: no such file or directory` });
});
