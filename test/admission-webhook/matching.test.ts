// Which requests reach a webhook: rules (operations, groups, versions, resources and subresources,
// scope), namespaceSelector, objectSelector and CEL matchConditions, end to end with a recording
// webhook server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { allow, CSRS, webhook, WebhookServer, withConfiguration } from './support.js';

const V = 'ValidatingWebhookConfiguration';
const JSON_PATCH = 'application/json-patch+json';
const approve = [{ op: 'add', path: '/status', value: { conditions: [{ type: 'Approved', status: 'True', reason: 'Manual' }] } }];

describe('which requests a webhook sees', () => {
  let plat: RunningPlat;
  const server = new WebhookServer();
  const fx = fixtures();
  let seq = 0;
  const csr = (prefix: string, labels?: Record<string, string>) => {
    const obj = baseCsr(fx, `${prefix}-${++seq}`);
    if (labels) obj.metadata.labels = labels;
    return obj;
  };
  /** What the webhook at `path` was asked since `from`, as `OPERATION:resource/subresource`. */
  const seen = (path: string, from: number) => server.reviewsFor(path).slice(from)
    .map((r) => `${r.request.operation}:${r.request.resource.resource}/${r.request.subResource ?? ''}`);

  before(async () => {
    await server.start();
    server.on('/rec', (review) => allow(review));
    plat = await startInProcess();
    for (const [name, env] of [['prod', 'prod'], ['dev', 'dev']]) {
      const r = await plat.admin.post('/api/v1/namespaces', { metadata: { name, labels: { env } } });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => { await plat?.stop(); await server.stop(); });

  describe('rules', () => {
    const all = ['CREATE', 'UPDATE', 'DELETE'];
    const csrs = (resources: string[], operations = all, extra: Record<string, unknown> = {}) =>
      ({ operations, apiGroups: ['certificates.platform'], apiVersions: ['v1'], resources, ...extra });
    const any = (resources: string[], extra: Record<string, unknown> = {}) =>
      ({ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources, ...extra });
    const cases: { name: string; rules: unknown[]; expect: string[] }[] = [
      { name: 'CREATE of the main resource only', rules: [csrs(['certificatesigningrequests'], ['CREATE'])], expect: ['CREATE:certificatesigningrequests/'] },
      { name: 'UPDATE of the main resource (not of /approval)', rules: [csrs(['certificatesigningrequests'], ['UPDATE'])], expect: ['UPDATE:certificatesigningrequests/'] },
      { name: 'the approval subresource only', rules: [csrs(['certificatesigningrequests/approval'])], expect: ['UPDATE:certificatesigningrequests/approval'] },
      {
        name: "'certificatesigningrequests/*' is the resource and all its subresources", rules: [csrs(['certificatesigningrequests/*'])],
        expect: ['CREATE:certificatesigningrequests/', 'UPDATE:certificatesigningrequests/approval', 'UPDATE:certificatesigningrequests/', 'DELETE:certificatesigningrequests/'],
      },
      {
        name: "'*' is every resource but no subresource", rules: [any(['*'])],
        expect: ['CREATE:certificatesigningrequests/', 'UPDATE:certificatesigningrequests/', 'CREATE:secrets/', 'DELETE:certificatesigningrequests/'],
      },
      {
        name: "'*/*' is everything", rules: [any(['*/*'])],
        expect: ['CREATE:certificatesigningrequests/', 'UPDATE:certificatesigningrequests/approval', 'UPDATE:certificatesigningrequests/', 'CREATE:secrets/', 'DELETE:certificatesigningrequests/'],
      },
      { name: "'*/approval' is that subresource of any resource", rules: [any(['*/approval'])], expect: ['UPDATE:certificatesigningrequests/approval'] },
      { name: 'scope Namespaced', rules: [any(['*'], { scope: 'Namespaced' })], expect: ['CREATE:secrets/'] },
      {
        name: 'scope Cluster', rules: [any(['*'], { scope: 'Cluster' })],
        expect: ['CREATE:certificatesigningrequests/', 'UPDATE:certificatesigningrequests/', 'DELETE:certificatesigningrequests/'],
      },
      { name: 'the core group by its empty name', rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }], expect: ['CREATE:secrets/'] },
      { name: 'another version matches nothing', rules: [csrs(['*'], all, { apiVersions: ['v1beta1'] })], expect: [] },
      { name: 'any of several rules', rules: [csrs(['certificatesigningrequests'], ['DELETE']), any(['secrets'])], expect: ['CREATE:secrets/', 'DELETE:certificatesigningrequests/'] },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const from = server.reviewsFor('/rec').length;
        await withConfiguration(plat.admin, V, 'rules', [webhook(server, 'rules.example.com', '/rec', { rules: c.rules })], async () => {
          const obj = csr('rules');
          const name = obj.metadata.name;
          assert.equal((await plat.admin.post(CSRS, obj)).status, 201);
          assert.equal((await plat.admin.patch(`${CSRS}/${name}/approval`, approve, JSON_PATCH)).status, 200);
          assert.equal((await plat.admin.patch(`${CSRS}/${name}`, [{ op: 'add', path: '/metadata/labels', value: { x: 'y' } }], JSON_PATCH)).status, 200);
          assert.equal((await plat.admin.post('/api/v1/namespaces/prod/secrets', { metadata: { name: `s-${seq}` }, stringData: { a: 'b' } })).status, 201);
          assert.equal((await plat.admin.delete(`${CSRS}/${name}`)).status, 200);
        });
        assert.deepEqual(seen('/rec', from), c.expect);
      });
    }
  });

  describe('namespaceSelector', () => {
    const prodOnly = { matchLabels: { env: 'prod' } };
    it('selects namespaced objects by their namespace labels', async () => {
      const from = server.reviewsFor('/rec').length;
      const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }];
      await withConfiguration(plat.admin, V, 'ns', [webhook(server, 'ns.example.com', '/rec', { rules, namespaceSelector: prodOnly })], async () => {
        for (const ns of ['prod', 'dev']) {
          assert.equal((await plat.admin.post(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name: `sel-${ns}` } })).status, 201);
        }
      });
      assert.deepEqual(server.reviewsFor('/rec').slice(from).map((r) => r.request.namespace), ['prod']);
    });

    it('matchExpressions work too (NotIn)', async () => {
      const from = server.reviewsFor('/rec').length;
      const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }];
      const notProd = { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] };
      await withConfiguration(plat.admin, V, 'ns', [webhook(server, 'ns.example.com', '/rec', { rules, namespaceSelector: notProd })], async () => {
        for (const ns of ['prod', 'dev']) {
          assert.equal((await plat.admin.post(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name: `expr-${ns}` } })).status, 201);
        }
      });
      assert.deepEqual(server.reviewsFor('/rec').slice(from).map((r) => r.request.namespace), ['dev']);
    });

    it('a Namespace is selected by its own labels; other cluster-scoped objects are never exempted', async () => {
      const from = server.reviewsFor('/rec').length;
      const rules = [
        { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'] },
        { operations: ['CREATE'], apiGroups: ['certificates.platform'], apiVersions: ['v1'], resources: ['certificatesigningrequests'] },
      ];
      await withConfiguration(plat.admin, V, 'ns', [webhook(server, 'ns.example.com', '/rec', { rules, namespaceSelector: prodOnly })], async () => {
        assert.equal((await plat.admin.post('/api/v1/namespaces', { metadata: { name: 'prod-two', labels: { env: 'prod' } } })).status, 201);
        assert.equal((await plat.admin.post('/api/v1/namespaces', { metadata: { name: 'dev-two', labels: { env: 'dev' } } })).status, 201);
        assert.equal((await plat.admin.post(CSRS, csr('cluster-scoped'))).status, 201);
      });
      assert.deepEqual(seen('/rec', from), ['CREATE:namespaces/', 'CREATE:certificatesigningrequests/']);
      assert.equal(server.reviewsFor('/rec').at(-2).request.object.metadata.name, 'prod-two');
    });
  });

  describe('objectSelector', () => {
    it('selects by the labels of the new or the old object', async () => {
      const from = server.reviewsFor('/rec').length;
      const rules = [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['certificates.platform'], apiVersions: ['v1'], resources: ['certificatesigningrequests'] }];
      let dropped = '';
      await withConfiguration(plat.admin, V, 'obj', [webhook(server, 'obj.example.com', '/rec', { rules, objectSelector: { matchLabels: { team: 'a' } } })], async () => {
        for (const labels of [{ team: 'a' }, { team: 'b' }, undefined]) assert.equal((await plat.admin.post(CSRS, csr('obj', labels))).status, 201);
        const withA = csr('obj', { team: 'a' });
        dropped = withA.metadata.name;
        assert.equal((await plat.admin.post(CSRS, withA)).status, 201);
        // The update removes the label: the old object still matches.
        assert.equal((await plat.admin.patch(`${CSRS}/${dropped}`, [{ op: 'remove', path: '/metadata/labels' }], JSON_PATCH)).status, 200);
      });
      const got = server.reviewsFor('/rec').slice(from).map((r) => `${r.request.operation}:${r.request.object.metadata.labels?.team ?? '-'}`);
      assert.deepEqual(got, ['CREATE:a', 'CREATE:a', 'UPDATE:-']);
    });
  });

  describe('matchConditions', () => {
    const rules = [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['certificates.platform'], apiVersions: ['v1'], resources: ['certificatesigningrequests'] }];
    const conditioned = (matchConditions: unknown[], extra: Record<string, unknown> = {}) =>
      [webhook(server, 'cel.example.com', '/rec', { rules, matchConditions, ...extra })];

    it('a false condition skips the webhook, all true call it', async () => {
      const from = server.reviewsFor('/rec').length;
      const conditions = [
        { name: 'not-skipped', expression: "!object.metadata.name.startsWith('skip-')" },
        { name: 'admin-create', expression: "request.userInfo.username == 'plat-admin' && request.operation == 'CREATE' && oldObject == null" },
        { name: 'int-arithmetic', expression: 'object.spec.expirationSeconds * 2 == 1200' },
      ];
      await withConfiguration(plat.admin, V, 'cel', conditioned(conditions), async () => {
        for (const prefix of ['skip', 'keep']) {
          const obj = csr(prefix);
          obj.spec.expirationSeconds = 600;
          assert.equal((await plat.admin.post(CSRS, obj)).status, 201);
        }
      });
      assert.deepEqual(server.reviewsFor('/rec').slice(from).map((r) => r.request.name.split('-')[0]), ['keep']);
    });

    it('an evaluation error refuses with 403 under Fail and skips under Ignore; a false condition wins over errors', async () => {
      const failing = { name: 'needs-label', expression: "object.metadata.labels['owner'] == 'me'" };
      await withConfiguration(plat.admin, V, 'cel', conditioned([failing]), async () => {
        const obj = csr('cel-error');
        const r = await plat.admin.post(CSRS, obj);
        assert.equal(r.status, 403, r.text);
        assert.equal(r.json.reason, 'Forbidden');
        assert.match(r.json.message, new RegExp(`^certificatesigningrequests\\.certificates\\.platform "${obj.metadata.name}" is forbidden: expression 'object\\.metadata\\.labels\\['owner'\\] == 'me'' resulted in error: `));
      });
      const from = server.reviewsFor('/rec').length;
      await withConfiguration(plat.admin, V, 'cel', conditioned([failing], { failurePolicy: 'Ignore' }), async () => {
        assert.equal((await plat.admin.post(CSRS, csr('cel-ignored'))).status, 201);
      });
      await withConfiguration(plat.admin, V, 'cel', conditioned([failing, { name: 'never', expression: 'false' }]), async () => {
        assert.equal((await plat.admin.post(CSRS, csr('cel-false-wins'))).status, 201);
      });
      assert.equal(server.reviewsFor('/rec').length, from);
    });

    it('the authorizer is available: authorizer.requestResource and explicit checks', async () => {
      const from = server.reviewsFor('/rec').length;
      const conditions = [
        { name: 'may-create', expression: "authorizer.requestResource.check('create').allowed()" },
        { name: 'may-approve', expression: "authorizer.group('certificates.platform').resource('signers').name('example.com/my-signer').check('approve').allowed()" },
        { name: 'no-error', expression: "!authorizer.path('/healthz').check('get').errored()" },
      ];
      await withConfiguration(plat.admin, V, 'cel', conditioned(conditions), async () => {
        assert.equal((await plat.admin.post(CSRS, csr('authz'))).status, 201);
      });
      assert.equal(server.reviewsFor('/rec').length, from + 1);
    });
  });
});
