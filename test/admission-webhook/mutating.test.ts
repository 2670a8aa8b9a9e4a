// MutatingAdmissionWebhook end to end: JSON patches from real webhook servers change what is
// stored; order, reinvocation, and what happens to patches that cannot be applied.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { allow, answer, CSRS, deny, jsonPatch, webhook, WebhookServer, withConfiguration } from './support.js';

const M = 'MutatingWebhookConfiguration';
const V = 'ValidatingWebhookConfiguration';
const addLabel = (review: any, key: string, value: string) => {
  const labels = review.request.object.metadata.labels;
  return jsonPatch(review, labels
    ? [{ op: 'add', path: `/metadata/labels/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, value }]
    : [{ op: 'add', path: '/metadata/labels', value: { [key]: value } }]);
};

describe('MutatingAdmissionWebhook', () => {
  let plat: RunningPlat;
  const server = new WebhookServer();
  const fx = fixtures();
  const csr = (name: string) => baseCsr(fx, name);
  before(async () => { await server.start(); plat = await startInProcess(); });
  after(async () => { await plat?.stop(); await server.stop(); });

  it('a JSON patch adds a label: the answer and the stored object carry it', async () => {
    server.on('/label', (review) => addLabel(review, 'example.com/team', 'blue'));
    await withConfiguration(plat.admin, M, 'label', [webhook(server, 'label.example.com', '/label')], async () => {
      const r = await plat.admin.post(CSRS, csr('labelled'));
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.json.metadata.labels, { 'example.com/team': 'blue' });
      const stored = await plat.admin.get(`${CSRS}/labelled`);
      assert.deepEqual(stored.json.metadata.labels, { 'example.com/team': 'blue' });
    });
    // Mutating admission runs before the strategy: the server-set spec.username is not there yet.
    const seen = server.reviewsFor('/label').at(-1).request.object;
    assert.equal(seen.spec.username, undefined);
    assert.equal(seen.apiVersion, 'certificates.platform/v1');
  });

  it('the patched object is validated like any other: a patch that breaks the CSR is a 422', async () => {
    server.on('/break', (review) => jsonPatch(review, [{ op: 'replace', path: '/spec/usages', value: [] }]));
    await withConfiguration(plat.admin, M, 'break', [webhook(server, 'break.example.com', '/break')], async () => {
      const r = await plat.admin.post(CSRS, csr('broken-by-patch'));
      assert.equal(r.status, 422, r.text);
      assert.match(r.json.message, /spec\.usages: Required value/);
    });
  });

  it('webhooks run in configuration-name order, each seeing the previous patch; validating webhooks see the result', async () => {
    server.on('/first', (review) => addLabel(review, 'first', 'yes'));
    server.on('/second', (review) => addLabel(review, 'second', review.request.object.metadata.labels?.first ?? 'missing'));
    server.on('/check', (review) => review.request.object.metadata.labels?.second === 'yes' ? allow(review) : deny(review, { code: 403, message: 'unlabelled' }));
    await withConfiguration(plat.admin, M, 'b-second', [webhook(server, 'second.example.com', '/second')], () =>
      withConfiguration(plat.admin, M, 'a-first', [webhook(server, 'first.example.com', '/first')], () =>
        withConfiguration(plat.admin, V, 'check', [webhook(server, 'check.example.com', '/check')], async () => {
          const r = await plat.admin.post(CSRS, csr('ordered'));
          assert.equal(r.status, 201, r.text);
          assert.deepEqual(r.json.metadata.labels, { first: 'yes', second: 'yes' });
        })));
  });

  it('reinvocationPolicy IfNeeded calls an earlier webhook again after a later one changed the object; Never does not', async () => {
    for (const policy of ['IfNeeded', 'Never']) {
      const path = `/early-${policy}`;
      server.on(path, (review) => allow(review));
      server.on('/late', (review) => review.request.object.metadata.labels?.late ? allow(review) : addLabel(review, 'late', 'set'));
      const before = server.reviewsFor(path).length;
      await withConfiguration(plat.admin, M, 'reinvoke', [
        webhook(server, 'early.example.com', path, { reinvocationPolicy: policy }),
        webhook(server, 'late.example.com', '/late'),
      ], async () => {
        const r = await plat.admin.post(CSRS, csr(`reinvoked-${policy.toLowerCase()}`));
        assert.equal(r.status, 201, r.text);
      });
      const calls = server.reviewsFor(path).slice(before);
      assert.equal(calls.length, policy === 'IfNeeded' ? 2 : 1, policy);
      if (policy === 'IfNeeded') assert.equal(calls[1].request.object.metadata.labels.late, 'set');
    }
  });

  it('unknown fields a patch adds are dropped; a field of the wrong type is a 500', async () => {
    server.on('/unknown', (review) => jsonPatch(review, [{ op: 'add', path: '/spec/notAField', value: 1 }]));
    await withConfiguration(plat.admin, M, 'unknown', [webhook(server, 'unknown.example.com', '/unknown')], async () => {
      const r = await plat.admin.post(CSRS, csr('unknown-field'));
      assert.equal(r.status, 201, r.text);
      assert.equal(r.json.spec.notAField, undefined);
    });
    server.on('/wrong-type', (review) => jsonPatch(review, [{ op: 'add', path: '/metadata/labels', value: 'not-a-map' }]));
    await withConfiguration(plat.admin, M, 'wrong-type', [webhook(server, 'wrong.example.com', '/wrong-type', { failurePolicy: 'Ignore' })], async () => {
      const r = await plat.admin.post(CSRS, csr('wrong-type'));
      assert.equal(r.status, 500, r.text);
      assert.equal(r.json.reason, 'InternalError');
      assert.equal(r.json.message, 'Internal error occurred: json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string');
    });
    // A null the patch sets is what Go decodes it to: no annotations.
    server.on('/null', (review) => jsonPatch(review, [{ op: 'add', path: '/metadata/annotations', value: null }]));
    await withConfiguration(plat.admin, M, 'null', [webhook(server, 'null.example.com', '/null')], async () => {
      const r = await plat.admin.post(CSRS, csr('null-field'));
      assert.equal(r.status, 201, r.text);
      assert.equal(r.json.metadata.annotations, undefined);
    });
  });

  it('a patch that does not apply is a 500 whatever the failure policy, in json-patch\'s words; an unreadable one follows the policy', async () => {
    // callAttrMutatingHook: apierrors.NewInternalError of what patchObj.Apply returned.
    const failing: [unknown, string][] = [
      [{ op: 'remove', path: '/metadata/nothing' }, "error in remove for path: '/metadata/nothing': Unable to remove nonexistent key: nothing: missing value"],
      [{ op: 'test', path: '/spec/signerName', value: 'example.com/other' }, 'testing value /spec/signerName failed: test failed'],
      [{ op: 'frob', path: '/spec' }, 'Unexpected kind: frob'],
    ];
    for (const [i, [op, text]] of failing.entries()) {
      server.on('/no-path', (review) => jsonPatch(review, [op]));
      await withConfiguration(plat.admin, M, 'no-path', [webhook(server, 'nopath.example.com', '/no-path', { failurePolicy: 'Ignore' })], async () => {
        const r = await plat.admin.post(CSRS, csr(`no-path-${i}`));
        assert.equal(r.status, 500, r.text);
        assert.equal(r.json.message, `Internal error occurred: ${text}`);
        assert.deepEqual(r.json.details.causes, [{ message: text }]);
      });
    }
    server.on('/garbage', (review) => answer(review, { allowed: true, patchType: 'JSONPatch', patch: Buffer.from('{not json').toString('base64') }));
    for (const policy of ['Fail', 'Ignore']) {
      await withConfiguration(plat.admin, M, 'garbage', [webhook(server, 'garbage.example.com', '/garbage', { failurePolicy: policy })], async () => {
        const r = await plat.admin.post(CSRS, csr(`garbage-${policy.toLowerCase()}`));
        if (policy === 'Ignore') { assert.equal(r.status, 201, r.text); return; }
        assert.equal(r.status, 500, r.text);
        // jsonpatch.DecodePatch's json.Unmarshal, in encoding/json's words.
        assert.equal(r.json.message, 'Internal error occurred: failed calling webhook "garbage.example.com": received undecodable patch in webhook response: invalid character \'n\' looking for beginning of object key string');
      });
    }
    server.on('/merge', (review) => answer(review, { allowed: true, patchType: 'MergePatch', patch: Buffer.from('[{"op":"add","path":"/metadata/labels","value":{}}]').toString('base64') }));
    await withConfiguration(plat.admin, M, 'merge', [webhook(server, 'merge.example.com', '/merge')], async () => {
      const r = await plat.admin.post(CSRS, csr('merge-patch'));
      assert.equal(r.status, 500, r.text);
      assert.equal(r.json.message, 'Internal error occurred: failed calling webhook "merge.example.com": unsupported patch type "MergePatch"');
    });
  });

  it('patch without patchType (and the reverse) is an invalid answer', async () => {
    const halves: [Record<string, unknown>, string][] = [
      [{ patch: Buffer.from('[]').toString('base64') }, 'webhook returned response.patch but not response.patchType'],
      [{ patchType: 'JSONPatch' }, 'webhook returned response.patchType but not response.patch'],
    ];
    for (const [half, reason] of halves) {
      server.on('/half', (review) => answer(review, { allowed: true, ...half }));
      await withConfiguration(plat.admin, M, 'half', [webhook(server, 'half.example.com', '/half')], async () => {
        const r = await plat.admin.post(CSRS, csr('half'));
        assert.equal(r.status, 500, r.text);
        assert.equal(r.json.message, `Internal error occurred: failed calling webhook "half.example.com": received invalid webhook response: ${reason}`);
      });
    }
  });

  it('a mutating webhook may refuse; on DELETE it sees no object and may not patch', async () => {
    server.on('/refuse', (review) => deny(review, { code: 403, reason: 'Forbidden', message: 'mutator says no' }));
    await withConfiguration(plat.admin, M, 'refuse', [webhook(server, 'refuse.example.com', '/refuse')], async () => {
      const r = await plat.admin.post(CSRS, csr('refused'));
      assert.equal(r.status, 403, r.text);
      assert.equal(r.json.message, 'admission webhook "refuse.example.com" denied the request: mutator says no');
    });
    assert.equal((await plat.admin.post(CSRS, csr('delete-patched'))).status, 201);
    server.on('/delete-patch', (review) => jsonPatch(review, [{ op: 'add', path: '/metadata/labels', value: { a: 'b' } }]));
    const rule = { operations: ['DELETE'], apiGroups: ['certificates.platform'], apiVersions: ['v1'], resources: ['certificatesigningrequests'] };
    await withConfiguration(plat.admin, M, 'delete-patch', [webhook(server, 'delete.example.com', '/delete-patch', { rules: [rule] })], async () => {
      const r = await plat.admin.delete(`${CSRS}/delete-patched`);
      assert.equal(r.status, 500, r.text);
      assert.equal(r.json.message, 'Internal error occurred: admission webhook "delete.example.com" attempted to modify the object, which is not supported for this operation');
      const review = server.reviewsFor('/delete-patch').at(-1);
      assert.equal(review.request.operation, 'DELETE');
      assert.equal(review.request.object, null);
      assert.equal(review.request.oldObject.metadata.name, 'delete-patched');
    });
    assert.equal((await plat.admin.get(`${CSRS}/delete-patched`)).status, 200);
  });

  it('a patch may not change apiVersion or kind', async () => {
    server.on('/rekind', (review) => jsonPatch(review, [{ op: 'replace', path: '/kind', value: 'Secret' }]));
    await withConfiguration(plat.admin, M, 'rekind', [webhook(server, 'rekind.example.com', '/rekind')], async () => {
      const r = await plat.admin.post(CSRS, csr('rekinded'));
      assert.equal(r.status, 500, r.text);
      assert.equal(r.json.message, 'Internal error occurred: the kind in the data (Secret) does not match the expected kind (CertificateSigningRequest)');
    });
  });

  describe('what a mutating webhook sees, and what it may not change', () => {
    const SECRETS = '/api/v1/namespaces/default/secrets';
    const rule = (operations: string[]) => ({ rules: [{ operations, apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }] });

    it('a create as the handler prepared it: the request\'s namespace, v1 defaults, no system fields from the client', async () => {
      server.on('/see', (review) => allow(review));
      await withConfiguration(plat.admin, M, 'see', [webhook(server, 'see.example.com', '/see', rule(['CREATE']))], async () => {
        const r = await plat.admin.post(SECRETS, {
          apiVersion: 'v1', kind: 'Secret', stringData: { a: 'b' },
          metadata: { name: 'seen', uid: 'abc', creationTimestamp: '2020-01-01T00:00:00Z', selfLink: '/x' },
        });
        assert.equal(r.status, 201, r.text);
        assert.notEqual(r.json.metadata.uid, 'abc');
      });
      // WipeObjectMetaSystemFields and EnsureObjectNamespaceMatchesRequestNamespace run before
      // admission; the decoder's defaulting and conversion (type, stringData) before that.
      const seen = server.reviewsFor('/see').at(-1).request.object;
      const { managedFields, ...metadata } = seen.metadata;
      assert.deepEqual(metadata, { name: 'seen', namespace: 'default', creationTimestamp: null });
      // The create handler's field manager runs before admission too: the defaulted type is the creator's.
      assert.deepEqual(managedFields.map((e: { manager: string; operation: string; fieldsV1: unknown }) => [e.manager, e.operation, e.fieldsV1]),
        [['unknown', 'Update', { 'f:data': { '.': {}, 'f:a': {} }, 'f:type': {} }]]);
      assert.equal(seen.type, 'Opaque');
      assert.deepEqual(seen.data, { a: 'Yg==' });
      assert.equal(seen.stringData, undefined);
    });

    it('what a patch removes is defaulted again, as the dispatcher decodes the patched object', async () => {
      server.on('/untype', (review) => jsonPatch(review, [{ op: 'remove', path: '/type' }]));
      await withConfiguration(plat.admin, M, 'untype', [webhook(server, 'untype.example.com', '/untype', rule(['CREATE']))], async () => {
        const r = await plat.admin.post(SECRETS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'untyped' } });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.json.type, 'Opaque');
      });
    });

    it('a patch that moves the object to another namespace is refused, on create and on update', async () => {
      assert.equal((await plat.admin.post(SECRETS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'stays' } })).status, 201);
      server.on('/move', (review) => jsonPatch(review, [{ op: 'replace', path: '/metadata/namespace', value: 'kube-system' }]));
      await withConfiguration(plat.admin, M, 'move', [webhook(server, 'move.example.com', '/move', rule(['CREATE', 'UPDATE']))], async () => {
        for (const r of [
          await plat.admin.post(SECRETS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'moved' } }),
          await plat.admin.put(`${SECRETS}/stays`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'stays' }, data: { k: 'dg==' } }),
        ]) {
          assert.equal(r.status, 400, r.text);
          assert.equal(r.json.reason, 'BadRequest');
          assert.equal(r.json.message, 'the namespace of the provided object does not match the namespace sent on the request');
        }
      });
      assert.equal((await plat.admin.get(`${SECRETS}/moved`)).status, 404);
      assert.equal((await plat.admin.get(`${SECRETS}/stays`)).json.data, undefined);
    });

    it('a patch that changes metadata.resourceVersion makes the update a conflict, as Store.Update checks after admission', async () => {
      assert.equal((await plat.admin.post(SECRETS, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'versioned' } })).status, 201);
      server.on('/rv', (review) => jsonPatch(review, [{ op: 'add', path: '/metadata/resourceVersion', value: '1' }]));
      await withConfiguration(plat.admin, M, 'rv', [webhook(server, 'rv.example.com', '/rv', rule(['UPDATE']))], async () => {
        const r = await plat.admin.patch(`${SECRETS}/versioned`, { metadata: { labels: { a: 'b' } } }, 'application/merge-patch+json');
        assert.equal(r.status, 409, r.text);
        assert.equal(r.json.message, 'Operation cannot be fulfilled on secrets "versioned": the object has been modified; please apply your changes to the latest version and try again');
      });
      assert.equal((await plat.admin.get(`${SECRETS}/versioned`)).json.metadata.labels, undefined);
    });
  });
});
