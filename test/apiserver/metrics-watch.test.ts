// The API server's long-running and watch families over real HTTPS, as 1.32's kube-apiserver
// serves them: apiserver_longrunning_requests while a watch is open (CleanScope's scope, the verb
// of the method and ?watch only, so a deprecated /watch/ path is LIST), back to 0 once it ends;
// apiserver_watch_events_total and _sizes by group, version and kind for each event written (the
// object's bytes as Go's JSON encoder writes it, newline included); apiserver_response_sizes of a
// `?watch=true` watch, its streamed bytes (none for a /watch/ path, not a GET or LIST route).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startInProcess, tempDir, type Client, type RunningPlat } from '../helpers/plat.js';
import { WatchStream } from '../helpers/watch-stream.js';

const GV = '/apis/rbac.authorization.platform/v1';
const LABELS = 'group="rbac.authorization.platform",resource="clusterroles"';
const SUITE = `labelSelector=${encodeURIComponent('suite=watch-metrics')}`;

describe('plat apiserver watch metrics', () => {
  let plat: RunningPlat;
  let scraper: Client;
  const streams: WatchStream[] = [];

  before(async () => {
    const file = path.join(tempDir(), 'tokens.csv');
    writeFileSync(file, 'scraper-token,scraper,1,"system:monitoring"\n');
    // No embedded controllers: the aggregation controller's own watch and applies of clusterroles would count too.
    plat = await startInProcess({ args: ['--token-auth-file', file, '--authorization-mode=RBAC', '--controllers='] });
    scraper = plat.admin.with({ token: 'scraper-token' });
  });
  after(async () => { for (const w of streams) w.close(); await plat?.stop(); });

  const scrape = async () => {
    const r = await scraper.get('/metrics');
    assert.equal(r.status, 200);
    return r.text;
  };
  const sample = (text: string, series: string): number | undefined => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? undefined : Number(line.slice(series.length + 1));
  };
  const watch = async (p: string) => {
    const w = await WatchStream.open(plat.admin, p);
    assert.equal(w.status, 200);
    streams.push(w);
    return w;
  };
  const gauge = (scope: string, verb: string) =>
    `apiserver_longrunning_requests{component="apiserver",${LABELS},scope="${scope}",subresource="",verb="${verb}",version="v1"}`;

  it('counts each open watch in apiserver_longrunning_requests, by the labels upstream gives it, until it ends', async () => {
    const cases = [
      { path: `${GV}/clusterroles?watch=true&${SUITE}`, scope: 'cluster', verb: 'WATCH' },
      { path: `${GV}/clusterroles?watch=1&fieldSelector=${encodeURIComponent('metadata.name=wm-a')}`, scope: 'resource', verb: 'WATCH' },
      // The deprecated path: RecordLongRunning reads the verb from the method and ?watch alone.
      { path: `${GV}/watch/clusterroles?${SUITE}`, scope: 'cluster', verb: 'LIST' },
    ];
    const open = [];
    for (const c of cases) open.push(await watch(c.path));
    const during = await scrape();
    const lines = new Set(during.split('\n'));
    assert.ok(lines.has('# HELP apiserver_longrunning_requests [STABLE] Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.'), during);
    assert.ok(lines.has('# TYPE apiserver_longrunning_requests gauge'));
    for (const c of cases) assert.equal(sample(during, gauge(c.scope, c.verb)), 1, `${c.path}\n${during.split('\n').filter((l) => l.startsWith('apiserver_longrunning')).join('\n')}`);
    for (const w of open) w.close();
    for (let i = 0; ; i++) {
      const text = await scrape();
      if (cases.every((c) => sample(text, gauge(c.scope, c.verb)) === 0)) break;
      assert.ok(i < 200, `the gauges went back to 0:\n${text.split('\n').filter((l) => l.startsWith('apiserver_longrunning')).join('\n')}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  });

  it('counts and sizes the events a watch sends, and its streamed bytes as the WATCH response size', async () => {
    const w = await watch(`${GV}/clusterroles?watch=true&${SUITE}&allowWatchBookmarks=false`);
    const role = { apiVersion: 'rbac.authorization.platform/v1', kind: 'ClusterRole', metadata: { name: 'wm-b', labels: { suite: 'watch-metrics' } }, rules: [] };
    assert.equal((await plat.admin.post(`${GV}/clusterroles`, role)).status, 201);
    const patched = await plat.admin.patch(`${GV}/clusterroles/wm-b`, { metadata: { annotations: { big: 'x'.repeat(3000) } } }, 'application/merge-patch+json');
    assert.equal(patched.status, 200, patched.text);
    await w.waitForCount(2);
    w.close();
    await w.waitEnd();
    // A watch is recorded when its handler returns: this one and the two `?watch` ones before
    // (the /watch/ path's route is no GET or LIST: no size).
    const series = `apiserver_response_sizes_count{component="apiserver",${LABELS},scope="cluster",subresource="",verb="WATCH",version="v1"}`;
    let text = '';
    for (let i = 0; ; i++) {
      text = await scrape();
      if (sample(text, series) === 3) break;
      assert.ok(i < 200, 'the watch was recorded');
      await new Promise((r) => setTimeout(r, 25));
    }
    const lines = new Set(text.split('\n'));
    const expect = (line: string) => assert.ok(lines.has(line), `missing: ${line}\n${text.split('\n').filter((l) => l.startsWith(line.split(/[{ ]/)[0]!.replace(/_(bucket|sum|count)$/, ''))).join('\n')}`);
    expect('# HELP apiserver_watch_events_total [ALPHA] Number of events sent in watch clients');
    expect('# TYPE apiserver_watch_events_total counter');
    expect('apiserver_watch_events_total{group="rbac.authorization.platform",kind="ClusterRole",version="v1"} 2');
    expect('# HELP apiserver_watch_events_sizes [ALPHA] Watch event size distribution in bytes');
    expect('# TYPE apiserver_watch_events_sizes histogram');
    // Each event's object as sent, plus the newline Go's encoder ends it with.
    const sizes = w.text.split('\n').filter((l) => l !== '').map((l) => {
      const prefix = `{"type":${JSON.stringify((JSON.parse(l) as { type: string }).type)},"object":`;
      assert.ok(l.startsWith(prefix) && l.endsWith('}'), l);
      return Buffer.byteLength(l) - prefix.length - 1 + 1;
    });
    assert.equal(sizes.length, 2);
    assert.ok(sizes[0]! < 1024 && sizes[1]! > 2048 && sizes[1]! <= 4096, `sizes ${sizes.join(', ')}`);
    const k = 'group="rbac.authorization.platform",kind="ClusterRole",version="v1"';
    const les = text.split('\n').filter((l) => l.startsWith(`apiserver_watch_events_sizes_bucket{${k}`)).map((l) => /le="([^"]+)"/.exec(l)![1]);
    assert.deepEqual(les, ['1024', '2048', '4096', '8192', '16384', '32768', '65536', '131072', '+Inf']);
    expect(`apiserver_watch_events_sizes_bucket{${k},le="1024"} 1`);
    expect(`apiserver_watch_events_sizes_bucket{${k},le="2048"} 1`);
    expect(`apiserver_watch_events_sizes_bucket{${k},le="4096"} 2`);
    expect(`apiserver_watch_events_sizes_sum{${k}} ${sizes[0]! + sizes[1]!}`);
    expect(`apiserver_watch_events_sizes_count{${k}} 2`);
    // apiserver_response_sizes: the bytes streamed (the earlier watches sent nothing).
    const watchSizes = `{component="apiserver",${LABELS},scope="cluster",subresource="",verb="WATCH",version="v1"}`;
    expect(`apiserver_response_sizes_count${watchSizes} 3`);
    expect(`apiserver_response_sizes_sum${watchSizes} ${Buffer.byteLength(w.text)}`);
  });
});
