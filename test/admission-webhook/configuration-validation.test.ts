// Validation and defaulting of ValidatingWebhookConfiguration and MutatingWebhookConfiguration
// over HTTPS: every rule answers 422 with upstream's field paths and messages.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { MWC, VWC } from './support.js';

const URL_FORM = '; desired format: https://host[/path]';
const base = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'hook.example.com', clientConfig: { url: 'https://webhook.example.com/validate' },
  rules: [{ operations: ['CREATE'], apiGroups: ['certificates.platform'], apiVersions: ['v1'], resources: ['certificatesigningrequests'] }],
  sideEffects: 'None', admissionReviewVersions: ['v1'], ...overrides,
});
const rule = (overrides: Record<string, unknown>) => ({ rules: [{ operations: ['CREATE'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], ...overrides }] });
const without = (key: string) => { const h = base(); delete h[key]; return h; };

type Cause = [field: string, message: string];
const cases: { name: string; webhooks: Record<string, unknown>[]; causes: Cause[]; mutating?: boolean }[] = [
  { name: 'name missing', webhooks: [base({ name: '' })], causes: [['webhooks[0].name', 'Required value']] },
  { name: 'name with two segments', webhooks: [base({ name: 'two.parts' })], causes: [['webhooks[0].name', 'Invalid value: "two.parts": should be a domain with at least three segments separated by dots']] },
  {
    name: 'name not a DNS subdomain', webhooks: [base({ name: 'Hook.example.com' })],
    causes: [['webhooks[0].name', `Invalid value: "Hook.example.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`]],
  },
  { name: 'duplicate names', webhooks: [base(), base()], causes: [['webhooks[1].name', 'Duplicate value: "hook.example.com"']] },
  { name: 'url and service', webhooks: [base({ clientConfig: { url: 'https://a.example.com', service: { namespace: 'ns', name: 'svc' } } })], causes: [['webhooks[0].clientConfig', 'Required value: exactly one of url or service is required']] },
  { name: 'neither url nor service', webhooks: [base({ clientConfig: {} })], causes: [['webhooks[0].clientConfig', 'Required value: exactly one of url or service is required']] },
  { name: 'http url', webhooks: [base({ clientConfig: { url: 'http://a.example.com/x' } })], causes: [['webhooks[0].clientConfig.url', `Invalid value: "http": 'https' is the only allowed URL scheme${URL_FORM}`]] },
  { name: 'url without host', webhooks: [base({ clientConfig: { url: 'https:///x' } })], causes: [['webhooks[0].clientConfig.url', `Invalid value: "": host must be provided${URL_FORM}`]] },
  { name: 'url with user', webhooks: [base({ clientConfig: { url: 'https://user:pass@a.example.com/x' } })], causes: [['webhooks[0].clientConfig.url', 'Invalid value: "user:pass": user information is not permitted in the URL']] },
  { name: 'url with fragment', webhooks: [base({ clientConfig: { url: 'https://a.example.com/x#frag' } })], causes: [['webhooks[0].clientConfig.url', 'Invalid value: "frag": fragments are not permitted in the URL']] },
  { name: 'url with query', webhooks: [base({ clientConfig: { url: 'https://a.example.com/x?a=b' } })], causes: [['webhooks[0].clientConfig.url', 'Invalid value: "a=b": query parameters are not permitted in the URL']] },
  { name: 'url that does not parse', webhooks: [base({ clientConfig: { url: 'https://[::1/x' } })], causes: [['webhooks[0].clientConfig.url', `Required value: url must be a valid URL: parse "https://[::1/x": missing ']' in host${URL_FORM}`]] },
  { name: 'url without scheme', webhooks: [base({ clientConfig: { url: '://a.example.com' } })], causes: [['webhooks[0].clientConfig.url', `Required value: url must be a valid URL: parse "://a.example.com": missing protocol scheme${URL_FORM}`]] },
  {
    name: 'service without name and namespace, bad port and path',
    webhooks: [base({ clientConfig: { service: { namespace: '', name: '', port: 0, path: 'x//Y' } } })],
    causes: [
      ['webhooks[0].clientConfig.service.name', 'Required value: service name is required'],
      ['webhooks[0].clientConfig.service.namespace', 'Required value: service namespace is required'],
      ['webhooks[0].clientConfig.service.port', 'Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive'],
      ['webhooks[0].clientConfig.service.path', `Invalid value: "x//Y": must start with a '/'`],
      // Upstream drops the first character before splitting even when it is not '/'.
      ['webhooks[0].clientConfig.service.path', 'Invalid value: "x//Y": segment[0] may not be empty'],
      ['webhooks[0].clientConfig.service.path', 'Invalid value: "x//Y": segment[1] may not be empty'],
      ['webhooks[0].clientConfig.service.path', `Invalid value: "x//Y": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`],
    ],
  },
  {
    name: 'rule without operations, groups, versions, resources', webhooks: [base({ rules: [{}] })],
    causes: [
      ['webhooks[0].rules[0].operations', 'Required value'], ['webhooks[0].rules[0].apiGroups', 'Required value'],
      ['webhooks[0].rules[0].apiVersions', 'Required value'], ['webhooks[0].rules[0].resources', 'Required value'],
    ],
  },
  { name: 'unknown operation', webhooks: [base(rule({ operations: ['PATCH'] }))], causes: [['webhooks[0].rules[0].operations[0]', 'Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"']] },
  { name: "'*' with other operations", webhooks: [base(rule({ operations: ['*', 'CREATE'] }))], causes: [['webhooks[0].rules[0].operations', `Invalid value: ["*","CREATE"]: if '*' is present, must not specify other operations`]] },
  { name: "'*' with other groups and versions", webhooks: [base(rule({ apiGroups: ['*', 'a'], apiVersions: ['*', ''] }))], causes: [
    ['webhooks[0].rules[0].apiGroups', `Invalid value: ["*","a"]: if '*' is present, must not specify other API groups`],
    ['webhooks[0].rules[0].apiVersions', `Invalid value: ["*",""]: if '*' is present, must not specify other API versions`],
    ['webhooks[0].rules[0].apiVersions[1]', 'Required value'],
  ] },
  { name: "'*' with a plain resource", webhooks: [base(rule({ resources: ['*', 'secrets'] }))], causes: [['webhooks[0].rules[0].resources', `Invalid value: ["*","secrets"]: if '*' is present, must not specify other resources without subresources`]] },
  { name: "'*/*' with anything else", webhooks: [base(rule({ resources: ['*/*', 'secrets/status'] }))], causes: [['webhooks[0].rules[0].resources', `Invalid value: ["*/*","secrets/status"]: if '*/*' is present, must not specify other resources`]] },
  { name: 'overlapping subresource wildcards', webhooks: [base(rule({ resources: ['csrs/*', 'csrs/approval', '*/status', 'x/status', ''] }))], causes: [
    ['webhooks[0].rules[0].resources[1]', `Invalid value: "csrs/approval": if 'csrs/*' is present, must not specify csrs/approval`],
    ['webhooks[0].rules[0].resources[3]', `Invalid value: "x/status": if '*/status' is present, must not specify x/status`],
    ['webhooks[0].rules[0].resources[4]', 'Required value'],
  ] },
  { name: 'unknown scope', webhooks: [base(rule({ scope: 'Everywhere' }))], causes: [['webhooks[0].rules[0].scope', 'Unsupported value: "Everywhere": supported values: "*", "Cluster", "Namespaced"']] },
  { name: 'unknown failurePolicy', webhooks: [base({ failurePolicy: 'Maybe' })], causes: [['webhooks[0].failurePolicy', 'Unsupported value: "Maybe": supported values: "Fail", "Ignore"']] },
  { name: 'unknown matchPolicy', webhooks: [base({ matchPolicy: 'Fuzzy' })], causes: [['webhooks[0].matchPolicy', 'Unsupported value: "Fuzzy": supported values: "Equivalent", "Exact"']] },
  { name: 'sideEffects missing', webhooks: [without('sideEffects')], causes: [['webhooks[0].sideEffects', 'Required value: must specify one of None, NoneOnDryRun']] },
  { name: 'sideEffects Some', webhooks: [base({ sideEffects: 'Some' })], causes: [['webhooks[0].sideEffects', 'Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']] },
  { name: 'timeout 0', webhooks: [base({ timeoutSeconds: 0 })], causes: [['webhooks[0].timeoutSeconds', 'Invalid value: 0: the timeout value must be between 1 and 30 seconds']] },
  { name: 'timeout 31', webhooks: [base({ timeoutSeconds: 31 })], causes: [['webhooks[0].timeoutSeconds', 'Invalid value: 31: the timeout value must be between 1 and 30 seconds']] },
  { name: 'admissionReviewVersions missing', webhooks: [without('admissionReviewVersions')], causes: [['webhooks[0].admissionReviewVersions', 'Required value: must specify one of v1, v1beta1']] },
  { name: 'admissionReviewVersions unknown', webhooks: [base({ admissionReviewVersions: ['v2'] })], causes: [['webhooks[0].admissionReviewVersions', 'Invalid value: ["v2"]: must include at least one of v1, v1beta1']] },
  { name: 'admissionReviewVersions duplicate and malformed', webhooks: [base({ admissionReviewVersions: ['v1', 'v1', 'V2'] })], causes: [
    ['webhooks[0].admissionReviewVersions[1]', 'Invalid value: "v1": duplicate version'],
    ['webhooks[0].admissionReviewVersions[2]', `Invalid value: "V2": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`],
  ] },
  {
    name: 'selectors', webhooks: [base({
      namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'Like', values: ['x'] }, { key: 'env', operator: 'In' }, { key: 'bad key', operator: 'Exists', values: ['x'] }] },
      objectSelector: { matchLabels: { team: 'not valid!' } },
    })],
    causes: [
      ['webhooks[0].namespaceSelector.matchExpressions[0].operator', 'Invalid value: "Like": not a valid selector operator'],
      ['webhooks[0].namespaceSelector.matchExpressions[1].values', "Required value: must be specified when `operator` is 'In' or 'NotIn'"],
      ['webhooks[0].namespaceSelector.matchExpressions[2].values', "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"],
      ['webhooks[0].namespaceSelector.matchExpressions[2].key', `Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`],
      ['webhooks[0].objectSelector.matchLabels', `Invalid value: "not valid!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`],
    ],
  },
  {
    name: 'matchConditions: names, expressions, duplicates', webhooks: [base({ matchConditions: [
      { name: '', expression: '  ' },
      { name: 'not ok', expression: 'true' },
      { name: 'dup', expression: 'true' },
      { name: 'dup', expression: 'request.nope == 1' },
      { name: 'syntax', expression: '1 +' },
      { name: 'not-bool', expression: 'object.metadata.name' },
      { name: 'undeclared', expression: 'params.x == 1' },
    ] })],
    causes: [
      ['webhooks[0].matchConditions[0].expression', 'Required value'],
      ['webhooks[0].matchConditions[0].name', 'Required value'],
      ['webhooks[0].matchConditions[1].name', `Invalid value: "not ok": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`],
      ['webhooks[0].matchConditions[3].expression', `Invalid value: "request.nope == 1": compilation failed: ERROR: <input>:1:8: undefined field 'nope'\n | request.nope == 1\n | .......^`],
      ['webhooks[0].matchConditions[3].name', 'Duplicate value: "dup"'],
      ['webhooks[0].matchConditions[4].expression', 'Invalid value: "1 +": compilation failed: ERROR: <input>:1:3: Syntax error: found + but expecting end of input\n | 1 +\n | ..^'],
      ['webhooks[0].matchConditions[5].expression', 'Invalid value: "object.metadata.name": must evaluate to bool'],
      ['webhooks[0].matchConditions[6].expression', `Invalid value: "params.x == 1": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.x == 1\n | ^`],
    ],
  },
  {
    name: 'more than 64 matchConditions',
    webhooks: [base({ matchConditions: Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' })) })],
    causes: [['webhooks[0].matchConditions', 'Too many: 65: must have at most 64 items']],
  },
  { name: 'unknown reinvocationPolicy', mutating: true, webhooks: [base({ reinvocationPolicy: 'Always' })], causes: [['webhooks[0].reinvocationPolicy', 'Unsupported value: "Always": supported values: "IfNeeded", "Never"']] },
];

describe('webhook configuration validation', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  for (const c of cases) {
    for (const mutating of c.mutating ? [true] : [false, true]) {
      const kind = mutating ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration';
      it(`${c.name} (${kind})`, async () => {
        const r = await plat.admin.post(mutating ? MWC : VWC, { apiVersion: 'admissionregistration.platform/v1', kind, metadata: { name: 'invalid' }, webhooks: c.webhooks });
        assert.equal(r.status, 422, r.text);
        assert.equal(r.json.reason, 'Invalid');
        assert.deepEqual(r.json.details.causes.map((x: { field: string; message: string }) => [x.field, x.message]), c.causes);
      });
    }
  }

  it('the message names the kind with its group, and lists several causes in brackets', async () => {
    const r = await plat.admin.post(VWC, { metadata: { name: 'two-problems' }, webhooks: [base({ timeoutSeconds: 40, failurePolicy: 'x' })] });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.message, 'ValidatingWebhookConfiguration.admissionregistration.platform "two-problems" is invalid: [webhooks[0].failurePolicy: Unsupported value: "x": supported values: "Fail", "Ignore", webhooks[0].timeoutSeconds: Invalid value: 40: the timeout value must be between 1 and 30 seconds]');
  });

  it('names are DNS subdomains', async () => {
    const r = await plat.admin.post(VWC, { metadata: { name: 'Not_A_Subdomain' }, webhooks: [] });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.details.causes[0].field, 'metadata.name');
  });

  it('fills upstream defaults on create, and validates updates by the same rules', async () => {
    const hook = base({ clientConfig: { service: { namespace: 'plat-system', name: 'hooks' } } });
    for (const [path, kind] of [[VWC, 'ValidatingWebhookConfiguration'], [MWC, 'MutatingWebhookConfiguration']] as const) {
      const r = await plat.admin.post(path, { metadata: { name: 'defaults' }, webhooks: [hook] });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.json.kind, kind);
      const w = (await plat.admin.get(`${path}/defaults`)).json.webhooks[0];
      assert.equal(w.failurePolicy, 'Fail');
      assert.equal(w.matchPolicy, 'Equivalent');
      assert.deepEqual(w.namespaceSelector, {});
      assert.deepEqual(w.objectSelector, {});
      assert.equal(w.timeoutSeconds, 10);
      assert.equal(w.rules[0].scope, '*');
      assert.equal(w.clientConfig.service.port, 443);
      assert.equal(w.reinvocationPolicy, kind === 'MutatingWebhookConfiguration' ? 'Never' : undefined);
      const bad = await plat.admin.patch(`${path}/defaults`, [{ op: 'replace', path: '/webhooks/0/timeoutSeconds', value: 99 }], 'application/json-patch+json');
      assert.equal(bad.status, 422, bad.text);
      assert.deepEqual(bad.json.details.causes.map((x: { field: string }) => x.field), ['webhooks[0].timeoutSeconds']);
      assert.equal((await plat.admin.delete(`${path}/defaults`)).status, 200);
    }
  });

  for (const [path, plural] of [[VWC, 'validatingwebhookconfigurations'], [MWC, 'mutatingwebhookconfigurations']] as const) {
    it(`${plural}: generation 1 on create; a PUT must name a resourceVersion (422 without)`, async () => {
      const c = await plat.admin.post(path, { metadata: { name: 'guarded', generation: 9 }, webhooks: [base()] });
      assert.equal(c.status, 201, c.text);
      assert.equal(c.json.metadata.generation, 1);
      const { resourceVersion: _rv, ...meta } = c.json.metadata;
      const blind = await plat.admin.put(`${path}/guarded`, { ...c.json, metadata: meta });
      assert.equal(blind.status, 422, blind.text);
      assert.equal(blind.json.message, `${plural}.admissionregistration.platform "guarded" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update`);
      const pinned = await plat.admin.put(`${path}/guarded`, { ...c.json, metadata: { ...c.json.metadata, labels: { a: 'b' } } });
      assert.equal(pinned.status, 200, pinned.text);
      assert.equal(pinned.json.metadata.generation, 1, 'labels are no new generation');
      // A change of the webhooks is (the strategy's bump survives the store's restoring of metadata).
      const changed = await plat.admin.put(`${path}/guarded`, { ...pinned.json, webhooks: [base({ name: 'other.example.com' })] });
      assert.equal(changed.status, 200, changed.text);
      assert.equal(changed.json.metadata.generation, 2);
      // Marked for deletion (a finalizer holds it): one more, as markAsDeleting counts it.
      const held = await plat.admin.patch(`${path}/guarded`, { metadata: { finalizers: ['example.com/hold'] } }, 'application/merge-patch+json');
      assert.equal(held.json.metadata.generation, 2);
      const marked = await plat.admin.delete(`${path}/guarded`);
      assert.equal(marked.json.metadata.generation, 3, marked.text);
      assert.ok(marked.json.metadata.deletionTimestamp);
      const released = await plat.admin.patch(`${path}/guarded`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
      assert.equal(released.status, 200, released.text);
      assert.equal((await plat.admin.get(`${path}/guarded`)).status, 404);
    });
  }

  it('lists as a table with the number of webhooks', async () => {
    assert.equal((await plat.admin.post(VWC, { metadata: { name: 'two-hooks' }, webhooks: [base(), base({ name: 'other.example.com' })] })).status, 201);
    const t = await plat.admin.get(VWC, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    assert.equal(t.status, 200, t.text);
    assert.deepEqual(t.json.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Webhooks', 'Age']);
    const row = t.json.rows.find((x: { cells: unknown[] }) => x.cells[0] === 'two-hooks');
    assert.equal(row.cells[1], 2);
    assert.equal((await plat.admin.delete(`${VWC}/two-hooks`)).status, 200);
  });
});
