import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyStrategicMergePatch } from '../../core/api/patch/strategic-merge-patch.js';
import { StatusError } from '../../core/api/errors.js';
import type { JsonSchema } from '../../core/registry/resource.js';

const str: JsonSchema = { type: 'string' };
const container: JsonSchema = {
  type: 'object',
  properties: {
    name: str, image: str,
    args: { type: 'array', items: str },
    ports: {
      type: 'array', 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'containerPort',
      items: { type: 'object', properties: { containerPort: { type: 'integer' }, protocol: str } },
    },
  },
};

/** A pod-like resource with one field of each kind SMP distinguishes. */
const schema: JsonSchema = {
  type: 'object',
  properties: {
    metadata: {
      type: 'object',
      properties: {
        name: str,
        labels: { type: 'object', additionalProperties: str },
        finalizers: { type: 'array', items: str, 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge' },
      },
    },
    spec: {
      type: 'object',
      properties: {
        usages: { type: 'array', items: str, 'x-kubernetes-list-type': 'atomic' },
        containers: { type: 'array', items: container, 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' },
        nodeSelector: { type: 'object', additionalProperties: str, 'x-kubernetes-patch-strategy': 'replace' },
        strategy: {
          type: 'object', 'x-kubernetes-patch-strategy': 'retainKeys',
          properties: { type: str, rollingUpdate: { type: 'object', properties: { maxSurge: str, maxUnavailable: str } } },
        },
        extra: { type: 'object' },
        config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { list: { type: 'array', 'x-kubernetes-patch-strategy': 'merge', items: str } } },
        mergeNoKey: { type: 'array', 'x-kubernetes-patch-strategy': 'merge', items: { type: 'object', properties: { a: str } } },
      },
    },
    status: {
      type: 'object',
      properties: {
        conditions: {
          type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'],
          items: { type: 'object', properties: { type: str, status: str, reason: str } },
        },
      },
    },
  },
};

const base = () => ({
  metadata: { name: 'p', labels: { app: 'web', tier: 'front' }, finalizers: ['a', 'b'] },
  spec: {
    usages: ['client auth', 'digital signature'],
    containers: [
      { name: 'app', image: 'app:1', args: ['--x'], ports: [{ containerPort: 80, protocol: 'TCP' }] },
      { name: 'sidecar', image: 'side:1' },
    ],
    nodeSelector: { disk: 'ssd', zone: 'a' },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '1', maxUnavailable: '0' } },
    extra: { keep: 1, nested: { x: 1 } },
  },
  status: { conditions: [{ type: 'Approved', status: 'True', reason: 'r' }, { type: 'Failed', status: 'False' }] },
});

function assertStatus(fn: () => unknown, code: number, message?: string | RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof StatusError, `expected StatusError, got ${String(e)}`);
    assert.equal(e.code, code);
    if (typeof message === 'string') assert.equal(e.status.message, message);
    else if (message) assert.match(e.status.message ?? '', message);
    return true;
  });
}

type Doc = ReturnType<typeof base>;
const apply = (patch: unknown): Doc => applyStrategicMergePatch(base(), patch, schema) as Doc;

describe('applyStrategicMergePatch: maps', () => {
  it('merges recursively; null deletes; unmatched null is dropped', () => {
    const out = apply({ metadata: { labels: { tier: null, env: 'prod', ghost: null } } });
    assert.deepEqual(out.metadata.labels, { app: 'web', env: 'prod' });
    assert.equal(out.metadata.name, 'p');
  });

  it('a map with patch strategy replace is replaced whole', () => {
    assert.deepEqual(apply({ spec: { nodeSelector: { zone: 'b' } } }).spec.nodeSelector, { zone: 'b' });
  });

  it('$patch: replace makes the patch map the result, without the directive', () => {
    const out = apply({ metadata: { labels: { $patch: 'replace', only: 'me', gone: null } } });
    assert.deepEqual(out.metadata.labels, { only: 'me' });
  });

  it('$patch: delete empties the map', () => {
    assert.deepEqual(apply({ spec: { strategy: { $patch: 'delete' } } }).spec.strategy, {});
  });

  it('unknown $patch value is 400', () => {
    assertStatus(() => apply({ metadata: { labels: { $patch: 'frob' } } }), 400, 'unknown patch type: frob in map: map[$patch:frob]');
  });

  it('$retainKeys drops members not listed', () => {
    const out = apply({ spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } });
    assert.deepEqual(out.spec.strategy, { type: 'Recreate' });
  });

  it('$retainKeys must list every member the patch sets, and be a list', () => {
    assertStatus(() => apply({ spec: { strategy: { $retainKeys: ['type'], rollingUpdate: {} } } }), 400, 'invalid patch format of retainKeys');
    assertStatus(() => apply({ spec: { strategy: { $retainKeys: 'type' } } }), 400, 'invalid patch format of retainKeys');
  });

  it('any other $ key is a member like the rest, left for decoding to find unknown (upstream has no such error)', () => {
    assert.equal((apply({ spec: { $frob: 1 } }).spec as Record<string, unknown>).$frob, 1);
    assert.equal((apply({ metadata: { labels: { $frob: 'x' } } }).metadata.labels as Record<string, unknown>).$frob, 'x');
  });
});

describe('applyStrategicMergePatch: lists', () => {
  it('an atomic list is replaced', () => {
    assert.deepEqual(apply({ spec: { usages: ['server auth'] } }).spec.usages, ['server auth']);
  });

  it('an atomic list\'s items are taken as they are: a $ key in one is no directive (mergeSliceHandler)', () => {
    const conditions = [
      { type: 'Approved', status: 'True', $patch: 'delete' },
      { type: 'Denied', $retainKeys: ['type'], '$setElementOrder/x': [], '$deleteFromPrimitiveList/y': ['z'], $frob: { $patch: 'replace' }, reason: null },
    ];
    assert.deepEqual(apply({ status: { conditions } }).status.conditions, conditions);
    // Also where the object has no such list yet.
    const fresh = applyStrategicMergePatch({}, { status: { conditions: [{ type: 'A', $patch: 'delete' }] } }, schema) as Doc;
    assert.deepEqual(fresh.status.conditions, [{ type: 'A', $patch: 'delete' }]);
  });

  it('a map-list without patch strategy (status.conditions) is replaced', () => {
    const out = apply({ status: { conditions: [{ type: 'Approved', status: 'False' }] } });
    assert.deepEqual(out.status.conditions, [{ type: 'Approved', status: 'False' }]);
  });

  it('merge-keyed list: matching elements merge recursively, others are kept', () => {
    const out = apply({ spec: { containers: [{ name: 'app', image: 'app:2', ports: [{ containerPort: 80, protocol: 'UDP' }] }] } });
    assert.deepEqual(out.spec.containers, [
      { name: 'app', image: 'app:2', args: ['--x'], ports: [{ containerPort: 80, protocol: 'UDP' }] },
      { name: 'sidecar', image: 'side:1' },
    ]);
  });

  it('merge-keyed list: new elements come first, as upstream orders them', () => {
    const out = apply({ spec: { containers: [{ name: 'new', image: 'n:1' }] } });
    assert.deepEqual(out.spec.containers.map((c) => c.name), ['new', 'app', 'sidecar']);
  });

  it('merge-keyed list: patched and live elements interleave by live order', () => {
    const out = apply({ spec: { containers: [{ name: 'sidecar', image: 'side:2' }, { name: 'extra' }] } });
    assert.deepEqual(out.spec.containers.map((c) => c.name), ['app', 'sidecar', 'extra']);
  });

  it('merge-keyed list: $patch: delete removes by key', () => {
    const out = apply({ spec: { containers: [{ name: 'app', $patch: 'delete' }] } });
    assert.deepEqual(out.spec.containers, [{ name: 'sidecar', image: 'side:1' }]);
  });

  it('merge-keyed list: $patch: replace makes the other patch elements the list', () => {
    const out = apply({ spec: { containers: [{ $patch: 'replace' }, { name: 'only', image: 'o:1' }] } });
    assert.deepEqual(out.spec.containers, [{ name: 'only', image: 'o:1' }]);
  });

  it('a nested list inside a merged element follows its own schema (atomic args)', () => {
    const out = apply({ spec: { containers: [{ name: 'app', args: ['--y'] }] } });
    assert.deepEqual(out.spec.containers[0], { name: 'app', image: 'app:1', args: ['--y'], ports: [{ containerPort: 80, protocol: 'TCP' }] });
  });

  it('merge-keyed list errors: element without the key, merge list without a key, $patch: merge', () => {
    assertStatus(() => apply({ spec: { containers: [{ image: 'x' }] } }), 500, 'map: map[image:x] does not contain declared merge key: name');
    assertStatus(() => applyStrategicMergePatch({ spec: { mergeNoKey: [{ a: 'x' }] } }, { spec: { mergeNoKey: [{ a: 'y' }] } }, schema), 400,
      'cannot merge lists without merge key for spec.mergeNoKey');
    assertStatus(() => apply({ spec: { containers: [{ name: 'app', $patch: 'merge' }] } }), 400, 'merging lists cannot yet be specified in the patch');
  });

  it('primitive list with merge strategy: union without duplicates', () => {
    assert.deepEqual(apply({ metadata: { finalizers: ['b', 'c'] } }).metadata.finalizers, ['a', 'b', 'c']);
  });

  it('$deleteFromPrimitiveList removes values and does not leak', () => {
    const out = apply({ metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } });
    assert.deepEqual(out.metadata, { name: 'p', labels: { app: 'web', tier: 'front' }, finalizers: ['b'] });
    assertStatus(() => apply({ metadata: { '$deleteFromPrimitiveList/finalizers': 'a' } }), 400, 'invalid patch format of primitive list');
  });

  it('$setElementOrder orders a merging list and does not leak', () => {
    const out = apply({
      spec: {
        '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'new' }, { name: 'app' }],
        containers: [{ name: 'new', image: 'n:1' }],
      },
    });
    assert.deepEqual(out.spec.containers.map((c) => c.name), ['sidecar', 'new', 'app']);
    assert.ok(!Object.keys(out.spec).some((k) => k.startsWith('$')));
  });

  it('$setElementOrder alone reorders; on a primitive list too', () => {
    const out = apply({
      spec: { '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'app' }] },
      metadata: { '$setElementOrder/finalizers': ['b', 'a'] },
    });
    assert.deepEqual(out.spec.containers.map((c) => c.name), ['sidecar', 'app']);
    assert.deepEqual(out.metadata.finalizers, ['b', 'a']);
  });

  it('$setElementOrder is ignored on a non-merging list', () => {
    const out = apply({ spec: { '$setElementOrder/usages': ['digital signature', 'client auth'] } });
    assert.deepEqual(out.spec.usages, ['client auth', 'digital signature']);
    assert.ok(!('$setElementOrder/usages' in out.spec));
  });

  it('$setElementOrder must agree with the patch list', () => {
    assertStatus(() => apply({
      spec: { '$setElementOrder/containers': [{ name: 'app' }], containers: [{ name: 'new' }] },
    }), 400, /^The order in patch list:\n/);
    assertStatus(() => apply({ spec: { '$setElementOrder/containers': 'app' } }), 400, 'invalid patch format of setElementOrder list');
  });

  it('lists of lists are 422; mixed element types 400', () => {
    // NewGenericServerResponse(422, ...): upstream's fixed words; mergepatch's text is only the cause.
    assertStatus(() => apply({ metadata: { finalizers: [['x']] } }), 422, 'the server rejected our request due to an error in our request');
    assert.throws(() => apply({ metadata: { finalizers: [['x']] } }), (e: unknown) => (e as Error).cause === 'lists of lists are not supported');
    assertStatus(() => apply({ metadata: { finalizers: [1] } }), 400, /^list element types are not identical/);
  });
});

describe('applyStrategicMergePatch: where the schema says nothing', () => {
  it('an object without properties gets merge-patch semantics; directives are data', () => {
    const out = apply({ spec: { extra: { nested: { y: 2 }, keep: null, $patch: 'delete' } } });
    assert.deepEqual(out.spec.extra, { nested: { x: 1, y: 2 }, $patch: 'delete' });
  });

  it('x-kubernetes-preserve-unknown-fields gets merge-patch semantics: lists replace', () => {
    const doc = { spec: { config: { list: ['a'], other: 1 } } };
    const out = applyStrategicMergePatch(doc, { spec: { config: { list: ['b'] } } }, schema);
    assert.deepEqual(out, { spec: { config: { list: ['b'], other: 1 } } });
  });

  it('fields unknown to the schema are merge-patched', () => {
    const out = applyStrategicMergePatch({ spec: { unknown: { a: [1], b: 1 } } }, { spec: { unknown: { a: [2], b: null } } }, schema);
    assert.deepEqual(out, { spec: { unknown: { a: [2] } } });
  });
});

describe('applyStrategicMergePatch: values new to the object', () => {
  it('are cleaned of nulls and directives', () => {
    const out = applyStrategicMergePatch({ spec: {} }, {
      spec: {
        containers: [{ name: 'a', image: null, ports: [{ containerPort: 1 }, { containerPort: 2, $patch: 'delete' }] }],
        '$setElementOrder/containers': [{ name: 'a' }],
      },
    }, schema);
    assert.deepEqual(out, { spec: { containers: [{ name: 'a', ports: [{ containerPort: 1 }] }] } });
  });
});

describe('applyStrategicMergePatch: the patch body', () => {
  it('null is an empty patch; non-objects are 400', () => {
    assert.deepEqual(applyStrategicMergePatch(base(), null, schema), base());
    assertStatus(() => applyStrategicMergePatch(base(), [], schema), 400, 'json: cannot unmarshal array into Go value of type map[string]interface {}');
  });

  it('leaves the document and the patch untouched', () => {
    const doc = base();
    const patch = {
      metadata: { labels: { app: null }, '$deleteFromPrimitiveList/finalizers': ['a'] },
      spec: { containers: [{ name: 'app', image: 'x' }, { name: 'sidecar', $patch: 'delete' }], strategy: { $retainKeys: ['type'], type: 'x' } },
    };
    const patchCopy = structuredClone(patch);
    const out = applyStrategicMergePatch(doc, patch, schema) as Doc;
    assert.deepEqual(doc, base());
    assert.deepEqual(patch, patchCopy);
    (out.spec.containers[0]!.args as string[]).push('mutated');
    assert.deepEqual(doc, base());
  });
});
