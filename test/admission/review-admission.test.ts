// The review kinds (answered, not stored) go through admission as every create does upstream:
// mutating admission, then the review's own checks, then validating admission (create.go and the
// review RESTs' createValidation), with operation CREATE and the name "Unknown" of a nameless
// object. NamespaceLifecycle lets a LocalSubjectAccessReview into a namespace that does not exist.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Plugin } from '../../core/plugin.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { startAdmissionPlat, type AdmissionPlat } from './support.js';

const DENY = 'admission control is denying all modifications';
const AUTHN = 'authentication.platform';
const AUTHZ = 'authorization.platform';
const spec = { user: 'alice', resourceAttributes: { verb: 'get', resource: 'secrets', namespace: 'default' } };

interface Review { readonly path: string; readonly group: string; readonly plural: string; readonly body: object }

const reviews: Review[] = [
  { path: `/apis/${AUTHN}/v1/tokenreviews`, group: AUTHN, plural: 'tokenreviews', body: { apiVersion: `${AUTHN}/v1`, kind: 'TokenReview', spec: { token: 'x' } } },
  { path: `/apis/${AUTHN}/v1/selfsubjectreviews`, group: AUTHN, plural: 'selfsubjectreviews', body: { apiVersion: `${AUTHN}/v1`, kind: 'SelfSubjectReview' } },
  { path: `/apis/${AUTHZ}/v1/subjectaccessreviews`, group: AUTHZ, plural: 'subjectaccessreviews', body: { apiVersion: `${AUTHZ}/v1`, kind: 'SubjectAccessReview', spec } },
  {
    path: `/apis/${AUTHZ}/v1/selfsubjectaccessreviews`, group: AUTHZ, plural: 'selfsubjectaccessreviews',
    body: { apiVersion: `${AUTHZ}/v1`, kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: spec.resourceAttributes } },
  },
  {
    path: `/apis/${AUTHZ}/v1/namespaces/default/localsubjectaccessreviews`, group: AUTHZ, plural: 'localsubjectaccessreviews',
    body: { apiVersion: `${AUTHZ}/v1`, kind: 'LocalSubjectAccessReview', spec },
  },
];

describe('AlwaysDeny refuses every review kind', () => {
  let a: AdmissionPlat;
  before(async () => { a = await startAdmissionPlat({ args: ['--enable-admission-plugins=AlwaysDeny'], seed: async () => {} }); });
  after(async () => { await a?.stop(); });

  for (const r of reviews) {
    for (const [how, query] of [['', ''], [' in a dry run', '?dryRun=All']] as const) {
      it(`${r.plural}${how}`, async () => {
        const res = await a.plat.admin.post(`${r.path}${query}`, r.body);
        assert.equal(res.status, 403, res.text);
        assert.equal(res.json.message, `${r.plural}.${r.group} "Unknown" is forbidden: ${DENY}`);
        assert.deepEqual(res.json.details, { name: 'Unknown', group: r.group, kind: r.plural });
      });
    }
  }

  it('refuses before the review\'s own checks (AlwaysDeny is mutating too)', async () => {
    const res = await a.plat.admin.post(`/apis/${AUTHZ}/v1/subjectaccessreviews`, { apiVersion: `${AUTHZ}/v1`, kind: 'SubjectAccessReview', spec: {} });
    assert.equal(res.status, 403, res.text);
  });
});

/** Records what each phase saw of a review, and refuses in the validating phase when asked to. */
function recorder(seen: string[], refuse: { on: boolean }): Plugin {
  const name = 'ReviewRecorder';
  const reviewOnly = (resource: string): boolean => resource.endsWith('reviews');
  return {
    name,
    apply(host) {
      host.hooks.admitMutate.tapPromise(name, async (req) => {
        if (reviewOnly(req.resource)) seen.push(`mutate ${req.operation} ${req.resource} dryRun=${req.dryRun}`);
      });
      host.hooks.admitValidate.tapPromise(name, async (req) => {
        if (!reviewOnly(req.resource)) return;
        seen.push(`validate ${req.operation} ${req.resource} dryRun=${req.dryRun}`);
        if (refuse.on) throw new Error('refused by the recorder');
      });
    },
  };
}

describe('a review runs mutating admission, its own checks, then validating admission', () => {
  let plat: RunningPlat;
  const seen: string[] = [];
  const refuse = { on: false };
  before(async () => { plat = await startInProcess({ plugins: [recorder(seen, refuse)] }); });
  after(async () => { await plat?.stop(); });

  for (const r of reviews) {
    it(`${r.plural} is admitted in both phases as a CREATE, dry run told`, async () => {
      seen.length = 0;
      const res = await plat.admin.post(`${r.path}?dryRun=All`, r.body);
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(seen, [`mutate CREATE ${r.plural} dryRun=true`, `validate CREATE ${r.plural} dryRun=true`]);
    });
  }

  const invalid: [string, string, object, number][] = [
    ['an invalid SubjectAccessReview', `/apis/${AUTHZ}/v1/subjectaccessreviews`, { apiVersion: `${AUTHZ}/v1`, kind: 'SubjectAccessReview', spec: {} }, 422],
    ['a TokenReview without a token', `/apis/${AUTHN}/v1/tokenreviews`, { apiVersion: `${AUTHN}/v1`, kind: 'TokenReview', spec: {} }, 400],
  ];
  for (const [what, path, body, code] of invalid) {
    it(`${what} fails its own checks after mutating admission, before validating admission`, async () => {
      seen.length = 0;
      const res = await plat.admin.post(path, body);
      assert.equal(res.status, code, res.text);
      assert.equal(seen.length, 1, seen.join('\n'));
      assert.match(seen[0]!, /^mutate CREATE/);
    });
  }

  it('a validating plugin\'s refusal is a 403 naming the review', async () => {
    refuse.on = true;
    try {
      const res = await plat.admin.post(`/apis/${AUTHZ}/v1/subjectaccessreviews`, reviews[2]!.body);
      assert.equal(res.status, 403, res.text);
      assert.equal(res.json.message, `subjectaccessreviews.${AUTHZ} "Unknown" is forbidden: refused by the recorder`);
    } finally { refuse.on = false; }
  });

  it('system fields and a namespace in a cluster-scoped review\'s metadata are dropped before its checks, as the create handler does', async () => {
    const body = { ...reviews[2]!.body, metadata: { namespace: 'elsewhere', uid: 'u-1', creationTimestamp: '2024-01-01T00:00:00Z', selfLink: '/x' } };
    const res = await plat.admin.post(`/apis/${AUTHZ}/v1/subjectaccessreviews`, body);
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.json.metadata, { creationTimestamp: null });
  });

  it('a LocalSubjectAccessReview of another namespace than its path is refused before admission', async () => {
    seen.length = 0;
    const body = { ...reviews[4]!.body, metadata: { namespace: 'elsewhere' } };
    const res = await plat.admin.post(reviews[4]!.path, body);
    assert.equal(res.status, 400, res.text);
    assert.equal(res.json.message, 'the namespace of the provided object does not match the namespace sent on the request');
    assert.deepEqual(seen, []);
  });
});

// localsubjectaccessreview/rest.go compares the path's namespace with the object's after mutating
// admission, so a mutation cannot move the question to a namespace the caller did not name.
describe('a LocalSubjectAccessReview moved to another namespace by mutating admission', () => {
  let plat: RunningPlat;
  const mover: Plugin = {
    name: 'NamespaceMover',
    apply(host) {
      host.hooks.admitMutate.tapPromise('NamespaceMover', async (req) => {
        if (req.resource !== 'localsubjectaccessreviews') return;
        const o = req.object as { metadata: { namespace?: string }; spec: { resourceAttributes: { namespace?: string } } };
        o.metadata.namespace = 'plat-system';
        o.spec.resourceAttributes.namespace = 'plat-system';
      });
    },
  };
  before(async () => { plat = await startInProcess({ plugins: [mover] }); });
  after(async () => { await plat?.stop(); });
  it('is refused with a 400 naming the path\'s namespace', async () => {
    const res = await plat.admin.post(reviews[4]!.path, reviews[4]!.body);
    assert.equal(res.status, 400, res.text);
    assert.equal(res.json.message, 'spec.resourceAttributes.namespace must match namespace: default');
  });
});

describe('NamespaceLifecycle and access reviews', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({}); });
  after(async () => { await plat?.stop(); });

  it('lets a LocalSubjectAccessReview into a namespace that does not exist (its 404 would tell which exist)', async () => {
    const res = await plat.admin.post(`/apis/${AUTHZ}/v1/namespaces/missing/localsubjectaccessreviews`,
      { apiVersion: `${AUTHZ}/v1`, kind: 'LocalSubjectAccessReview', spec: { ...spec, resourceAttributes: { ...spec.resourceAttributes, namespace: 'missing' } } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.json.metadata.namespace, 'missing');
  });

  it('still refuses an object stored in that namespace', async () => {
    const res = await plat.admin.post('/api/v1/namespaces/missing/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } });
    assert.equal(res.status, 404, res.text);
  });
});
