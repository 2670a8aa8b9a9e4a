// The static-pods subsystem with its real sources: a manifest directory (files added, changed and
// removed between checks; dot-files, subdirectories and invalid manifests skipped with a log line
// naming the file and the field path), a single file, a path that does not exist, and a manifest
// URL served over loopback HTTP (headers checked, a Pod or a PodList, failures keeping the last
// set, an empty body clearing it); the pods reach the secure server's /pods.
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createLogger } from '../../../core/log.js';
import type { NodeAgentConfiguration } from '../../../core/nodeagent/configuration.js';
import type { NodeAgentContext } from '../../../core/nodeagent/context.js';
import type { Slot } from '../../../core/nodeagent/slot.js';
import { createStaticPodsSubsystem } from '../../../plugins/nodeagent-static-pods/index.js';
import { nodeAgentTestContext } from '../../helpers/nodeagent-context.js';
import { tempDir } from '../../helpers/plat.js';
import { request, selfSignedPair, serverConfig, startServer } from '../server/support.js';

type Pod = Record<string, any>;
const names = (pods: readonly unknown[] | undefined) => (pods as Pod[] | undefined ?? []).map((p) => p['metadata']['name'] as string);

/** The slot's value once `ok` holds for it (now or after a later set), within `ms`. */
function until(slot: Slot<readonly unknown[]>, ok: (pods: readonly unknown[]) => boolean, ms = 10_000): Promise<readonly unknown[]> {
  const now = slot.get();
  if (slot.isSet() && ok(now!)) return Promise.resolve(now!);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { stop(); reject(new Error(`not within ${ms}ms; last: ${JSON.stringify(names(slot.get()))}`)); }, ms);
    const stop = slot.onChange((v) => { if (ok(v)) { clearTimeout(timer); stop(); resolve(v); } });
  });
}

const manifest = (name: string, image = 'nginx:1.27', extra = '') => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  containers:
  - name: ${name}
    image: ${image}
${extra}`;

function run(ctx: NodeAgentContext): () => Promise<void> {
  const stop = new AbortController();
  const done = createStaticPodsSubsystem(ctx).run(stop.signal);
  return async () => { stop.abort(); await done; };
}

describe('static pods from their sources', () => {
  const stops: (() => Promise<void>)[] = [];
  after(async () => { for (const s of stops) await s(); });

  it('reads a directory and follows files being added, changed and removed', async () => {
    const dir = tempDir('plat-nasrv-manifests-');
    writeFileSync(path.join(dir, 'a.yaml'), manifest('a'));
    writeFileSync(path.join(dir, 'b.json'), JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'b', namespace: 'plat-system' }, spec: { containers: [{ name: 'b', image: 'busybox' }] } }));
    writeFileSync(path.join(dir, '.hidden.yaml'), manifest('hidden'));
    mkdirSync(path.join(dir, 'nested'));
    writeFileSync(path.join(dir, 'nested', 'c.yaml'), manifest('c'));
    writeFileSync(path.join(dir, 'z-invalid.yaml'), manifest('z', 'nginx', '    ports: [{containerPort: 99999}]\n'));
    const lines: string[] = [];
    const ctx = nodeAgentTestContext({ standalone: true, logger: createLogger({ write: (l) => lines.push(l) }), config: { staticPodPath: dir, fileCheckFrequency: '50ms' } });
    stops.push(run(ctx));

    const first = await until(ctx.staticPods, (p) => p.length > 0) as Pod[];
    assert.deepEqual(names(first), ['a-node-1', 'b-node-1']);
    const [a, b] = first;
    assert.equal(b!['metadata']['namespace'], 'plat-system');
    assert.equal(a!['metadata']['annotations']['platform/config.source'], 'file');
    assert.match(a!['metadata']['annotations']['platform/config.seen'], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    assert.equal(a!['metadata']['annotations']['platform/config.hash'], a!['metadata']['uid']);
    const invalid = lines.find((l) => l.includes('Could not process manifest file'));
    assert.ok(invalid, lines.join('\n'));
    assert.ok(invalid.includes(path.join(dir, 'z-invalid.yaml')), 'the log line names the file');
    assert.ok(invalid.includes('spec.containers[0].ports[0].containerPort: Invalid value: 99999: must be between 1 and 65535, inclusive'), invalid);
    assert.ok(lines.some((l) => l.includes('Provided manifest path is a directory, not recursing into manifest path')));

    // Written elsewhere and renamed in, as editors and config tools do, so no check reads half a file.
    const tmp = tempDir('plat-nasrv-staging-');
    writeFileSync(path.join(tmp, 'c.yaml'), manifest('c'));
    renameSync(path.join(tmp, 'c.yaml'), path.join(dir, 'c.yaml'));
    assert.deepEqual(names(await until(ctx.staticPods, (p) => p.length === 3)), ['a-node-1', 'b-node-1', 'c-node-1']);

    writeFileSync(path.join(tmp, 'a.yaml'), manifest('a', 'nginx:1.28'));
    renameSync(path.join(tmp, 'a.yaml'), path.join(dir, 'a.yaml'));
    const changed = await until(ctx.staticPods, (p) => (p as Pod[]).some((x) => x['spec']['containers'][0]['image'] === 'nginx:1.28')) as Pod[];
    assert.notEqual(changed[0]!['metadata']['uid'], a!['metadata']['uid'], 'a changed manifest is a new pod (its UID is a hash of it)');
    assert.equal(changed[1]!['metadata']['annotations']['platform/config.seen'], b!['metadata']['annotations']['platform/config.seen'], 'an unchanged pod keeps its first-seen time');

    rmSync(path.join(dir, 'b.json'));
    assert.deepEqual(names(await until(ctx.staticPods, (p) => p.length === 2)), ['a-node-1', 'c-node-1']);
  });

  it('reads a single file, keeps the last pod while the file is invalid, and has no pods for a missing path', async () => {
    const dir = tempDir('plat-nasrv-single-');
    const file = path.join(dir, 'only.yaml');
    writeFileSync(file, manifest('only'));
    const lines: string[] = [];
    const ctx = nodeAgentTestContext({ standalone: true, logger: createLogger({ write: (l) => lines.push(l) }), config: { staticPodPath: file, fileCheckFrequency: '50ms' } });
    stops.push(run(ctx));
    assert.deepEqual(names(await until(ctx.staticPods, (p) => p.length === 1)), ['only-node-1']);
    let sets = 0;
    const stop = ctx.staticPods.onChange(() => { sets++; });
    writeFileSync(path.join(dir, 'broken'), 'apiVersion: v1\nkind: Pod\nmetadata: {name: only}\nspec: {containers: []}\n');
    renameSync(path.join(dir, 'broken'), file);
    // Two checks report the invalid file; neither changes the set.
    const reported = () => lines.filter((l) => l.includes('Unable to read config path') && l.includes('spec.containers: Required value')).length;
    for (let i = 0; i < 400 && reported() < 2; i++) await new Promise((r) => setTimeout(r, 25));
    stop();
    assert.ok(reported() >= 2, lines.join('\n'));
    assert.equal(sets, 0);
    assert.deepEqual(names(ctx.staticPods.get()), ['only-node-1']);
    rmSync(file);
    assert.deepEqual(await until(ctx.staticPods, (p) => p.length === 0), []);

    const missing = nodeAgentTestContext({ standalone: true, config: { staticPodPath: path.join(dir, 'nope'), fileCheckFrequency: '50ms' } });
    stops.push(run(missing));
    assert.deepEqual(await until(missing.staticPods, () => true), []);
  });

  it('fetches a URL with its headers: a Pod, a PodList, failures keep the set, an empty body clears it', async () => {
    let body = manifest('remote');
    let status = 200;
    const seen: string[][] = [];
    const server = http.createServer((req, res) => {
      const tokens: string[] = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === 'x-token') tokens.push(req.rawHeaders[i + 1]!);
      seen.push(tokens);
      if (req.headers['authorization'] !== 'Bearer s3cret') { res.writeHead(403).end('no'); return; }
      res.writeHead(status, { 'content-type': 'application/yaml' }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pods`;
    const lines: string[] = [];
    const ctx = nodeAgentTestContext({
      standalone: true, logger: createLogger({ write: (l) => lines.push(l) }),
      config: { staticPodURL: url, httpCheckFrequency: '50ms', staticPodURLHeader: { Authorization: ['Bearer s3cret'], 'X-Token': ['one', 'two'] } },
    });
    const stop = run(ctx);
    try {
      const pods = await until(ctx.staticPods, (p) => p.length === 1) as Pod[];
      assert.deepEqual(seen[0], ['one', 'two'], 'a repeated header is sent as repeated lines, in order');
      assert.equal(pods[0]!['metadata']['name'], 'remote-node-1');
      assert.equal(pods[0]!['metadata']['annotations']['platform/config.source'], 'http');
      assert.equal(pods[0]!['spec']['tolerations'], undefined);

      body = JSON.stringify({ apiVersion: 'v1', kind: 'PodList', items: [
        { metadata: { name: 'one' }, spec: { containers: [{ name: 'one', image: 'x' }] } },
        { metadata: { name: 'two' }, spec: { containers: [{ name: 'two', image: 'x' }] } },
      ] });
      assert.deepEqual(names(await until(ctx.staticPods, (p) => p.length === 2)), ['one-node-1', 'two-node-1']);

      body = '{"apiVersion":"v1","kind":"PodList","items":[{"metadata":{"name":"bad"},"spec":{"containers":[{"name":"bad"}]}}]}';
      const logged = async (text: string) => {
        for (let i = 0; i < 400 && !lines.some((l) => l.includes(text)); i++) await new Promise((r) => setTimeout(r, 25));
        assert.ok(lines.some((l) => l.includes(text)), `no log line with ${text}:\n${lines.join('\n')}`);
      };
      await logged('err="invalid pod: [spec.containers[0].image: Required value]"');
      assert.equal(ctx.staticPods.get()!.length, 2, 'an invalid list keeps the last set');
      // The same bytes again are no news, which counts as a good read.
      await logged('Successfully read pods from URL');

      status = 500;
      const mark = lines.length;
      const failures = () => lines.slice(mark).filter((l) => l.includes('Failed to read pods from URL')).length;
      for (let i = 0; i < 400 && failures() < 4; i++) await new Promise((r) => setTimeout(r, 25));
      const requests = seen.length;
      for (let i = 0; i < 400 && seen.length < requests + 3; i++) await new Promise((r) => setTimeout(r, 25));
      assert.ok(seen.length >= requests + 3, 'the URL is still polled');
      assert.equal(failures(), 4, 'three failures logged, the fourth says it drops to V(4), later ones are quiet');
      assert.ok(lines.some((l) => l.includes(`err="${url}: 500 Internal Server Error"`)), lines.join('\n'));
      assert.ok(lines.some((l) => l.includes('Failed to read pods from URL. Dropping verbosity of this message to V(4)')));
      assert.deepEqual(names(ctx.staticPods.get()), ['one-node-1', 'two-node-1'], 'a failing URL keeps the last set');

      status = 200;
      body = '';
      assert.deepEqual(await until(ctx.staticPods, (p) => p.length === 0), []);
    } finally {
      await stop();
      server.close();
    }
  });

  it('publishes to /pods on the secure server', async () => {
    const dir = tempDir('plat-nasrv-pods-');
    writeFileSync(path.join(dir, 'web.yaml'), manifest('web'));
    const pair = selfSignedPair();
    const agent = await startServer({ config: await serverConfig({ staticPodPath: dir, fileCheckFrequency: '50ms' }), pair });
    stops.push(() => agent.stop());
    stops.push(run(agent.ctx));
    await until(agent.ctx.staticPods, (p) => p.length === 1);
    const r = await request(agent.port, '/pods', { ca: pair.cert });
    assert.equal(r.json.kind, 'PodList');
    assert.deepEqual(r.json.items.map((p: Pod) => [p['metadata']['name'], p['metadata']['annotations']['platform/config.source'], p['status']['phase']]), [['web-node-1', 'file', 'Pending']]);
  });

  it('refuses sources it cannot poll, naming the field', () => {
    const make = (config: Partial<NodeAgentConfiguration>) => () => createStaticPodsSubsystem(nodeAgentTestContext({ standalone: true, config }));
    assert.throws(make({ staticPodPath: '/etc/plat/manifests', fileCheckFrequency: '0s' }), { message: 'fileCheckFrequency: must be greater than 0 when its source is set (got "0s")' });
    assert.throws(make({ staticPodURL: 'ftp://example.com/pods' }), { message: 'staticPodURL: unsupported protocol scheme "ftp"' });
    assert.throws(make({ staticPodURL: 'not a url' }), { message: 'staticPodURL: "not a url" is not a URL' });
    assert.doesNotThrow(make({ fileCheckFrequency: '0s' }), 'no path, nothing to poll');
  });
});
