// Which kubeconfig the client commands read and how, as clientcmd's loading rules: $KUBECONFIG
// lists merged (first name wins, first current-context wins, paths relative to each file),
// ~/.kube/config before plat's .plat/admin.conf, --context/--cluster/--user, and names that are
// not there refused in clientcmd's words instead of an anonymous request.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Flags } from '../../core/flags/flag-set.js';
import { defineKubeconfigFlags, kubeconfigConnection, kubeconfigFiles } from '../../host/commands/kubeconfig-flags.js';
import { makeCa } from '../helpers/certs.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { runPlatAsync } from '../helpers/run-plat.js';
import type { Plugin } from '../../core/plugin.js';

const flags = (...args: string[]) => {
  const f = new Flags();
  defineKubeconfigFlags(f, 'test');
  f.parse(args);
  return f;
};

// A CA per file, to tell which file's `ca.crt` was read (the loader takes only real CA bundles).
const CAS = new Map<string, string>();
const caOf = (name: string): string => {
  if (!CAS.has(name)) CAS.set(name, makeCa({ commonName: `CA of ${name}` }).certificatePem);
  return CAS.get(name)!;
};

/** Writes a kubeconfig (JSON is YAML) into its own directory, with `ca.crt` next to it. */
function kubeconfig(name: string, doc: object, ca = caOf(name)): string {
  const dir = path.join(tempDir('plat-kubeconfig-'), name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'ca.crt'), ca);
  const file = path.join(dir, 'config');
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

const cluster = (name: string, server: string) => ({ name, cluster: { server, 'certificate-authority': 'ca.crt' } });
const user = (name: string, token: string) => ({ name, user: { token } });
const context = (name: string, c: string, u: string) => ({ name, context: { cluster: c, user: u } });

describe('kubeconfig loading for plat csr, plat token and plat auth can-i', () => {
  const first = kubeconfig('first', {
    clusters: [cluster('shared', 'https://first.example:6443')], users: [user('alice', 'token-first')],
    contexts: [context('other', 'only-second', 'bob')],
  });
  const second = kubeconfig('second', {
    'current-context': 'main',
    clusters: [cluster('shared', 'https://second.example:6443'), cluster('only-second', 'https://other.example:6443'), cluster('no-user', 'https://x.example')],
    users: [user('alice', 'token-second'), user('bob', 'token-bob')],
    contexts: [context('main', 'shared', 'alice'), context('ghost-user', 'shared', 'ghost'), context('gone-cluster', 'gone', 'alice')],
  });
  const third = kubeconfig('third', { 'current-context': 'other', clusters: [], users: [], contexts: [] });

  it('$KUBECONFIG: a list merged as clientcmd merges it; missing files skipped', () => {
    const env = { KUBECONFIG: ['/nonexistent/config', first, second].join(path.delimiter) };
    assert.deepEqual(kubeconfigFiles(flags(), env).files, [first, second]);
    const c = kubeconfigConnection(flags(), env);
    // current-context from the second file (the first has none); cluster and user entries from the first.
    assert.equal(c.server.href, 'https://first.example:6443/');
    assert.equal(c.token, 'token-first');
    assert.equal(c.ca?.toString(), caOf('first'), 'relative to the file that defined the cluster');
    // The first non-empty current-context wins.
    const c3 = kubeconfigConnection(flags(), { KUBECONFIG: [third, first, second].join(path.delimiter) });
    assert.deepEqual([c3.server.href, c3.token, c3.ca?.toString()], ['https://other.example:6443/', 'token-bob', caOf('second')]);
    // $PLATCONFIG is the same kind of value, and comes first.
    const p = kubeconfigConnection(flags(), { PLATCONFIG: ['/nonexistent/config', second].join(path.delimiter), KUBECONFIG: [first, second].join(path.delimiter) });
    assert.equal(p.token, 'token-second');
    assert.throws(() => kubeconfigConnection(flags(), { KUBECONFIG: '/nonexistent/a:/nonexistent/b' }), /\$KUBECONFIG \(\/nonexistent\/a:\/nonexistent\/b\): none of its files exists/);
  });

  // clientcmd skips only what os.IsNotExist says is missing (ENOENT); a file it cannot open
  // (EACCES, or a path through a regular file, ENOTDIR, which root meets too) stops the load.
  it('$KUBECONFIG and ~/.kube/config: a file that cannot be opened is an error, not skipped', () => {
    const notDir = path.join(path.dirname(first), 'ca.crt', 'config');
    const want = `error loading config file "${notDir}": open ${notDir}: not a directory`;
    for (const env of [{ KUBECONFIG: [notDir, second].join(path.delimiter) }, { PLATCONFIG: notDir, KUBECONFIG: second }]) {
      assert.throws(() => kubeconfigConnection(flags(), env), (e: Error) => e.message.endsWith(want));
    }
    const home = tempDir('plat-home-');
    writeFileSync(path.join(home, '.kube'), '');
    assert.deepEqual(kubeconfigFiles(flags(), {}, home).files, [path.join(home, '.kube', 'config')]);
  });

  it('without --kubeconfig or the variables: ~/.kube/config when it exists, else .plat/admin.conf', () => {
    const home = tempDir('plat-home-');
    assert.deepEqual(kubeconfigFiles(flags(), {}, home).files, ['.plat/admin.conf']);
    mkdirSync(path.join(home, '.kube'));
    writeFileSync(path.join(home, '.kube', 'config'), '{}');
    assert.deepEqual(kubeconfigFiles(flags(), {}, home).files, [path.join(home, '.kube', 'config')]);
    assert.deepEqual(kubeconfigFiles(flags('--kubeconfig', second), { KUBECONFIG: first }, home).files, [second]);
  });

  it('--context, --cluster and --user override the current context', () => {
    const env = { KUBECONFIG: second };
    assert.equal(kubeconfigConnection(flags('--user', 'bob'), env).token, 'token-bob');
    assert.equal(kubeconfigConnection(flags('--cluster', 'only-second'), env).server.host, 'other.example:6443');
    const c = kubeconfigConnection(flags('--context', 'main', '--cluster', 'no-user', '--user', 'bob'), env);
    assert.deepEqual([c.server.host, c.token], ['x.example', 'token-bob']);
  });

  it('a context, cluster or user that is not there is an error naming it, in clientcmd\'s words', () => {
    const env = { KUBECONFIG: second };
    for (const [args, message] of [
      [['--context', 'nope'], 'context was not found for specified context: nope'],
      [['--context', 'ghost-user'], 'auth info "ghost" does not exist'],
      [['--context', 'gone-cluster'], 'no server found for cluster "gone"'],
      [['--cluster', 'nope'], 'no server found for cluster "nope"'],
      [['--user', 'nope'], 'auth info "nope" does not exist'],
    ] as const) {
      assert.throws(() => kubeconfigConnection(flags(...args), env), { message: `kubeconfig ${second}: ${message}` }, args.join(' '));
    }
    // A current-context of another file that no file defines.
    assert.throws(() => kubeconfigConnection(flags(), { KUBECONFIG: third }), { message: `kubeconfig ${third}: context was not found for specified context: other` });
  });
});

describe('a kubeconfig server URL with a path (behind a proxy routing by prefix)', () => {
  let plat: RunningPlat;
  const paths: string[] = [];
  const recorder: Plugin = {
    name: 'PathsForTests',
    apply(host) {
      host.hooks.authenticate.tap({ name: 'PathsForTests', stage: Number.MIN_SAFE_INTEGER }, (req) => { paths.push(`${req.method} ${req.path}`); return undefined; });
    },
  };
  // No embedded controllers: their requests (a default ServiceAccount, the aggregated roles) would land among those recorded.
  before(async () => { plat = await startInProcess({ args: ['--controllers='], plugins: [recorder] }); });
  after(async () => { await plat?.stop(); });

  it('plat csr (the REST client) and plat token create (one request) keep the prefix', async () => {
    const file = path.join(tempDir('plat-prefix-'), 'prefixed.conf');
    writeFileSync(file, readFileSync(plat.kubeconfig, 'utf8').replace(/(server: https:\/\/127\.0\.0\.1:\d+)/, '$1/prefix'));
    const env = { PLATCONFIG: '', KUBECONFIG: '' };
    paths.length = 0;
    await runPlatAsync(['csr', 'get', 'some-csr', '--kubeconfig', file], { env });
    await runPlatAsync(['csr', 'list', '--kubeconfig', file], { env });
    await runPlatAsync(['token', 'create', '--kubeconfig', file], { env });
    assert.deepEqual(paths, [
      'GET /prefix/apis/certificates.platform/v1/certificatesigningrequests/some-csr',
      'GET /prefix/apis/certificates.platform/v1/certificatesigningrequests',
      'POST /prefix/api/v1/namespaces/plat-system/secrets',
    ]);
  });
});
