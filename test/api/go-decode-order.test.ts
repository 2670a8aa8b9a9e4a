// Which type error a body is refused with (core/api/go-decode-order.ts): Go's decoder answers the
// first that aborts, else the first, in document order. A body may fail a million times (a 2 MiB
// Secret of 200,000 labels with number values), so the choice is one pass that looks up an
// object's key positions once: sorting with a scan of the object's keys per comparison took
// minutes of CPU for that Secret.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goReportedFailure, type DecodeFailure } from '../../core/api/go-decode-order.js';

type Failure = DecodeFailure & { id: string };
const f = (id: string, path: string, aborts = false): Failure => ({ id, segments: path.split('/'), aborts });

describe('goReportedFailure', () => {
  it('answers the first aborting failure, else the first, in document order, scanning each object\'s keys once', () => {
    const doc = { spec: { b: 1, a: [1, 2, 3] }, metadata: { name: 1, time: 1 } };
    const rows: { name: string; failures: Failure[]; want: string | undefined }[] = [
      { name: 'none', failures: [], want: undefined },
      { name: 'key order of the document, not of the list', failures: [f('a', 'spec/a'), f('b', 'spec/b')], want: 'b' },
      { name: 'array index order', failures: [f('2', 'spec/a/2'), f('0', 'spec/a/0')], want: '0' },
      { name: 'a parent before its child', failures: [f('child', 'spec/a/1'), f('parent', 'spec/a')], want: 'parent' },
      { name: 'an aborting failure after a saved one wins', failures: [f('saved', 'spec/b'), f('abort', 'metadata/time', true)], want: 'abort' },
      { name: 'the first of two aborting failures', failures: [f('late', 'metadata/time', true), f('early', 'spec/a/2', true)], want: 'early' },
      { name: 'a tie keeps the earlier listed', failures: [f('one', 'spec/b'), f('two', 'spec/b')], want: 'one' },
    ];
    for (const row of rows) assert.equal(goReportedFailure(doc, row.failures)?.id, row.want, row.name);

    let scans = 0;
    const labels = new Proxy(Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i])), {
      ownKeys(target) { scans++; return Reflect.ownKeys(target); },
    });
    const failures = Array.from({ length: 2000 }, (_, i) => f(`k${(i * 7919) % 2000}`, `metadata/labels/k${(i * 7919) % 2000}`));
    assert.equal(goReportedFailure({ metadata: { labels } }, failures)?.id, 'k0');
    assert.equal(scans, 1, 'the labels object\'s keys were listed once');
  });
});
