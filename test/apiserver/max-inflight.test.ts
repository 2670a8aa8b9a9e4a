// --enable-priority-and-fairness=false installs upstream's WithMaxInFlightLimit, over real TLS:
// with two creates held in admission and --max-mutating-requests-inflight=2, a third mutating
// request of a user outside system:masters (here impersonated: the filter sees the user after
// impersonation) is answered the plain-text 429 with `Retry-After: 1`, counted in
// apiserver_dropped_requests_total and apiserver_request_terminations_total but not in
// apiserver_request_total; reads, watches and system:masters still go through; once released,
// writes succeed again. The refusal is audited (the filter sits inside audit and impersonation,
// before authorization). apiserver_current_inflight_requests is each period's peak. 0 disables a
// limit. With priority and fairness on (the default) there is no limiter, and giving a limit is
// refused, as are negative limits (ServerRunOptions.Validate's words).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import Koa from 'koa';
import type { UserInfo } from '../../core/authn/user.js';
import type { Plugin } from '../../core/plugin.js';
import { LIMITS_NEED_NO_FAIRNESS } from '../../core/server/max-in-flight-options.js';
import { InFlightRequests, withMaxInFlightLimit } from '../../core/server/max-in-flight.js';
import { requestInfo, type RequestInfo } from '../../core/server/request-info.js';
import { setInFlightPeriods } from '../../plugins/apiserver/in-flight-periods.js';
import { fixtures } from '../certificates/fixtures.js';
import { csrObject, csrPath, CSR_PATH } from '../admission/support.js';
import { eventsOf, startAudited } from '../audit/support.js';
import { bootRefusal } from '../helpers/boot-refusal.js';
import { startInProcess, tempDir, type Response, type RunningPlat } from '../helpers/plat.js';
import { WatchStream } from '../helpers/watch-stream.js';
import { holdingPlugin, type Holding } from './holding-admission.js';

const SIGNER = 'example.com/in-flight';
const METADATA_POLICY = 'apiVersion: audit.platform/v1\nkind: Policy\nrules:\n- level: Metadata\n';
const TOO_MANY = 'Too many requests, please try again later.\n';
const JANE = { 'impersonate-user': 'jane' };
const TERMINATED_POST = 'apiserver_request_terminations_total{code="429",component="apiserver",group="certificates.platform",resource="certificatesigningrequests",scope="resource",subresource="",verb="POST",version="v1"}';

const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};
const gauge = (text: string, kind: string) => sample(text, `apiserver_current_inflight_requests{request_kind="${kind}"}`);

/** The periods end when the test says so, not each second. */
function manualPeriods(): { plugin: Plugin; end: () => void } {
  let endPeriod: (() => void) | undefined;
  return {
    plugin: { name: 'manual-in-flight-periods', apply: (host) => setInFlightPeriods(host, (end) => { endPeriod = end; }) },
    end: () => { assert.ok(endPeriod, 'the watermark maintenance was started'); endPeriod(); },
  };
}

async function heldUntil(hold: Holding, n: number): Promise<void> {
  for (let i = 0; i < 500 && hold.waiting() < n; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(hold.waiting(), n, 'writes held in admission');
}

describe('--enable-priority-and-fairness=false --max-mutating-requests-inflight=2', () => {
  let plat: RunningPlat;
  const hold = holdingPlugin();
  const periods = manualPeriods();
  const fx = fixtures();
  const create = (name: string, headers: Record<string, string> = JANE) => plat.admin.post(CSR_PATH, csrObject(name, SIGNER, fx.ecCsrPem), headers);
  const scrape = async () => (await plat.admin.get('/metrics')).text;
  let auditLog = '';
  before(async () => {
    ({ plat, log: auditLog } = await startAudited(METADATA_POLICY, ['--enable-priority-and-fairness=false', '--max-mutating-requests-inflight=2'], [hold.plugin, periods.plugin]));
  });
  after(async () => { hold.release(); await plat?.stop(); });

  it('shows no in-flight gauge before the first period has ended, as upstream', async () => {
    assert.doesNotMatch(await scrape(), /^apiserver_current_inflight_requests\{/m);
  });

  it('refuses a third write 429 while two are in flight; reads, watches and system:masters go on', async () => {
    periods.end();
    const held = [create('hold-1'), create('hold-2')];
    await heldUntil(hold, 2);

    const refused = await create('third');
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.text, TOO_MANY);
    assert.equal(refused.headers['retry-after'], '1');
    assert.equal(refused.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(refused.headers['x-content-type-options'], 'nosniff');
    // Audit wraps the filter: the refusal is audited, as the impersonated user's, never authorized.
    const events = await eventsOf(auditLog, String(refused.headers['audit-id']));
    const complete = events.find((e) => e.stage === 'ResponseComplete');
    assert.equal(complete.responseStatus.code, 429);
    assert.equal(complete.impersonatedUser.username, 'jane');
    assert.equal(complete.annotations?.['authorization.k8s.io/decision'], undefined);
    // Any verb but get, list and watch is mutating.
    const deleted = await plat.admin.delete(csrPath('hold-1'));
    assert.equal(deleted.status, 404, 'system:masters is served past the limit');
    const janeDelete: Response = await plat.admin.request('DELETE', csrPath('hold-1'), undefined, JANE);
    assert.equal(janeDelete.status, 429, janeDelete.text);

    const read = await plat.admin.get(CSR_PATH, JANE);
    assert.equal(read.status, 200, 'reads have their own limit');
    const watch = await WatchStream.open(plat.admin, `${CSR_PATH}?watch=true&timeoutSeconds=30`, JANE);
    watch.close();
    const master = await create('free-1', {});
    assert.equal(master.status, 201, master.text);
    assert.equal((await plat.admin.get(csrPath('third'))).status, 404, 'the refused write was not made');

    periods.end();
    const text = await scrape();
    assert.equal(gauge(text, 'mutating'), 2, text);
    assert.ok((gauge(text, 'readOnly') ?? 0) >= 1, 'the read was counted');
    assert.equal(sample(text, 'apiserver_dropped_requests_total{request_kind="mutating"}'), 2);
    assert.equal(sample(text, TERMINATED_POST), 1, text);
    assert.doesNotMatch(text, /^apiserver_request_total\{[^}]*code="429"/m, 'a refused request never reaches a route');
    // Upstream's watermark notes a count as a request starts or ends: a period with neither reads 0.
    periods.end();
    assert.equal(gauge(await scrape(), 'mutating'), 0);

    hold.release();
    for (const r of await Promise.all(held)) assert.equal(r.status, 201, r.text);
    const again = await create('after-release');
    assert.equal(again.status, 201, again.text);
  });
});

// The filter alone, with a read held: what a test through the whole server cannot hold (admission
// holds writes only).
describe('the filter with --max-requests-inflight=1', () => {
  let server: http.Server;
  let base = '';
  let release: (() => void) | undefined;
  before(async () => {
    const app = new Koa<{ info: RequestInfo; user: UserInfo }>();
    app.use(async (ctx, next) => {
      ctx.state.info = requestInfo(ctx.method, ctx.path, new URLSearchParams(ctx.querystring));
      ctx.state.user = { name: 'u', uid: '', groups: (ctx.get('x-groups') || 'system:authenticated').split(','), extra: {} };
      await next();
    });
    app.use(withMaxInFlightLimit(new InFlightRequests({ readOnly: 1, mutating: 0 })));
    app.use(async (ctx) => {
      if (ctx.path.endsWith('/slow')) await new Promise<void>((resolve) => { release = resolve; });
      ctx.body = 'served';
    });
    server = http.createServer(app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => { release?.(); server.close(); });

  it('exempts watches and system:masters, and keeps writes apart', async () => {
    const slow = fetch(`${base}/api/v1/namespaces/default/secrets/slow`).then((r) => r.text());
    for (let i = 0; i < 500 && !release; i++) await new Promise((r) => setTimeout(r, 10));
    const read = await fetch(`${base}/api/v1/namespaces/default/secrets`);
    assert.equal(read.status, 429);
    assert.equal(await read.text(), TOO_MANY);
    const served = async (path: string, init: RequestInit = {}) => {
      const r = await fetch(`${base}${path}`, init);
      return `${r.status} ${await r.text()}`;
    };
    assert.equal(await served('/api/v1/namespaces/default/secrets?watch=true'), '200 served', 'a watch is long-running');
    assert.equal(await served('/api/v1/namespaces/default/secrets', { headers: { 'x-groups': 'system:authenticated,system:masters' } }), '200 served');
    assert.equal(await served('/api/v1/namespaces/default/secrets', { method: 'POST' }), '200 served', 'writes are unlimited here');
    release!();
    assert.equal(await slow, 'served');
    assert.equal(await served('/api/v1/namespaces/default/secrets'), '200 served', 'the slot is free again');
  });
});

describe('--max-mutating-requests-inflight=0', () => {
  let plat: RunningPlat;
  const hold = holdingPlugin();
  const periods = manualPeriods();
  const fx = fixtures();
  before(async () => {
    plat = await startInProcess({ args: ['--enable-priority-and-fairness=false', '--max-mutating-requests-inflight=0'], plugins: [hold.plugin, periods.plugin] });
  });
  after(async () => { hold.release(); await plat?.stop(); });

  it('disables that limit: writes are neither limited nor counted', async () => {
    const create = (name: string) => plat.admin.post(CSR_PATH, csrObject(name, SIGNER, fx.ecCsrPem), JANE);
    periods.end();
    const held = [create('hold-1'), create('hold-2'), create('hold-3')];
    await heldUntil(hold, 3);
    const fourth = await create('fourth');
    assert.equal(fourth.status, 201, fourth.text);
    periods.end();
    assert.equal(gauge((await plat.admin.get('/metrics')).text, 'mutating'), 0);
    hold.release();
    for (const r of await Promise.all(held)) assert.equal(r.status, 201, r.text);
  });
});

describe('priority and fairness on', () => {
  it('--enable-priority-and-fairness=true alone is the default: served, with no limiter and no gauge', async () => {
    const plat = await startInProcess({ args: ['--enable-priority-and-fairness=true'] });
    try {
      const text = (await plat.admin.get('/metrics')).text;
      assert.match(text, /^apiserver_request_total\{/m);
      assert.doesNotMatch(text, /^apiserver_current_inflight_requests\{/m);
    } finally {
      await plat.stop();
    }
  });
});

describe('the in-flight flags refused at start-up', () => {
  const refusal = async (role: string, args: string[]) => {
    const r = await bootRefusal(role, ['--secure-port', '0', '--data-dir', tempDir('plat-inflight-flags-'), ...args]);
    assert.equal(r.code, 2, r.stderr);
    return r.stderr.trimEnd().split('\n').at(-1)!.slice(`plat ${role}: `.length);
  };
  const cases: Array<[string, string[], string]> = [
    ['a limit with priority and fairness on by default', ['--max-requests-inflight=100'], LIMITS_NEED_NO_FAIRNESS],
    ['a limit with priority and fairness on explicitly', ['--enable-priority-and-fairness=true', '--max-mutating-requests-inflight=200'], LIMITS_NEED_NO_FAIRNESS],
    ['a negative --max-requests-inflight', ['--enable-priority-and-fairness=false', '--max-requests-inflight=-1'], '--max-requests-inflight can not be negative value'],
    ['a negative --max-mutating-requests-inflight', ['--enable-priority-and-fairness=false', '--max-mutating-requests-inflight=-1'], '--max-mutating-requests-inflight can not be negative value'],
    ['both negative, in upstream\'s order, before --request-timeout', ['--enable-priority-and-fairness=false', '--request-timeout=-1s', '--max-mutating-requests-inflight=-2', '--max-requests-inflight=-1'],
      '[--max-requests-inflight can not be negative value, --max-mutating-requests-inflight can not be negative value, --request-timeout can not be negative value]'],
  ];
  for (const [what, args, message] of cases) {
    it(`refuses ${what}`, async () => {
      assert.equal(await refusal('apiserver', args), message);
    });
  }

  it('from a config file: exit 1, the file and field named', async () => {
    const dir = tempDir('plat-inflight-file-');
    const file = path.join(dir, 'plat.config.json');
    writeFileSync(file, JSON.stringify({ flags: { 'max-mutating-requests-inflight': 10 } }));
    const r = await bootRefusal('apiserver', ['--data-dir', dir, '--secure-port=0'], { cwd: dir, configFile: file });
    assert.equal(r.code, 1, r.stderr);
    const last = r.stderr.trimEnd().split('\n').at(-1)!;
    assert.ok(last.startsWith('plat apiserver: ') && last.endsWith(`: ${LIMITS_NEED_NO_FAIRNESS}`), last);
    assert.match(last, /plat\.config\.json.*max-mutating-requests-inflight/);
  });

  it('names both flags and the way out, under plat all too', async () => {
    assert.match(LIMITS_NEED_NO_FAIRNESS, /--max-requests-inflight and --max-mutating-requests-inflight .*--enable-priority-and-fairness=false/);
    assert.equal(await refusal('all', ['--max-mutating-requests-inflight=1']), LIMITS_NEED_NO_FAIRNESS);
  });
});
