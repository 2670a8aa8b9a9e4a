// Runs THE TABLE (cases.ts) through the strategies in the generic store's order, then unit-tests
// the parts: signer names, option computation, the "modify" diff, timestamps, the table printer,
// human durations, the schema and the plugin.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldError } from '../../core/api/field-errors.js';
import { humanDuration, shortHumanDuration } from '../../core/api/human-duration.js';
import type { StrategyContext, Strategy } from '../../core/registry/strategy.js';
import type { ResourceDefinition, ResourceRegistry } from '../../core/registry/resource.js';
import { Host } from '../../core/host.js';
import { CertificatesResourcePlugin } from '../../plugins/certificates/plugin.js';
import { csrResource } from '../../plugins/certificates/resource.js';
import { csrApprovalStrategy, csrStatusStrategy, csrStrategy } from '../../plugins/certificates/strategy.js';
import { validateSignerName, isDns1123Label } from '../../core/certificates/signer-name.js';
import { csrConditionString, csrTablePrinter } from '../../plugins/certificates/table.js';
import {
  certificateDataError, validateCsrMainUpdate, validateCsrStatusUpdate, validateCsrUpdate, validationOptions,
} from '../../plugins/certificates/validation.js';
import { VALID_USAGES } from '../../plugins/certificates/usages.js';
import { b64, baseCsr, fixtures, pem } from './fixtures.js';
import { csrCases, type CsrCase } from './cases.js';

const NOW = new Date('2026-07-01T12:00:00.123Z');
const NOW_TEXT = '2026-07-01T12:00:00Z';
const USER = {
  name: 'alice', uid: 'alice-uid', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a', 'b'] },
};
const ctx = (subresource: string): StrategyContext => ({ user: USER, subresource, now: NOW });
const strategyFor = (sub: string): Strategy<any> =>
  sub === 'status' ? csrStatusStrategy : sub === 'approval' ? csrApprovalStrategy : csrStrategy;

const show = (errs: readonly FieldError[]): string => errs.map((e) => `${e.field}: ${e.message}`).join('\n') || '(none)';

/** The generic store's create path, minus metadata: prepareForCreate -> validate. */
function create(obj: any): { errs: FieldError[]; stored: any } {
  csrStrategy.prepareForCreate!(ctx(''), obj);
  const errs = csrStrategy.validate(ctx(''), obj);
  obj.metadata.creationTimestamp = NOW_TEXT;
  obj.metadata.uid = 'obj-uid';
  return { errs, stored: obj };
}

/** The generic store's update path: prepareForUpdate(subresource) -> validateUpdate. */
function update(stored: any, sub: string, mutate: (o: any) => void): { errs: FieldError[]; stored: any } {
  const obj = structuredClone(stored);
  mutate(obj);
  const strategy = strategyFor(sub);
  strategy.prepareForUpdate!(ctx(sub), obj, stored);
  return { errs: strategy.validateUpdate(ctx(sub), obj, stored), stored: obj };
}

function run(c: CsrCase): { errs: FieldError[]; stored: any } {
  const fx = fixtures();
  if (c.op === 'create') {
    const obj = baseCsr(fx);
    c.mutate(obj);
    return create(obj);
  }
  let { errs, stored } = create(baseCsr(fx));
  assert.deepEqual(errs, [], `base object must be valid:\n${show(errs)}`);
  for (const [i, step] of (c.setup ?? []).entries()) {
    ({ errs, stored } = update(stored, step.subresource, step.mutate));
    assert.deepEqual(errs, [], `setup step ${i} must succeed:\n${show(errs)}`);
  }
  return update(stored, c.subresource ?? '', c.mutate);
}

describe('CSR rule table through the strategies', () => {
  for (const c of csrCases(fixtures())) {
    it(c.name, () => {
      const { errs, stored } = run(c);
      if ('ok' in c.expect) {
        assert.deepEqual(errs, [], `expected success, got:\n${show(errs)}`);
        c.expect.check?.(structuredClone(stored));
        return;
      }
      const { field, message } = c.expect;
      const matches = (e: FieldError): boolean =>
        e.field === field && (typeof message === 'string' ? e.message === message : message.test(e.message));
      assert.ok(errs.some(matches), `expected ${field}: ${String(message)}\ngot:\n${show(errs)}`);
      // The base object is valid, so each rule should produce exactly its own error.
      assert.equal(errs.length, 1, `expected one error, got:\n${show(errs)}`);
    });
  }
});

describe('prepareForCreate', () => {
  it('fills the requester from the authenticated user and empties status', () => {
    const obj = baseCsr(fixtures());
    obj.spec.username = 'x';
    obj.status = { conditions: [{ type: 'Approved', status: 'True' }] };
    csrStrategy.prepareForCreate!(ctx(''), obj);
    assert.equal(obj.spec.username, 'alice');
    assert.equal(obj.spec.uid, 'alice-uid');
    assert.deepEqual(obj.spec.groups, ['dev', 'system:authenticated']);
    assert.deepEqual(obj.spec.extra, { scopes: ['a', 'b'] });
    assert.deepEqual(obj.status, {});
  });

  it('leaves uid and extra out when the user has none', () => {
    const obj = baseCsr(fixtures());
    obj.spec.extra = { spoof: ['x'] };
    csrStrategy.prepareForCreate!({ user: { name: 'bob', groups: ['system:authenticated'], extra: {} }, subresource: '', now: NOW }, obj);
    assert.equal(obj.spec.uid, undefined);
    assert.equal(obj.spec.extra, undefined);
    assert.equal('extra' in obj.spec, false);
  });
});

describe('condition timestamps', () => {
  it('are set from ctx.now at second precision on /approval', () => {
    const { stored } = create(baseCsr(fixtures()));
    const { errs, stored: next } = update(stored, 'approval', (o) => { o.status.conditions = [{ type: 'Approved', status: 'True' }]; });
    assert.deepEqual(errs, []);
    assert.deepEqual(next.status.conditions, [
      { type: 'Approved', status: 'True', lastUpdateTime: NOW_TEXT, lastTransitionTime: NOW_TEXT },
    ]);
  });

  it('keep client-set times and copy the first matching old transition time', () => {
    const old: any = {
      metadata: { name: 'x' }, spec: {},
      status: { conditions: [
        { type: 'A', status: 'False', lastTransitionTime: '2019-01-01T00:00:00Z' },
        { type: 'A', status: 'True', lastTransitionTime: null },
        { type: 'A', status: 'True', lastTransitionTime: '2020-01-01T00:00:00Z' },
        { type: 'A', status: 'True', lastTransitionTime: '2021-01-01T00:00:00Z' },
      ] },
    };
    const obj: any = { metadata: { name: 'x' }, spec: {}, status: { conditions: [
      { type: 'A', status: 'True' },
      { type: 'B', status: 'True', lastUpdateTime: '2018-01-01T00:00:00Z', lastTransitionTime: '2018-01-01T00:00:00Z' },
    ] } };
    csrStatusStrategy.prepareForUpdate!(ctx('status'), obj, old);
    assert.deepEqual(obj.status.conditions, [
      { type: 'A', status: 'True', lastUpdateTime: NOW_TEXT, lastTransitionTime: '2020-01-01T00:00:00Z' },
      { type: 'B', status: 'True', lastUpdateTime: '2018-01-01T00:00:00Z', lastTransitionTime: '2018-01-01T00:00:00Z' },
    ]);
  });
});

describe('update validation options', () => {
  const fx = fixtures();
  const stored = (mut: (o: any) => void): any => {
    const o = baseCsr(fx);
    o.spec.username = 'alice';
    o.status = {};
    mut(o);
    return o;
  };

  it('on create everything is strict', () => {
    assert.deepEqual(Object.values(validationOptions(baseCsr(fx))).filter(Boolean), []);
  });

  it('an old legacy signer may keep its name', () => {
    const old = stored((o) => { o.spec.signerName = 'platform/legacy-unknown'; });
    const obj = structuredClone(old);
    obj.metadata.labels = { a: 'b' };
    assert.deepEqual(validateCsrMainUpdate(obj, old), []);
  });

  it('old unknown and duplicate usages are tolerated', () => {
    const old = stored((o) => { o.spec.usages = ['foo', 'foo']; });
    assert.deepEqual(validateCsrMainUpdate(structuredClone(old), old), []);
    const opts = validationOptions(old, old);
    assert.equal(opts.allowUnknownUsages, true);
    assert.equal(opts.allowDuplicateUsages, true);
  });

  it('old Approved+Denied, duplicate and empty types are tolerated', () => {
    const old = stored((o) => {
      o.status.conditions = [
        { type: 'Approved', status: 'True' }, { type: 'Denied', status: 'True' },
        { type: 'X', status: 'True' }, { type: 'X', status: 'True' }, { type: '', status: 'True' },
      ];
    });
    const obj = structuredClone(old);
    obj.status.conditions.push({ type: 'Failed', status: 'True' });
    assert.deepEqual(validateCsrStatusUpdate(obj, old), []);
  });

  it('an invalid old certificate allows an arbitrary new one (but not a change of it)', () => {
    const old = stored((o) => { o.status.certificate = b64('not a certificate'); });
    assert.equal(validationOptions(old, old).allowArbitraryCertificate, true);
    const obj = structuredClone(old);
    obj.status.certificate = b64('still not one');
    assert.deepEqual(validateCsrStatusUpdate(obj, old).map((e) => e.message),
      ['Forbidden: updates may not modify existing certificate content']);
  });

  it('a modified Approved condition outside /approval is forbidden with a diff', () => {
    const old = stored((o) => { o.status.conditions = [{ type: 'Approved', status: 'True', reason: 'A' }]; });
    const obj = structuredClone(old);
    obj.status.conditions[0].reason = 'B';
    const errs = validateCsrUpdate(obj, old, validationOptions(obj, old));
    assert.equal(errs.length, 1);
    assert.equal(errs[0]!.field, 'status.conditions');
    const [head, ...diff] = errs[0]!.message.split('\n');
    assert.equal(head, 'Forbidden: updates may not modify a condition of type "Approved"');
    assert.ok(diff.includes('-     "reason": "A"'), diff.join('\n'));
    assert.ok(diff.includes('+     "reason": "B"'), diff.join('\n'));
  });

  it('the request is judged by its bytes on every update: a broken signature stays refused, a good one passes', () => {
    // The parse and signature check are remembered by digest; the answer must not depend on it.
    const bad = stored((o) => { o.spec.request = b64(fx.badSignatureCsrPem); });
    for (let i = 0; i < 2; i++) {
      const obj = structuredClone(bad);
      const errs = validateCsrUpdate(obj, bad, validationOptions(obj, bad)).filter((e) => e.field === 'spec.request');
      assert.equal(errs.length, 1, show(errs));
    }
    const good = stored(() => {});
    for (let i = 0; i < 2; i++) {
      const obj = structuredClone(good);
      assert.deepEqual(validateCsrUpdate(obj, good, validationOptions(obj, good)), []);
    }
  });

  it('semantic equality ignores empty-vs-absent strings and time formatting', () => {
    const old = stored((o) => {
      o.status.conditions = [{ type: 'Approved', status: 'True', reason: '', lastUpdateTime: '2020-01-01T00:00:00Z' }];
    });
    const obj = structuredClone(old);
    obj.status.conditions = [{ type: 'Approved', status: 'True', lastUpdateTime: '2020-01-01T00:00:00.000Z' }];
    assert.deepEqual(validateCsrMainUpdate(obj, old), []);
  });

  it('errors are collected, not short-circuited, in upstream order', () => {
    const obj = baseCsr(fx);
    obj.spec.request = '';
    obj.spec.usages = ['foo', 'foo'];
    obj.spec.signerName = 'Bad/x';
    obj.spec.expirationSeconds = 10;
    csrStrategy.prepareForCreate!(ctx(''), obj);
    obj.status = { conditions: [{ type: 'Failed', status: 'No' }], certificate: b64('x') };
    assert.deepEqual(csrStrategy.validate(ctx(''), obj).map((e) => e.field), [
      'spec.request', 'spec.usages[0]', 'spec.usages[1]', 'spec.usages[1]', 'spec.signerName', 'spec.signerName',
      'spec.expirationSeconds', 'status.conditions[0].status', 'status.certificate',
    ]);
  });
});

describe('validateSignerName', () => {
  const msgs = (name: string): string[] => validateSignerName('f', name).map((e) => e.message);

  it('accepts well-known and custom names', () => {
    for (const n of ['platform/apiserver-client', 'platform/nodeagent-serving', 'example.com/a', 'a.b.c/x.y-z', 'platform/a.b']) {
      assert.deepEqual(msgs(n), [], n);
    }
  });

  it('keeps the two-segment rule for other single-label domains', () => {
    assert.deepEqual(msgs('platformx/a'), ['Invalid value: "platformx": should be a domain with at least two segments separated by dots']);
    assert.deepEqual(msgs('kubernetes/a'), ['Invalid value: "kubernetes": should be a domain with at least two segments separated by dots']);
  });

  it('reports a bad label and the missing second segment together', () => {
    assert.deepEqual(msgs('Bad/x'), [
      'Invalid value: "Bad": validating label "Bad": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
      'Invalid value: "Bad": should be a domain with at least two segments separated by dots',
    ]);
  });

  it('stops at the first bad domain label and reports a long uppercase label twice', () => {
    const long = 'A'.repeat(64);
    const out = msgs(`${long}.B.com/x`);
    assert.equal(out.length, 2);
    assert.match(out[0]!, /validating label "A{64}": must be no more than 63 characters$/);
    assert.match(out[1]!, /validating label "A{64}": a lowercase RFC 1123 label must/);
  });

  it('DNS-1123 label helper', () => {
    assert.deepEqual(isDns1123Label('a.b'), ['must not contain dots']);
    assert.deepEqual(isDns1123Label('-a'), [msgs('-a.com/x')[0]!.replace(/^Invalid value: "-a.com": validating label "-a": /, '')]);
  });

  it('returns Required alone for empty', () => {
    assert.deepEqual(validateSignerName('spec.signerName', ''), [
      { type: 'FieldValueRequired', field: 'spec.signerName', message: 'Required value' },
    ]);
  });
});

describe('status.certificate PEM handling', () => {
  const fx = fixtures();
  const err = (text: string): string | undefined => certificateDataError(Buffer.from(text, 'latin1'));

  it('accepts CRLF line endings and skips a malformed block before a good one', () => {
    assert.equal(err(fx.certPem.replace(/\n/g, '\r\n')), undefined);
    assert.equal(err(`-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n${fx.certPem}`), undefined);
  });

  it('accepts several certificates in one block', () => {
    const der = Buffer.concat([Buffer.from(fx.certPem.split('\n').slice(1, -2).join(''), 'base64'),
      Buffer.from(fx.otherCertPem.split('\n').slice(1, -2).join(''), 'base64')]);
    assert.equal(err(pem('CERTIFICATE', der)), undefined);
  });

  it('rejects trailing bytes after a certificate in a block', () => {
    const der = Buffer.concat([Buffer.from(fx.certPem.split('\n').slice(1, -2).join(''), 'base64'), Buffer.from([0, 0])]);
    assert.equal(err(pem('CERTIFICATE', der)), 'x509: malformed certificate');
  });

  it('a mismatched END line is not a block', () => {
    assert.equal(err('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATES-----\n'), 'must contain at least one CERTIFICATE PEM block');
  });
});

describe('table printer', () => {
  const csr = (conditions: string[], certificate?: string): any => ({
    metadata: { name: 'n' }, spec: {},
    status: { conditions: conditions.map((type) => ({ type, status: 'True' })), ...(certificate ? { certificate } : {}) },
  });

  it('Condition precedence', () => {
    assert.equal(csrConditionString(csr([])), 'Pending');
    assert.equal(csrConditionString({ metadata: {}, spec: {} } as any), 'Pending');
    assert.equal(csrConditionString(csr(['Approved'])), 'Approved');
    assert.equal(csrConditionString(csr(['Approved', 'Denied'])), 'Denied');
    assert.equal(csrConditionString(csr(['Approved', 'Failed'])), 'Approved,Failed');
    assert.equal(csrConditionString(csr(['Approved'], 'Y2VydA==')), 'Approved,Issued');
    assert.equal(csrConditionString(csr(['Failed', 'Denied'], 'Y2VydA==')), 'Denied,Failed,Issued');
    assert.equal(csrConditionString(csr(['Custom'])), 'Pending');
  });

  it('columns and cells', () => {
    assert.deepEqual(csrTablePrinter.columns.map((c) => [c.name, c.type, c.format, c.priority]), [
      ['Name', 'string', 'name', 0], ['Age', 'string', '', 0], ['SignerName', 'string', '', 0],
      ['Requestor', 'string', '', 0], ['RequestedDuration', 'string', '', 0], ['Condition', 'string', '', 0],
    ]);
    for (const c of csrTablePrinter.columns) assert.ok(c.description.length > 0);
    const obj: any = {
      metadata: { name: 'my-csr', creationTimestamp: '2026-07-01T11:55:00Z' },
      spec: { signerName: 'example.com/x', username: 'alice', expirationSeconds: 3600 },
      status: {},
    };
    assert.deepEqual(csrTablePrinter.cells(obj, NOW), ['my-csr', '5m', 'example.com/x', 'alice', '60m', 'Pending']);
    assert.deepEqual(csrTablePrinter.cells({ metadata: { name: 'x' }, spec: {} } as any, NOW), ['x', '<unknown>', '<none>', '', '<none>', 'Pending']);
  });
});

describe('humanDuration', () => {
  const s = 1000;
  const m = 60 * s;
  const h = 60 * m;
  const d = 24 * h;
  const y = 365 * d;
  const table: [number, string][] = [
    [-2 * s, '<invalid>'], [-1999, '0s'], [-1 * s, '0s'], [0, '0s'], [999, '0s'], [s, '1s'],
    [119 * s, '119s'], [120 * s, '2m'], [150 * s, '2m30s'], [9 * m + 59 * s, '9m59s'],
    [600 * s, '10m'], [10 * m + 30 * s, '10m'], [3600 * s, '60m'], [3 * h - s, '179m'],
    [3 * h, '3h'], [3 * h + 30 * m, '3h30m'], [8 * h - s, '7h59m'], [8 * h, '8h'],
    [86400 * s, '24h'], [48 * h - s, '47h'], [48 * h, '2d'], [50 * h, '2d2h'], [8 * d - s, '7d23h'],
    [8 * d, '8d'], [31536000 * s, '365d'], [2 * y - s, '729d'], [2 * y, '2y'], [2 * y + 3 * d, '2y3d'],
    [8 * y - s, '7y364d'], [8 * y, '8y'], [20 * y + 100 * d, '20y'],
  ];
  for (const [ms, want] of table) it(`${ms} ms -> ${want}`, () => assert.equal(humanDuration(ms), want));

  it('shortHumanDuration', () => {
    assert.deepEqual([-3 * s, -s, 59 * s, 60 * s, 59 * m, h, 23 * h, d, 364 * d, y, 3 * y].map(shortHumanDuration),
      ['<invalid>', '0s', '59s', '1m', '59m', '1h', '23h', '1d', '364d', '1y', '3y']);
  });
});

describe('resource definition and plugin', () => {
  it('describes the resource', () => {
    assert.equal(csrResource.group, 'certificates.platform');
    assert.equal(csrResource.plural, 'certificatesigningrequests');
    assert.deepEqual(csrResource.shortNames, ['csr']);
    assert.equal(csrResource.scope, 'Cluster');
    assert.deepEqual(csrResource.subresources?.map((s) => s.name), ['status', 'approval']);
    assert.deepEqual(csrResource.selectableFields!(baseCsr(fixtures())), { 'spec.signerName': 'example.com/my-signer' });
  });

  it('schema carries the wire formats', () => {
    const schema = csrResource.schema;
    const spec = schema.properties!['spec']!;
    const status = schema.properties!['status']!;
    assert.deepEqual(schema.required, ['spec']);
    assert.deepEqual(spec.required, ['request', 'signerName']);
    assert.equal(spec.properties!['request']!.format, 'byte');
    assert.equal(spec.properties!['expirationSeconds']!.format, 'int32');
    assert.equal(spec.properties!['usages']!['x-kubernetes-list-type'], 'atomic');
    assert.equal(spec.properties!['groups']!['x-kubernetes-list-type'], 'atomic');
    const conds = status.properties!['conditions']!;
    assert.deepEqual(conds['x-kubernetes-list-map-keys'], ['type']);
    assert.deepEqual(conds.items!.required, ['type', 'status']);
    assert.equal(status.properties!['certificate']!.format, 'byte');
    assert.ok(schema.properties!['metadata']);
    const undescribed: string[] = [];
    const walk = (s: any, path: string): void => {
      for (const [k, v] of Object.entries<any>(s.properties ?? {})) {
        if (!v.description) undescribed.push(`${path}.${k}`);
        walk(v.items ?? v, `${path}.${k}`);
      }
    };
    walk({ properties: { spec, status } }, '');
    assert.deepEqual(undescribed, []);
  });

  it('the plugin registers the resource on the resources hook', () => {
    const host = new Host({ role: 'test' });
    CertificatesResourcePlugin.apply(host, undefined);
    const registered: ResourceDefinition<any>[] = [];
    const registry = { register: (d: ResourceDefinition<any>) => registered.push(d) } as unknown as ResourceRegistry;
    host.hooks.resources.call(registry);
    assert.deepEqual(registered, [csrResource]);
    assert.equal(CertificatesResourcePlugin.name, 'CertificatesResourcePlugin');
  });

  it('all 23 usages are known', () => assert.equal(VALID_USAGES.length, 23));
});
