// Field sets as structured-merge-diff computes them, table by table: ToFieldSet under each list and
// map semantics, FieldsV1 as upstream writes it (key order, `.`, `k:` keys sorted, `v:` values),
// Compare, RemoveItems, the set algebra and PathElement.String.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldSet, keyElement, printPath } from '../../core/api/fieldsets/field-set.js';
import { decodeFieldsV1, encodeFieldsV1, FieldsV1Error } from '../../core/api/fieldsets/fields-v1.js';
import { shapeOf } from '../../core/api/fieldsets/schema-shape.js';
import { ensureNamedFieldsAreMembers, toFieldSet } from '../../core/api/fieldsets/to-field-set.js';
import { compare } from '../../core/api/fieldsets/compare.js';
import { removeItems } from '../../core/api/fieldsets/remove-items.js';
import type { JsonSchema } from '../../core/registry/resource.js';
import { csrSchema } from '../../plugins/certificates/schema.js';

const schema: JsonSchema = {
  type: 'object',
  properties: {
    metadata: { type: 'object', properties: { name: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } } },
    atomicList: { type: 'array', items: { type: 'string' } },
    set: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
    byMerge: { type: 'array', items: { type: 'string' }, 'x-kubernetes-patch-strategy': 'merge' },
    ports: {
      type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['protocol', 'containerPort'],
      items: { type: 'object', properties: { containerPort: { type: 'integer' }, protocol: { type: 'string' }, name: { type: 'string' } } },
    },
    byMergeKey: {
      type: 'array', 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name',
      items: { type: 'object', properties: { name: { type: 'string' }, v: { type: 'string' } } },
    },
    atomicMap: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { a: { type: 'string' } } },
    struct: { type: 'object', properties: { a: { type: 'string' }, inner: { type: 'object', properties: { b: { type: 'string' } } } } },
    free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  },
};
const shape = shapeOf(schema);

describe('field sets', () => {
  it('ToFieldSet follows each list and map semantics (FieldsV1 as upstream writes it)', () => {
    const cases: Array<[string, unknown, unknown]> = [
      ['scalar fields', { metadata: { name: 'x' } }, { 'f:metadata': { 'f:name': {} } }],
      ['a granular map: each key', { metadata: { labels: { b: '1', a: '2' } } }, { 'f:metadata': { 'f:labels': { 'f:a': {}, 'f:b': {} } } }],
      ['an untyped list is atomic', { atomicList: ['a', 'b'] }, { 'f:atomicList': {} }],
      ['a set: v: per value', { set: ['b', 'a'] }, { 'f:set': { 'v:"a"': {}, 'v:"b"': {} } }],
      ['patch strategy merge without key: a set', { byMerge: ['x'] }, { 'f:byMerge': { 'v:"x"': {} } }],
      ['a map list: k: with keys sorted, the item itself owned', { ports: [{ protocol: 'TCP', containerPort: 80, name: 'web' }] },
        { 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:name': {}, 'f:protocol': {} } } }],
      ['patch merge key: a map list', { byMergeKey: [{ name: 'n' }] }, { 'f:byMergeKey': { 'k:{"name":"n"}': { '.': {}, 'f:name': {} } } }],
      ['an atomic map', { atomicMap: { a: 'x' } }, { 'f:atomicMap': {} }],
      ['an empty struct is a member', { struct: {} }, { 'f:struct': {} }],
      ['a null is a member', { struct: { inner: null } }, { 'f:struct': { 'f:inner': {} } }],
      ['a non-empty struct is not', { struct: { inner: { b: 'x' } } }, { 'f:struct': { 'f:inner': { 'f:b': {} } } }],
      ['deduced: a granular map, an atomic list', { free: { m: { k: 1 }, l: [1] } }, { 'f:free': { 'f:l': {}, 'f:m': { '.': {}, 'f:k': {} } } }],
    ];
    for (const [what, value, want] of cases) assert.deepEqual(encodeFieldsV1(toFieldSet(value, shape)), want, what);
  });

  it('writes keys in PathElement order with "." first, and reads back what it wrote', () => {
    const set = toFieldSet({ struct: { a: 'x' }, metadata: { name: 'n' }, ports: [{ protocol: 'UDP', containerPort: 53 }] }, shape);
    const json = encodeFieldsV1(set);
    assert.equal(JSON.stringify(json),
      '{"f:metadata":{"f:name":{}},"f:ports":{"k:{\\"containerPort\\":53,\\"protocol\\":\\"UDP\\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},"f:struct":{"f:a":{}}}');
    assert.ok(decodeFieldsV1(json).equals(set));
  });

  it('refuses FieldsV1 that is not a set', () => {
    for (const bad of [null, [], 'x', { 'x:y': {} }, { 'f:a': 1 }, { 'k:[1]': {} }, { 'i:01': {} }]) {
      assert.throws(() => decodeFieldsV1(bad), FieldsV1Error, JSON.stringify(bad));
    }
  });

  it('Compare: added, modified, removed; list items and map entries owned whole when added', () => {
    const cases: Array<[string, unknown, unknown, unknown, unknown, unknown]> = [
      ['a scalar changed', { metadata: { name: 'a' } }, { metadata: { name: 'b' } }, {}, { 'f:metadata': { 'f:name': {} } }, {}],
      ['labels added: the map too', {}, { metadata: { labels: { a: '1' } } }, { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } }, {}, {}],
      ['a struct field is never added itself', {}, { struct: { a: 'x' } }, { 'f:struct': { 'f:a': {} } }, {}, {}],
      ['a map-list item added and one removed', { ports: [{ protocol: 'TCP', containerPort: 1 }] }, { ports: [{ protocol: 'TCP', containerPort: 2 }] },
        { 'f:ports': { 'k:{"containerPort":2,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } } }, {},
        { 'f:ports': { 'k:{"containerPort":1,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } } }],
      ['an atomic list changed is one leaf', { atomicList: ['a'] }, { atomicList: ['a', 'b'] }, {}, { 'f:atomicList': {} }, {}],
      ['nothing changed', { set: ['a'], struct: { a: 'x' } }, { set: ['a'], struct: { a: 'x' } }, {}, {}, {}],
    ];
    for (const [what, l, r, added, modified, removed] of cases) {
      const c = compare(l, r, shape);
      assert.deepEqual(encodeFieldsV1(c.added), added, `${what}: added`);
      assert.deepEqual(encodeFieldsV1(c.modified), modified, `${what}: modified`);
      assert.deepEqual(encodeFieldsV1(c.removed), removed, `${what}: removed`);
    }
  });

  it('RemoveItems removes fields, map entries, set values and keyed items; a member with what is below it', () => {
    const v = { metadata: { name: 'n', labels: { a: '1', b: '2' } }, set: ['x', 'y'], ports: [{ protocol: 'TCP', containerPort: 1, name: 'p' }], struct: { a: 'x', inner: { b: 'y' } } };
    const set = FieldSet.fromPaths([
      ['f:metadata', 'f:labels', 'f:a'], ['f:set', 'v:"x"'], ['f:ports', keyElement([['protocol', 'TCP'], ['containerPort', 1]]), 'f:name'], ['f:struct', 'f:inner'],
    ]);
    assert.deepEqual(removeItems(v, set, shape), { metadata: { name: 'n', labels: { b: '2' } }, set: ['y'], ports: [{ protocol: 'TCP', containerPort: 1 }], struct: { a: 'x' } });
    const item = FieldSet.fromPaths([['f:ports', keyElement([['containerPort', 1], ['protocol', 'TCP']])]]);
    assert.deepEqual((removeItems(v, item, shape) as { ports: unknown[] }).ports, []);
  });

  it('set algebra and EnsureNamedFieldsAreMembers', () => {
    const a = FieldSet.fromPaths([['f:x', 'f:y'], ['f:z']]);
    const b = FieldSet.fromPaths([['f:x', 'f:y'], ['f:w']]);
    assert.deepEqual(a.union(b).paths(), [['f:w'], ['f:z'], ['f:x', 'f:y']]);
    assert.deepEqual(a.difference(b).paths(), [['f:z']]);
    assert.deepEqual(a.intersection(b).paths(), [['f:x', 'f:y']]);
    assert.deepEqual(a.recursiveDifference(FieldSet.fromPaths([['f:x']])).paths(), [['f:z']]);
    const ensured = ensureNamedFieldsAreMembers(FieldSet.fromPaths([['f:struct', 'f:inner', 'f:b'], ['f:metadata', 'f:labels', 'f:a']]), shape);
    assert.deepEqual(encodeFieldsV1(ensured), { 'f:metadata': { '.': {}, 'f:labels': { '.': {}, 'f:a': {} } }, 'f:struct': { '.': {}, 'f:inner': { '.': {}, 'f:b': {} } } });
  });

  it('prints paths as PathElement.String', () => {
    assert.equal(printPath(['f:spec', 'f:signerName']), '.spec.signerName');
    assert.equal(printPath(['f:status', 'f:conditions', keyElement([['type', 'Approved']])]), '.status.conditions[type="Approved"]');
    assert.equal(printPath(['f:set', 'v:"x"', 'i:3']), '.set[="x"][3]');
  });

  it('the CSR schema: conditions by type, usages atomic', () => {
    const set = toFieldSet({ spec: { usages: ['client auth'], signerName: 's' }, status: { conditions: [{ type: 'Approved', status: 'True' }] } }, shapeOf(csrSchema));
    assert.deepEqual(encodeFieldsV1(set), {
      'f:spec': { 'f:signerName': {}, 'f:usages': {} },
      'f:status': { 'f:conditions': { 'k:{"type":"Approved"}': { '.': {}, 'f:status': {}, 'f:type': {} } } },
    });
  });
});
