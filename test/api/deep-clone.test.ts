// deepClone copies API values as structuredClone did (the stores, strategies and controllers rely
// on a copy sharing nothing with its source), by a walk for JSON trees: checked against
// structuredClone itself, value by value.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deepClone } from '../../core/api/meta.js';

/** Every object and array reachable from `v`. */
function nodes(v: unknown, out: object[] = []): object[] {
  if (typeof v === 'object' && v !== null) {
    out.push(v);
    for (const k of Object.keys(v)) nodes((v as Record<string, unknown>)[k], out);
  }
  return out;
}

describe('deepClone', () => {
  const csr = JSON.parse(JSON.stringify({
    apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest',
    metadata: { name: 'a', labels: { x: 'y' }, managedFields: [{ manager: 'm', fieldsV1: { 'f:spec': { 'f:request': {} } } }] },
    spec: { request: 'QUJD', usages: ['digital signature', 'client auth'], extra: { k: ['v1', 'v2'] } },
    status: { conditions: [{ type: 'Approved', status: 'True', lastUpdateTime: '2026-12-02T03:00:00Z' }] },
  }));

  const cases: [string, unknown][] = [
    ['a CSR as parsed from JSON', csr],
    ['scalars', [0, -1.5, 'text', true, false, null, '']],
    ['empty containers', { a: {}, b: [], c: [[]], d: [{}] }],
    ['a __proto__ key, as JSON.parse makes it', JSON.parse('{"__proto__": {"polluted": true}, "a": 1}')],
    ['a Date, a Buffer and a Map inside', { when: new Date(1_764_633_600_000), bytes: Buffer.from('abc'), m: new Map([['k', { v: 1 }]]) }],
    ['an object without a prototype', Object.assign(Object.create(null) as object, { a: [1, 2] })],
  ];
  for (const [name, value] of cases) {
    it(`copies ${name} as structuredClone does`, () => {
      const copy = deepClone(value);
      assert.deepStrictEqual(copy, structuredClone(value));
      // Nothing shared with the source: every object and array is new.
      const before = new Set(nodes(value));
      for (const n of nodes(copy)) assert.ok(!before.has(n), 'a copy shares an object with its source');
    });
  }

  it('gives a mutable copy of a frozen value, and keeps a __proto__ key as data', () => {
    const frozen = Object.freeze({ spec: Object.freeze({ usages: Object.freeze(['client auth']) }) });
    const copy = deepClone(frozen);
    (copy.spec.usages as string[]).push('digital signature');
    assert.deepEqual(frozen.spec.usages, ['client auth']);
    const evil = deepClone(JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>);
    assert.equal(Object.getPrototypeOf(evil), Object.prototype);
    assert.equal((evil as { polluted?: boolean }).polluted, undefined);
    assert.deepEqual(Object.keys(evil), ['__proto__']);
  });
});
