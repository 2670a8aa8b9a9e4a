// A kubeconfig the controller manager cannot use is refused at start-up in clientcmd's words, as
// kube-controller-manager's BuildConfigFromFlags (and the delegated clients' loader) says them:
// DirectClientConfig.ConfirmUsable gathers every problem (a current-context that is not there, then
// the user's, then the cluster's, where the missing context's cluster is the empty one: "cluster
// has no server defined"), one alone and several bracketed; the empty cluster alone is "no
// configuration has been provided"; --master gives the cluster its server.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { bootRefusal } from '../helpers/boot-refusal.js';
import { tempDir } from '../helpers/plat.js';

const HEAD = 'apiVersion: v1\nkind: Config\n';
const CLUSTER = 'clusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:1"}\n';
const CERT_WITHOUT_KEY = 'users:\n- name: u\n  user: {client-certificate-data: "Zm9v"}\n';
const EMPTY_CONFIG = 'no configuration has been provided, try setting KUBERNETES_MASTER environment variable';

const rows: readonly { name: string; text: string; flag?: string; args?: readonly string[]; message: string }[] = [
  {
    name: 'a current-context that is not there, no cluster',
    text: `${HEAD}current-context: nope\n`,
    message: 'invalid configuration: [context was not found for specified context: nope, cluster has no server defined]',
  },
  {
    name: 'a current-context that is not there, clusters and contexts of other names',
    text: `${HEAD}${CLUSTER}contexts:\n- name: ctx\n  context: {cluster: c}\ncurrent-context: nope\n`,
    message: 'invalid configuration: [context was not found for specified context: nope, cluster has no server defined]',
  },
  {
    name: 'a current-context that is not there, with --master for the server',
    text: `${HEAD}current-context: nope\n`, args: ['--master=https://127.0.0.1:1'],
    message: 'invalid configuration: context was not found for specified context: nope',
  },
  {
    name: 'a context naming a cluster that is not there',
    text: `${HEAD}contexts:\n- name: ctx\n  context: {cluster: gone}\ncurrent-context: ctx\n`,
    message: `invalid configuration: ${EMPTY_CONFIG}`,
  },
  {
    name: "the user's problem before the missing cluster's",
    text: `${HEAD}${CERT_WITHOUT_KEY}contexts:\n- name: ctx\n  context: {cluster: gone, user: u}\ncurrent-context: ctx\n`,
    message: 'invalid configuration: [client-key-data or client-key must be specified for u to use the clientCert authentication method., cluster has no server defined]',
  },
  {
    name: '--authentication-kubeconfig, the same loader',
    text: `${HEAD}current-context: nope\n`, flag: 'authentication-kubeconfig', args: ['--master=https://127.0.0.1:1', '--bind-address=127.0.0.1'],
    message: 'failed to get delegated authentication kubeconfig: invalid configuration: [context was not found for specified context: nope, cluster has no server defined]',
  },
  {
    name: '--authorization-kubeconfig that is not there',
    text: '', flag: 'authorization-kubeconfig', args: ['--master=https://127.0.0.1:1', '--bind-address=127.0.0.1'],
    message: 'failed to get delegated authorization kubeconfig: stat MISSING: no such file or directory',
  },
];

describe('kubeconfig problems at start-up, in clientcmd\'s words', () => {
  for (const row of rows) {
    it(row.name, async () => {
      const dir = tempDir();
      const file = path.join(dir, row.text === '' ? 'missing.yaml' : 'kc.yaml');
      if (row.text !== '') writeFileSync(file, row.text);
      const flag = row.flag ?? 'platconfig';
      // The endpoint reads its kubeconfigs while configuring, before it listens (nothing binds).
      const r = await bootRefusal('controller-manager', [`--${flag}`, file, '--cert-dir', dir, ...(row.args ?? ['--secure-port=0'])], { cwd: dir });
      const last = r.stderr.trimEnd().split('\n').at(-1);
      assert.equal(last, `plat controller-manager: --${flag}=${file}: ${row.message.replace('MISSING', file)}`);
      assert.equal(r.code, 1);
    });
  }
});
