// Go's type names derived from JSON schemas, and the decoder messages SchemaTypeChecker builds from
// them, on small schemas (the served resources are covered over HTTPS in
// test/apiserver/type-errors.test.ts). Expected texts are encoding/json's (Go 1.19).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goStructName, goTypeOf, withoutGoTypes } from '../../core/api/go-types.js';
import { SchemaTypeChecker } from '../../core/api/schema-types.js';
import type { JsonSchema } from '../../core/registry/resource.js';

describe('goTypeOf', () => {
  const cases: Array<[JsonSchema, string]> = [
    [{ type: 'string' }, 'string'],
    [{ type: 'string', format: 'byte' }, '[]uint8'],
    [{ type: 'string', format: 'date-time' }, 'string'],
    [{ type: 'string', format: 'date-time', 'x-go-type': 'v1.MicroTime' }, 'string'],
    [{ type: 'string', 'x-go-type': 'types.UID' }, 'types.UID'],
    [{ type: 'boolean' }, 'bool'],
    [{ type: 'integer', format: 'int32' }, 'int32'],
    [{ type: 'integer', format: 'int64' }, 'int64'],
    [{ type: 'number' }, 'float64'],
    [{ type: ['string', 'null'] }, 'string'],
    [{ type: 'array', items: { type: 'string' } }, '[]string'],
    [{ type: 'array', items: { type: 'string', 'x-go-type': 'v1.KeyUsage' } }, '[]v1.KeyUsage'],
    [{ type: 'array', items: { type: 'object', 'x-go-type': 'v1.Taint', properties: {} } }, '[]v1.Taint'],
    [{ type: 'object', additionalProperties: { type: 'string' } }, 'map[string]string'],
    [{ type: 'object', additionalProperties: { type: 'string', format: 'byte' } }, 'map[string][]uint8'],
    [{ type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } }, 'map[string][]string'],
    [{ type: 'object', properties: {} }, 'map[string]interface {}'],
    [{}, 'interface {}'],
  ];
  for (const [schema, want] of cases) it(`${JSON.stringify(schema)} → ${want}`, () => assert.equal(goTypeOf(schema), want));

  it('struct names drop the package', () => {
    assert.equal(goStructName({ type: 'object', 'x-go-type': 'v1.ObjectMeta' }), 'ObjectMeta');
    assert.equal(goStructName({ type: 'object' }), '');
  });

  it('withoutGoTypes removes the names at every depth and leaves the rest', () => {
    const schema: JsonSchema = { type: 'object', 'x-go-type': 'v1.A', 'x-kubernetes-list-type': 'atomic', properties: { a: { type: 'array', items: { type: 'string', 'x-go-type': 'v1.B' } } } };
    assert.deepEqual(withoutGoTypes(schema), { type: 'object', 'x-kubernetes-list-type': 'atomic', properties: { a: { type: 'array', items: { type: 'string' } } } });
    assert.equal(schema['x-go-type'], 'v1.A');
  });
});

describe('SchemaTypeChecker messages', () => {
  const schema: JsonSchema = {
    type: 'object', 'x-go-type': 'v1.Thing',
    properties: {
      metadata: { type: 'object', 'x-go-type': 'v1.ObjectMeta', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } } },
      items: { type: 'array', items: { type: 'object', 'x-go-type': 'v1.Item', properties: { count: { type: 'integer', format: 'int32' }, size: { type: 'integer', format: 'int64' } } } },
      // No Go names: the messages fall back to derived types and an anonymous struct.
      loose: { type: 'object', properties: { n: { type: 'integer', format: 'int32' }, m: { type: 'object', properties: {} } } },
    },
  };
  const checker = new SchemaTypeChecker(schema);
  const cases: Array<[unknown, string | undefined]> = [
    [{ metadata: { labels: { 'a/b~c': 1 } } }, 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string'],
    [{ items: [{ count: 1 }, { count: 'x' }] }, 'json: cannot unmarshal string into Go struct field Item.items.count of type int32'],
    [{ items: [{ count: -2147483649 }] }, 'json: cannot unmarshal number -2147483649 into Go struct field Item.items.count of type int32'],
    [{ items: [{ size: 0.5 }] }, 'json: cannot unmarshal number 0.5 into Go struct field Item.items.size of type int64'],
    [{ items: [true] }, 'json: cannot unmarshal bool into Go struct field Thing.items of type v1.Item'],
    [{ loose: { n: [] } }, 'json: cannot unmarshal array into Go struct field .loose.n of type int32'],
    [{ loose: { m: 'x' } }, 'json: cannot unmarshal string into Go struct field .loose.m of type map[string]interface {}'],
    // The first failure in document order, whatever the schema's order.
    [{ items: [{ count: 'x' }, true] }, 'json: cannot unmarshal string into Go struct field Item.items.count of type int32'],
    [{ items: [true, { count: 'x' }] }, 'json: cannot unmarshal bool into Go struct field Thing.items of type v1.Item'],
    [{ loose: { n: 'x' }, metadata: { labels: { a: 1 } } }, 'json: cannot unmarshal string into Go struct field .loose.n of type int32'],
    [{ metadata: { labels: { a: 'b' } }, items: [{ count: 3 }] }, undefined],
  ];
  for (const [obj, want] of cases) it(JSON.stringify(obj), () => assert.equal(checker.check(obj), want));
});
