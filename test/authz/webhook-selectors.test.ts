// The Webhook authorizer and selectors (AuthorizeWithSelectors, on in 1.32), against a real HTTPS
// SubjectAccessReview webhook on loopback: a list's or watch's fieldSelector and labelSelector
// reach the webhook as requirements (v1 and v1beta1), an access review's selectors are validated,
// forwarded and noted in evaluationError when they do not parse; and an answer without kind or
// apiVersion is read as the kind asked, one of another version is an error.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import type { Attributes } from '../../core/authz/attributes.js';
import { authorize } from '../../core/authz/authorize.js';
import { selectorsFromQuery } from '../../core/authz/selector-attributes.js';
import { AuthorizationModeFlag, boot } from '../auth/support.js';
import { createWebhookAuthorizer } from '../../plugins/authz-webhook/index.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { SarWebhook, as, resourceAttrs, tempDir, writeKubeconfig, writeTokenFile } from './support.js';

const webhook = new SarWebhook();
let dir: string;
let kubeconfig: string;

before(async () => {
  dir = tempDir('plat-authz-selectors-');
  await webhook.start();
  kubeconfig = writeKubeconfig(dir, webhook.url, webhook.caPem);
  // By user name: allowed-* allowed; bare-* allowed by a body with status only; other-version-*
  // allowed by a v1beta1 body whatever was asked; others no opinion.
  webhook.answer = ({ spec }) => {
    const user: string = spec?.user ?? '';
    if (user.startsWith('allowed')) return { status: { allowed: true } };
    if (user.startsWith('bare')) return { http: 200, body: '{"status":{"allowed":true}}' };
    if (user.startsWith('no-kind')) return { http: 200, body: '{"apiVersion":"authorization.k8s.io/v1","status":{"allowed":true}}' };
    if (user.startsWith('other-version')) return { http: 200, body: '{"apiVersion":"authorization.k8s.io/v1beta1","kind":"SubjectAccessReview","status":{"allowed":true}}' };
    return { status: { allowed: false, reason: 'no idea' } };
  };
});
after(async () => {
  await webhook.stop();
  rmSync(dir, { recursive: true, force: true });
});

const bootWebhook = (version: string) =>
  boot([AuthorizationModeFlag, createWebhookAuthorizer({ sleep: async () => {} })],
    ['--authorization-mode=Webhook', `--authorization-webhook-config-file=${kubeconfig}`, `--authorization-webhook-version=${version}`]);

const FIELD = 'spec.signerName=example.com/x,metadata.name!=y';
const LABEL = 'size>3,tier,app in (b,a),!legacy,env!=prod,zone==eu';
/** resourceAttributesFrom: `=` `==` `in` are In, `!=` `notin` NotIn, `>` left out, keys sorted as the parser sorts them. */
const SELECTORS_WIRE = {
  fieldSelector: { requirements: [
    { key: 'metadata.name', operator: 'NotIn', values: ['y'] },
    { key: 'spec.signerName', operator: 'In', values: ['example.com/x'] },
  ] },
  labelSelector: { requirements: [
    { key: 'app', operator: 'In', values: ['a', 'b'] },
    { key: 'env', operator: 'NotIn', values: ['prod'] },
    { key: 'legacy', operator: 'DoesNotExist' },
    { key: 'tier', operator: 'Exists' },
    { key: 'zone', operator: 'In', values: ['eu'] },
  ] },
};

const listing = (user: string, selectors = selectorsFromQuery(FIELD, LABEL)): Attributes =>
  resourceAttrs({ name: user, groups: ['g'] }, { verb: 'list', ...(selectors ? { selectors } : {}) });

describe('WebhookAuthorizer and selectors at the hook level', () => {
  for (const [version, groupsKey] of [['v1', 'groups'], ['v1beta1', 'group']] as const) {
    it(`sends a list's selectors as requirements in ${version}`, async () => {
      const b = bootWebhook(version);
      const n = webhook.calls.length;
      await authorize(b.host, listing(`quiet-${version}`));
      assert.equal(webhook.calls[n]!.apiVersion, `authorization.k8s.io/${version}`);
      assert.deepEqual(webhook.calls[n]!.spec, {
        resourceAttributes: { verb: 'list', group: 'certificates.platform', version: 'v1', resource: 'certificatesigningrequests', ...SELECTORS_WIRE },
        user: `quiet-${version}`, [groupsKey]: ['g'],
      });
    });
  }

  it('caches per selector: the same list with other selectors is another question', async () => {
    const b = bootWebhook('v1');
    await authorize(b.host, listing('allowed-cache'));
    await authorize(b.host, listing('allowed-cache'));
    await authorize(b.host, listing('allowed-cache', selectorsFromQuery('', 'app=c')));
    await authorize(b.host, resourceAttrs({ name: 'allowed-cache', groups: ['g'] }, { verb: 'list' }));
    assert.equal(webhook.callsFor('allowed-cache').length, 3);
  });

  it('leaves out a selector that does not parse, and one with only unknown operators', async () => {
    const b = bootWebhook('v1');
    await authorize(b.host, listing('quiet-unparsed', selectorsFromQuery('a=b=c', 'size>3')));
    assert.deepEqual(webhook.callsFor('quiet-unparsed')[0]!.spec.resourceAttributes,
      { verb: 'list', group: 'certificates.platform', version: 'v1', resource: 'certificatesigningrequests' });
  });

  it('reads an answer without kind or apiVersion as the kind asked; one of another version is an error', async () => {
    for (const version of ['v1', 'v1beta1']) {
      const b = bootWebhook(version);
      assert.deepEqual(await authorize(b.host, resourceAttrs({ name: `bare-${version}` })), { decision: 'allow' });
    }
    const v1 = bootWebhook('v1');
    assert.deepEqual(await authorize(v1.host, resourceAttrs({ name: 'no-kind-1' })), { decision: 'allow' });
    await assert.rejects(authorize(v1.host, resourceAttrs({ name: 'other-version-1' })), { name: 'AuthorizationError' });
    assert.ok(v1.logs.some((l) => l.includes('Failed to make webhook authorizer request')
      && l.includes('apiVersion is "authorization.k8s.io/v1beta1", expected "authorization.k8s.io/v1"')), v1.logs.join('\n'));
  });
});

describe('WebhookAuthorizer and selectors end to end (plat all, --authorization-mode=Webhook)', () => {
  let plat: RunningPlat;
  const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
  const SAR = '/apis/authorization.platform/v1/subjectaccessreviews';

  before(async () => {
    plat = await startInProcess({
      args: [
        '--authorization-mode=Webhook', `--authorization-webhook-config-file=${kubeconfig}`, '--authorization-webhook-version=v1',
        `--token-auth-file=${writeTokenFile(dir, { 'allowed-alice': [], 'quiet-lister': [], 'quiet-getter': [] })}`,
      ],
    });
  });
  after(async () => { await plat.stop(); });

  it('a list and a watch carry the query selectors; a get does not', async () => {
    const q = `fieldSelector=${encodeURIComponent(FIELD)}&labelSelector=${encodeURIComponent(LABEL)}`;
    assert.equal((await as(plat, 'quiet-lister').get(`${CSRS}?${q}`)).status, 403);
    assert.equal((await as(plat, 'quiet-lister').get(`${CSRS}?watch=1&${q}`)).status, 403);
    assert.equal((await as(plat, 'quiet-getter').get(`${CSRS}/one?${q}`)).status, 403);
    const [list, watch] = webhook.callsFor('quiet-lister');
    assert.deepEqual(list!.spec.resourceAttributes, { verb: 'list', group: 'certificates.platform', version: 'v1', resource: 'certificatesigningrequests', ...SELECTORS_WIRE });
    assert.deepEqual(watch!.spec.resourceAttributes, { ...list!.spec.resourceAttributes, verb: 'watch' });
    assert.deepEqual(webhook.callsFor('quiet-getter')[0]!.spec.resourceAttributes,
      { verb: 'get', group: 'certificates.platform', version: 'v1', resource: 'certificatesigningrequests', name: 'one' });
  });

  const review = (user: string, resourceAttributes: Record<string, unknown>) => as(plat, 'allowed-alice').post(SAR, {
    apiVersion: 'authorization.platform/v1', kind: 'SubjectAccessReview',
    spec: { user, resourceAttributes: { verb: 'list', group: 'certificates.platform', resource: 'certificatesigningrequests', ...resourceAttributes } },
  });

  it('a review forwards its selectors, raw or as requirements, to the webhook', async () => {
    let r = await review('quiet-raw', { fieldSelector: { rawSelector: FIELD }, labelSelector: { rawSelector: LABEL } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json.status, { allowed: false, reason: 'no idea' });
    assert.deepEqual(webhook.callsFor('quiet-raw')[0]!.spec.resourceAttributes,
      { verb: 'list', group: 'certificates.platform', version: '*', resource: 'certificatesigningrequests', ...SELECTORS_WIRE });

    // Requirements keep their order and values as given; ones that do not convert are dropped and noted.
    r = await review('quiet-reqs', {
      fieldSelector: { requirements: [{ key: 'spec.signerName', operator: 'In', values: ['x'] }, { key: 'a', operator: 'Exists' }] },
      labelSelector: { requirements: [{ key: 'app', operator: 'NotIn', values: ['z', 'y'] }, { key: 'b', operator: 'Gt', values: ['1'] }] },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json.status, {
      allowed: false, reason: 'no idea',
      evaluationError: 'spec.resourceAttributes.fieldSelector partially ignored due to parse error; spec.resourceAttributes.labelSelector partially ignored due to parse error',
    });
    assert.deepEqual(webhook.callsFor('quiet-reqs')[0]!.spec.resourceAttributes, {
      verb: 'list', group: 'certificates.platform', version: '*', resource: 'certificatesigningrequests',
      fieldSelector: { requirements: [{ key: 'spec.signerName', operator: 'In', values: ['x'] }] },
      labelSelector: { requirements: [{ key: 'app', operator: 'NotIn', values: ['z', 'y'] }] },
    });

    r = await review('quiet-unparsed', { fieldSelector: { rawSelector: 'a=b=c' }, labelSelector: { rawSelector: 'a in' } });
    assert.equal(r.json.status.evaluationError,
      'spec.resourceAttributes.fieldSelector ignored due to parse error; spec.resourceAttributes.labelSelector ignored due to parse error');
    assert.equal(webhook.callsFor('quiet-unparsed')[0]!.spec.resourceAttributes.fieldSelector, undefined);
  });

  const P = 'spec.resourceAttributes';
  const INVALID: [string, Record<string, unknown>, string][] = [
    ['both raw and requirements', { fieldSelector: { rawSelector: 'a=b', requirements: [{ key: 'a', operator: 'In', values: ['b'] }] } },
      `${P}.fieldSelector.rawSelector: Invalid value: "a=b": may not specified at the same time as requirements`],
    ['neither', { labelSelector: {} },
      `${P}.labelSelector.requirements: Required value: when ${P}.labelSelector is specified, requirements or rawSelector is required`],
    ['field key missing', { fieldSelector: { requirements: [{ key: '', operator: 'In', values: ['b'] }] } },
      `${P}.fieldSelector.requirements[0].key: Required value: must be specified`],
    ['In without values', { fieldSelector: { requirements: [{ key: 'a', operator: 'NotIn' }] } },
      `${P}.fieldSelector.requirements[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`],
    ['Exists with values', { labelSelector: { requirements: [{ key: 'a', operator: 'Exists', values: ['x'] }] } },
      `${P}.labelSelector.requirements[0].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`],
    ['bad label key and value', { labelSelector: { requirements: [{ key: 'a b', operator: 'In', values: ['ok', 'not ok'] }] } },
      `[${P}.labelSelector.requirements[0].key: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), ` +
      `${P}.labelSelector.requirements[0].values[1]: Invalid value: "not ok": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]`],
  ];
  for (const [name, selectors, message] of INVALID) {
    it(`a review's selectors are validated: ${name}`, async () => {
      const r = await review('quiet-invalid', selectors);
      assert.equal(r.status, 422, r.text);
      assert.equal(r.json.message, `.authorization.platform "" is invalid: ${message}`);
    });
  }

  it('an unknown operator is no validation error (a newer client\'s), only not used', async () => {
    const r = await review('quiet-unknown-op', { labelSelector: { requirements: [{ key: 'a', operator: 'Near', values: ['x'] }] } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.status.evaluationError, 'spec.resourceAttributes.labelSelector ignored due to parse error');
  });
});
