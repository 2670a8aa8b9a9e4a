// --authorization-config: the AuthorizationConfiguration file's decoding and validation (a table of
// files and upstream's messages with their field paths), the chain it publishes, and the start-up
// refusals when it is combined with the flags it replaces.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from '../../core/plugin.js';
import { AuthorizationConfigPlugin, loadAuthorizerChain } from '../../plugins/authorization-config/index.js';
import { ApiServerPlugin } from '../../plugins/apiserver/index.js';
import { AlwaysAllowAuthorizer } from '../../plugins/authz-always/index.js';
import { boot } from '../auth/support.js';
import { startInProcess } from '../helpers/plat.js';
import { tempDir, writeKubeconfig } from './support.js';

let dir: string;
let kubeconfig: string;
let n = 0;

before(() => {
  dir = tempDir('plat-authz-config-');
  // Never dialled here: only read and checked.
  kubeconfig = writeKubeconfig(dir, 'https://127.0.0.1:1/authorize', '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n');
  mkdirSync(join(dir, 'a-directory'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function write(text: string, ext = 'yaml'): string {
  const file = join(dir, `authz-${n++}.${ext}`);
  writeFileSync(file, text);
  return file;
}

const HEADER = 'apiVersion: apiserver.platform/v1beta1\nkind: AuthorizationConfiguration\n';

/** A Webhook entry in YAML; `over` replaces or (with undefined) removes webhook fields. */
function webhook(name: string, over: Record<string, unknown> = {}): string {
  const fields: Record<string, unknown> = {
    timeout: '3s', subjectAccessReviewVersion: 'v1', matchConditionSubjectAccessReviewVersion: 'v1', failurePolicy: 'NoOpinion',
    connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig }, matchConditions: [],
    ...over,
  };
  for (const [k, v] of Object.entries(fields)) if (v === undefined) delete fields[k];
  return `- type: Webhook\n  name: ${name}\n  webhook: ${JSON.stringify(fields)}\n`;
}
const simple = (type: string, name = type.toLowerCase()) => `- type: ${type}\n  name: ${name}\n`;
const config = (...entries: string[]) => `${HEADER}authorizers:\n${entries.join('')}`;

/** The problems loadAuthorizerChain reports, without the flag and file prefix. */
function problems(text: string, ext = 'yaml'): string[] {
  const file = write(text, ext);
  try {
    loadAuthorizerChain(file);
  } catch (err) {
    assert.ok(err instanceof StartupError, String(err));
    assert.equal(err.exitCode, 1);
    const prefix = `--authorization-config: ${file}: `;
    assert.ok(err.message.startsWith(prefix), err.message);
    // One problem per line, except that a CEL error goes on over the lines of cel-go's caret display.
    return err.message.slice(prefix.length).split(`\n${prefix}`).flatMap((p) => p.split('\n'));
  }
  return [];
}

describe('AuthorizationConfiguration validation', () => {
  const cases: Array<[string, string, string[]]> = [
    ['no authorizers', config(), ['authorizers: Required value: at least one authorization mode must be defined']],
    ['an empty file', '', ['authorizers: Required value: at least one authorization mode must be defined']],
    ['a type missing', config('- name: x\n'), ['authorizers[0].type: Required value']],
    ['an unknown type', config(simple('Magic', 'magic')),
      ['authorizers[0].type: Unsupported value: "Magic": supported values: "ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", "Webhook"']],
    ['a non-Webhook type twice', config(simple('Node'), simple('Node', 'node2')), ['authorizers[1].type: Duplicate value: "Node"']],
    ['a name missing', config('- type: Node\n'), ['authorizers[0].name: Required value']],
    ['a name used twice', config(webhook('same'), webhook('same')), ['authorizers[1].name: Duplicate value: "same"']],
    ['a name that is not a DNS subdomain', config(webhook('Bad_Name')),
      ['authorizers[0].name: Invalid value: "Bad_Name": authorizer name is invalid: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')']],
    ['Webhook without webhook', config('- type: Webhook\n  name: w\n'), ['authorizers[0].webhook: Required value: required when type=Webhook']],
    ['webhook on another type', config('- type: RBAC\n  name: rbac\n  webhook: {timeout: 3s}\n'),
      ['authorizers[0].webhook: Invalid value: "non-null": may only be specified when type=Webhook']],
    ['timeout missing', config(webhook('w', { timeout: undefined })), ['authorizers[0].webhook.timeout: Required value']],
    ['timeout over 30s', config(webhook('w0'), webhook('w1', { timeout: '45s' })),
      ['authorizers[1].webhook.timeout: Invalid value: "45s": must be > 0s and <= 30s']],
    ['timeout negative', config(webhook('w', { timeout: '-1m' })), ['authorizers[0].webhook.timeout: Invalid value: "-1m0s": must be > 0s and <= 30s']],
    ['negative TTLs', config(webhook('w', { authorizedTTL: '-5s', unauthorizedTTL: '-1s' })), [
      'authorizers[0].webhook.authorizedTTL: Invalid value: "-5s": must be > 0s',
      'authorizers[0].webhook.unauthorizedTTL: Invalid value: "-1s": must be > 0s',
    ]],
    ['review version missing and unknown', config(webhook('a', { subjectAccessReviewVersion: undefined }), webhook('b', { subjectAccessReviewVersion: 'v2' })), [
      'authorizers[0].webhook.subjectAccessReviewVersion: Required value',
      'authorizers[1].webhook.subjectAccessReviewVersion: Unsupported value: "v2": supported values: "v1", "v1beta1"',
    ]],
    ['match condition version missing with conditions, and unsupported', config(
      webhook('a', { matchConditionSubjectAccessReviewVersion: undefined, matchConditions: [{ expression: 'true' }] }),
      webhook('b', { matchConditionSubjectAccessReviewVersion: 'v1beta1' })), [
      'authorizers[0].webhook.matchConditionSubjectAccessReviewVersion: Required value: required if match conditions are specified',
      'authorizers[1].webhook.matchConditionSubjectAccessReviewVersion: Unsupported value: "v1beta1": supported values: "v1"',
    ]],
    ['failurePolicy missing and unknown', config(webhook('a', { failurePolicy: undefined }), webhook('b', { failurePolicy: 'Sometimes' })), [
      'authorizers[0].webhook.failurePolicy: Required value',
      'authorizers[1].webhook.failurePolicy: Unsupported value: "Sometimes": supported values: "NoOpinion", "Deny"',
    ]],
    ['connectionInfo type missing and unknown', config(webhook('a', { connectionInfo: {} }), webhook('b', { connectionInfo: { type: 'ExternalClusterConfig' } })), [
      'authorizers[0].webhook.connectionInfo.type: Required value',
      'authorizers[1].webhook.connectionInfo.type: Unsupported value: "ExternalClusterConfig": supported values: "InClusterConfig", "KubeConfigFile"',
    ]],
    ['InClusterConfig, with and without a file', config(webhook('a', { connectionInfo: { type: 'InClusterConfig' } }), webhook('b', { connectionInfo: { type: 'InClusterConfig', kubeConfigFile: '' } })), [
      'authorizers[0].webhook.connectionInfo.type: Invalid value: "InClusterConfig": plat does not run in a cluster: use type KubeConfigFile',
      'authorizers[1].webhook.connectionInfo.kubeConfigFile: Invalid value: "": can only be set when type=KubeConfigFile',
    ]],
    ['kubeConfigFile missing, relative, absent, a directory', config(
      webhook('a', { connectionInfo: { type: 'KubeConfigFile' } }),
      webhook('b', { connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: 'relative.kubeconfig' } }),
      webhook('c', { connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: '/nonexistent/kubeconfig' } }),
      webhook('d', { connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: '<dir>' } })), [
      'authorizers[0].webhook.connectionInfo.kubeConfigFile: Required value',
      'authorizers[1].webhook.connectionInfo.kubeConfigFile: Invalid value: "relative.kubeconfig": must be an absolute path',
      'authorizers[2].webhook.connectionInfo.kubeConfigFile: Invalid value: "/nonexistent/kubeconfig": error loading file: stat /nonexistent/kubeconfig: no such file or directory',
      'authorizers[3].webhook.connectionInfo.kubeConfigFile: Invalid value: "<dir>": must be a regular file',
    ]],
    ['match conditions: empty, duplicate, undeclared, not bool, syntax', config(webhook('w', { matchConditions: [
      { expression: '  ' }, { expression: "request.user == 'admin'" }, { expression: "request.user == 'admin'" },
      { expression: 'test' }, { expression: 'request.user' }, { expression: "request.user = 'test'" }, { expression: 'request.resourceAttributes.nmespace == ""' },
    ] })), [
      'authorizers[0].webhook.matchConditions[0].expression: Required value',
      'authorizers[0].webhook.matchConditions[2].expression: Duplicate value: "request.user == \'admin\'"',
      'authorizers[0].webhook.matchConditions[3].expression: Invalid value: "test": compilation failed: ERROR: <input>:1:1: undeclared reference to \'test\' (in container \'\')',
      ' | test',
      ' | ^',
      'authorizers[0].webhook.matchConditions[4].expression: Invalid value: "request.user": must evaluate to bool but got string',
      'authorizers[0].webhook.matchConditions[5].expression: Invalid value: "request.user = \'test\'": compilation failed: ERROR: <input>:1:14: Syntax error: found = but expecting end of input',
      ' | request.user = \'test\'',
      ' | .............^',
      'authorizers[0].webhook.matchConditions[6].expression: Invalid value: "request.resourceAttributes.nmespace == \\"\\"": compilation failed: ERROR: <input>:1:27: undefined field \'nmespace\'',
      ' | request.resourceAttributes.nmespace == ""',
      ' | ..........................^',
    ]],
    ['more than 64 match conditions', config(webhook('w', { matchConditions: Array.from({ length: 65 }, (_, i) => ({ expression: `request.user != "u${i}"` })) })),
      ['authorizers[0].webhook.matchConditions: Too many: 65: must have at most 64 items']],
    ['a non-Webhook authorizer not named after its type', config(simple('Node', 'nodes'), simple('AlwaysDeny', 'deny')), [
      'expected name node for authorizer Node instead of nodes',
      'expected name alwaysdeny for authorizer AlwaysDeny instead of deny',
    ]],
  ];
  for (const [name, text, expected] of cases) {
    it(name, () => {
      const got = problems(text.replaceAll('<dir>', join(dir, 'a-directory')));
      assert.deepEqual(got, expected.map((e) => e.replaceAll('<dir>', join(dir, 'a-directory'))));
    });
  }

  it('decodes strictly: unknown fields, wrong types, bad durations, apiVersion and kind', () => {
    assert.deepEqual(problems(`${HEADER}authorizers:\n- type: Node\n  name: node\n  nmae: typo\n`), ['strict decoding error: unknown field "authorizers[0].nmae"']);
    assert.deepEqual(problems(config(webhook('w', { timeout: 5, retries: 3 }))), [
      'strict decoding error: unknown field "authorizers[0].webhook.retries"',
      'authorizers[0].webhook.timeout: must be a duration string such as "30s", not 5',
    ]);
    assert.deepEqual(problems(config(webhook('w', { authorizedTTL: '5 minutes', cacheAuthorizedRequests: 'yes' }))), [
      'authorizers[0].webhook.authorizedTTL: time: unknown unit " minutes" in duration "5 minutes"',
      'authorizers[0].webhook.cacheAuthorizedRequests: must be true or false, not "yes"',
    ]);
    assert.deepEqual(problems(`apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n${simple('Node')}`), [
      'apiVersion: Unsupported value: "apiserver.config.k8s.io/v1": supported values: "apiserver.platform/v1", "apiserver.platform/v1beta1" (plat\'s group is apiserver.platform: "apiserver.platform/v1")',
    ]);
    assert.deepEqual(problems(`apiVersion: apiserver.platform/v1beta1\nkind: AdmissionConfiguration\nauthorizers: []\n`),
      ['kind: Unsupported value: "AdmissionConfiguration": supported values: "AuthorizationConfiguration"']);
    assert.deepEqual(problems('authorizers: []\n'), ['apiVersion: Required value: "apiserver.platform/v1" or "apiserver.platform/v1beta1"', 'kind: Required value: "AuthorizationConfiguration"']);
    // Read as sigs.k8s.io/yaml reads it: YAML 1.1 plain scalars.
    const yaml11 = write(`${HEADER}authorizers:\n- type: Webhook\n  name: w\n  webhook:\n    timeout: 3s\n    subjectAccessReviewVersion: v1\n`
      + `    matchConditionSubjectAccessReviewVersion: v1\n    failurePolicy: Deny\n    cacheAuthorizedRequests: no\n    cacheUnauthorizedRequests: Off\n`
      + `    connectionInfo: {type: KubeConfigFile, kubeConfigFile: ${JSON.stringify(kubeconfig)}}\n`);
    const [w] = loadAuthorizerChain(yaml11) as Array<{ settings: { cacheAuthorizedRequests: boolean; cacheUnauthorizedRequests: boolean } }>;
    assert.deepEqual([w!.settings.cacheAuthorizedRequests, w!.settings.cacheUnauthorizedRequests], [false, false]);
    const dup = problems(`${HEADER}authorizers: []\nauthorizers: []\n`);
    assert.equal(dup.length, 1);
    assert.match(dup[0]!, /line 4, column 1: YAML syntax error: Map keys must be unique/);
  });

  it('gives the chain in file order, with each webhook\'s settings defaulted (TTLs 5m0s and 30s, caching on)', () => {
    const file = write(JSON.stringify({
      apiVersion: 'apiserver.platform/v1', kind: 'AuthorizationConfiguration',
      authorizers: [
        { type: 'Node', name: 'node' },
        { type: 'Webhook', name: 'first', webhook: { timeout: '3s', subjectAccessReviewVersion: 'v1beta1', failurePolicy: 'Deny', connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig } } },
        { type: 'ABAC', name: 'abac' },
        { type: 'Webhook', name: 'second.example', webhook: {
          timeout: '30s', authorizedTTL: '1m', cacheAuthorizedRequests: false, unauthorizedTTL: '2s', subjectAccessReviewVersion: 'v1',
          matchConditionSubjectAccessReviewVersion: 'v1', failurePolicy: 'NoOpinion', matchConditions: [{ expression: 'request.user != "x"' }],
          connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: kubeconfig } } },
        { type: 'RBAC', name: 'rbac' },
      ],
    }), 'json');
    assert.deepEqual(loadAuthorizerChain(file), [
      { type: 'Node', name: 'node' },
      { type: 'Webhook', name: 'first', settings: {
        authorizedTTLMs: 300_000, cacheAuthorizedRequests: true, unauthorizedTTLMs: 30_000, cacheUnauthorizedRequests: true, timeoutMs: 3000,
        subjectAccessReviewVersion: 'v1beta1', failurePolicy: 'Deny', kubeConfigFile: kubeconfig, matchConditions: [] } },
      { type: 'ABAC', name: 'abac' },
      { type: 'Webhook', name: 'second.example', settings: {
        authorizedTTLMs: 60_000, cacheAuthorizedRequests: false, unauthorizedTTLMs: 2000, cacheUnauthorizedRequests: true, timeoutMs: 30_000,
        subjectAccessReviewVersion: 'v1', failurePolicy: 'NoOpinion', kubeConfigFile: kubeconfig, matchConditions: ['request.user != "x"'] } },
      { type: 'RBAC', name: 'rbac' },
    ]);
  });
});

describe('--authorization-config at start-up', () => {
  const refuses = async (args: string[], pattern: RegExp, exitCode: number) => {
    await assert.rejects(startInProcess({ args }), (e: unknown) => {
      assert.ok(e instanceof StartupError, String(e));
      assert.match(e.message, pattern);
      assert.equal(e.exitCode, exitCode);
      return true;
    });
  };

  it('cannot be combined with --authorization-mode or any --authorization-webhook-* flag', async () => {
    const file = write(config(simple('AlwaysAllow')));
    const message = /^--authorization-config can not be specified when --authorization-mode or --authorization-webhook-\* flags are defined$/;
    for (const extra of [
      '--authorization-mode=AlwaysAllow', `--authorization-webhook-config-file=${kubeconfig}`, '--authorization-webhook-version=v1',
      '--authorization-webhook-cache-authorized-ttl=1m', '--authorization-webhook-cache-unauthorized-ttl=1s',
    ]) await refuses([`--authorization-config=${file}`, extra], message, 2);
  });

  it('names the file and the problem', async () => {
    const file = write(config(webhook('w', { timeout: '45s' })));
    await refuses([`--authorization-config=${file}`],
      new RegExp(`^--authorization-config: ${file}: authorizers\\[0\\]\\.webhook\\.timeout: Invalid value: "45s": must be > 0s and <= 30s$`), 1);
    await refuses([`--authorization-config=${join(dir, 'absent.yaml')}`], /^open .*absent\.yaml: no such file or directory$/, 1);
  });

  it('refuses a match condition cel-go\'s type check refuses, before anything is served', async () => {
    const file = write(config(webhook('w', { failurePolicy: 'Deny', matchConditions: [{ expression: "request.extra['team'] == 'a'" }] }), simple('AlwaysAllow')));
    const expected = `--authorization-config: ${file}: authorizers[0].webhook.matchConditions[0].expression: Invalid value: "request.extra['team'] == 'a'": `
      + "compilation failed: ERROR: <input>:1:23: found no matching overload for '_==_' applied to '(list(string), string)'\n"
      + " | request.extra['team'] == 'a'\n | ......................^";
    await refuses([`--authorization-config=${file}`], new RegExp(`^${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`), 1);
  });

  it('still needs the flags of ABAC, and refuses a flag whose mode the file does not list', async () => {
    await refuses([`--authorization-config=${write(config(simple('ABAC')))}`], /^authorization-mode ABAC's authorization policy file not passed$/, 2);
    await refuses([`--authorization-config=${write(config(simple('AlwaysAllow')))}`, `--authorization-policy-file=${kubeconfig}`],
      /^cannot specify --authorization-policy-file without mode ABAC$/, 2);
  });


  it('refuses a type that no loaded plugin implements, naming the file\'s flag', () => {
    const file = write(config(simple('AlwaysAllow'), simple('Node')));
    assert.throws(() => boot([ApiServerPlugin, AuthorizationConfigPlugin, AlwaysAllowAuthorizer], [`--authorization-config=${file}`]), (e: unknown) =>
      e instanceof StartupError && e.exitCode === 1
      && e.message === '--authorization-config: authorizer type "Node" is not available in this plat (available: AlwaysAllow)');
  });
});
