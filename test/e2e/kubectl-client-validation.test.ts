// kubectl's default validation (--validate=strict) of kinds /openapi/v3 gives no PATCH with
// fieldValidation: the create-only reviews and the read-only Pod view. kubectl v1.32 then asks
// /openapi/v2 (protobuf), finds no PATCH there either, lists CustomResourceDefinitions to learn the
// kind is none, and validates on the client against the v2 definitions, as against a real cluster.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Kubectl } from '../helpers/kubectl.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

describe('kubectl client-side validation with /openapi/v2', () => {
  let plat: RunningPlat;
  let k: Kubectl;
  const file = (name: string, text: string) => {
    const p = path.join(k.cacheDir, name);
    writeFileSync(p, text);
    return p;
  };
  before(async () => {
    plat = await startInProcess();
    k = new Kubectl(plat.kubeconfig);
  });
  after(async () => { await plat?.stop(); });

  it('create -f of a SubjectAccessReview with the default validation: v2, the CRD list, then the POST', async () => {
    const sar = file('sar.yaml', 'apiVersion: authorization.platform/v1\nkind: SubjectAccessReview\nspec:\n  user: alice\n  resourceAttributes:\n    verb: get\n    resource: leases\n');
    const r = await k.run(['create', '-f', sar, '-o', 'yaml', '-v=6']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^apiVersion: authorization\.platform\/v1\nkind: SubjectAccessReview\n/);
    assert.match(r.stdout, /\nstatus:\n {2}allowed: true\n/);
    const asked = [...r.stderr.matchAll(/\b(GET|POST) https:\/\/[^/\s]+(\/[^?\s]*)\S* (\d+) /g)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
    assert.ok(asked.includes('GET /openapi/v2 200'), asked.join('\n'));
    assert.ok(asked.includes('GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions 200'), asked.join('\n'));
    assert.ok(asked.includes('POST /apis/authorization.platform/v1/subjectaccessreviews 201'), asked.join('\n'));
  });

  it('create -f of a TokenReview and a SelfSubjectAccessReview', async () => {
    const tr = await k.run(['create', '-f', file('tr.yaml', 'apiVersion: authentication.platform/v1\nkind: TokenReview\nspec:\n  token: not-a-token\n'), '-o', 'yaml']);
    assert.equal(tr.code, 0, tr.stderr);
    assert.match(tr.stdout, /\nstatus:\n {2}authenticated: false\n/);
    const ssar = await k.run(['create', '-f', file('ssar.yaml', 'apiVersion: authorization.platform/v1\nkind: SelfSubjectAccessReview\nspec:\n  resourceAttributes:\n    verb: get\n    resource: leases\n'), '-o', 'jsonpath={.status.allowed}']);
    assert.equal(ssar.code, 0, ssar.stderr);
    assert.equal(ssar.stdout, 'true');
  });

  it('an unknown field is kubectl\'s client-side ValidationError, and nothing is sent', async () => {
    const bad = file('bad.yaml', 'apiVersion: authorization.platform/v1\nkind: SubjectAccessReview\nspec:\n  user: alice\n  foo: bar\n  resourceAttributes:\n    verb: get\n    resource: leases\n');
    const r = await k.run(['create', '-f', bad, '-v=6']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /GET \S+\/openapi\/v2\?timeout=32s 200 OK/);
    assert.doesNotMatch(r.stderr, /\bPOST /);
    assert.ok(r.stderr.endsWith(`error: error validating "${bad}": error validating data: ValidationError(SubjectAccessReview.spec): unknown field "foo" in platform.authorization.v1.SubjectAccessReview.spec; if you choose to ignore these errors, turn validation off with --validate=false\n`), r.stderr);
    const missing = await k.run(['create', '-f', file('missing.yaml', 'apiVersion: authentication.platform/v1\nkind: TokenReview\n')]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /error validating data: ValidationError\(TokenReview\): missing required field "spec" in platform\.authentication\.v1\.TokenReview;/);
  });

  it('apply -f of a Pod gets past validation to the server (plat\'s Pods are a read-only view)', async () => {
    const pod = file('pod.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p1\n  namespace: default\nspec:\n  containers:\n  - name: c\n    image: busybox\n');
    const r = await k.run(['apply', '-f', pod]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `Error from server (MethodNotAllowed): error when creating "${pod}": the server does not allow this method on the requested resource\n`);
  });

  it('CustomResourceDefinitions: listed (none), under both groups; nothing can be created', async () => {
    const none = await k.run(['get', 'crd']);
    assert.deepEqual([none.code, none.stdout, none.stderr], [0, '', 'No resources found\n']);
    const alias = await plat.admin.get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions');
    assert.equal(alias.status, 200);
    assert.deepEqual([alias.json.kind, alias.json.apiVersion, alias.json.items], ['CustomResourceDefinitionList', 'apiextensions.k8s.io/v1', []]);
    const create = await plat.admin.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'things.example.com' } });
    assert.equal(create.status, 405);
    const resources = await k.run(['api-resources', '--api-group=apiextensions.platform', '--no-headers']);
    assert.match(resources.stdout, /^customresourcedefinitions\s+crd,crds\s+apiextensions\.platform\/v1\s+false\s+CustomResourceDefinition\n$/);
  });
});
