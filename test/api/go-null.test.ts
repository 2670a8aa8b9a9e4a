// JSON nulls as encoding/json decodes them into the Go types behind a schema.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyGoNulls } from '../../core/api/go-null.js';
import type { JsonSchema } from '../../core/registry/resource.js';

const schema: JsonSchema = {
  type: 'object',
  properties: {
    metadata: { type: 'object', properties: {
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      creationTimestamp: { type: 'string', format: 'date-time', nullable: true },
    } },
    spec: { type: 'object', properties: {
      usages: { type: 'array', items: { type: 'string' } },
      seconds: { type: 'integer', format: 'int32' },
      conditions: { type: 'array', items: { type: 'object', properties: { type: { type: 'string' } } } },
      counts: { type: 'object', additionalProperties: { type: 'integer' } },
      extra: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    } },
    status: { type: 'object', properties: {} },
  },
};

describe('applyGoNulls', () => {
  it('drops null struct fields, zeroes null list and map elements, keeps null where the type holds it', () => {
    const cases: Array<[unknown, unknown]> = [
      [{ status: null, spec: null }, {}],
      [{ metadata: { labels: null, creationTimestamp: null } }, { metadata: { creationTimestamp: null } }],
      [{ metadata: { labels: { a: null, b: 'x' } } }, { metadata: { labels: { a: '', b: 'x' } } }],
      [{ spec: { usages: ['a', null], seconds: null } }, { spec: { usages: ['a', ''] } }],
      [{ spec: { conditions: [null, { type: null }] } }, { spec: { conditions: [{}, {}] } }],
      [{ spec: { counts: { n: null }, extra: { k: null } } }, { spec: { counts: { n: 0 }, extra: { k: [] } } }],
      [{ spec: { raw: { a: null, b: [null] } } }, { spec: { raw: { a: null, b: [null] } } }],
      [{ spec: { unknown: null } }, { spec: { unknown: null } }],
    ];
    for (const [input, want] of cases) {
      const value = structuredClone(input);
      applyGoNulls(value, schema);
      assert.deepEqual(value, want, JSON.stringify(input));
    }
  });
});
