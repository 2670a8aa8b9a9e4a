// kubectl (the machine's v1.32 dispatcher) against the real `plat all` process, command by command
// as kubectl-wire.md describes them: apply (client-side and server-side), explain, the get
// variants, replace, label, annotate, patch, delete, wait, create and get --raw. Each describe
// block runs its own plat, so label selectors and full listings see only that block's objects.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { csrSchema, CSR_DESCRIPTION } from '../../plugins/certificates/schema.js';
import { Kubectl, eventually, type KubectlResult } from '../helpers/kubectl.js';
import { startProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

/** The script form of the resource (kubectl-wire §0.3). */
const RES = 'certificatesigningrequests.v1.certificates.platform';
/** What explain needs instead (resource.group, then field paths). */
const EXPLAIN = 'certificatesigningrequests.certificates.platform';
/** kubectl's name for one object in its messages. */
const KIND = 'certificatesigningrequest.certificates.platform';
const QUALIFIED = 'certificatesigningrequests.certificates.platform';

const work = tempDir('plat-kubectl-commands-');
let request = '';

/** One CSR made with the real openssl CLI, shared by every object of this file. */
function csrRequest(): string {
  if (!request) {
    execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
      '-keyout', path.join(work, 'key.pem'), '-subj', '/CN=alice/O=dev', '-out', path.join(work, 'csr.pem')], { stdio: 'ignore' });
    request = readFileSync(path.join(work, 'csr.pem')).toString('base64');
  }
  return request;
}

interface CsrOptions { labels?: Record<string, string>; signerName?: string; specExtra?: string[]; metaExtra?: string[] }

function csrYaml(name: string, o: CsrOptions = {}): string {
  const labels = Object.entries(o.labels ?? {});
  return [
    'apiVersion: certificates.platform/v1',
    'kind: CertificateSigningRequest',
    'metadata:',
    `  name: ${name}`,
    ...(labels.length ? ['  labels:', ...labels.map(([k, v]) => `    ${k}: ${JSON.stringify(v)}`)] : []),
    ...(o.metaExtra ?? []).map((l) => `  ${l}`),
    'spec:',
    `  request: ${csrRequest()}`,
    `  signerName: ${o.signerName ?? 'example.com/client'}`,
    ...(o.specExtra ?? []).map((l) => `  ${l}`),
    '  usages: [digital signature, client auth]',
    '',
  ].join('\n');
}

/** Writes a manifest into the work dir and returns its path (kubectl quotes that path in errors). */
function manifest(file: string, content: string): string {
  const p = path.join(work, file);
  writeFileSync(p, content);
  return p;
}

/** A successful run: exit 0, nothing on stderr; gives stdout. */
function ok(r: KubectlResult): string {
  assert.equal(r.code, 0, `kubectl failed (${r.code}):\n${r.stderr}`);
  assert.equal(r.stderr, '', 'nothing on stderr');
  return r.stdout;
}

/** A failed run: exit 1 and exactly `stderr`; gives stdout. */
function fails(r: KubectlResult, stderr: string): string {
  assert.equal(r.code, 1, `expected kubectl to fail; stdout:\n${r.stdout}`);
  assert.equal(r.stderr, stderr);
  return r.stdout;
}

const AGE = /^\d+[smhdy]/;

/**
 * kubectl's table as rows of cells (no CSR cell contains a space). `AGE` in the expected rows
 * matches any human duration, everything else must be equal.
 */
function assertTable(stdout: string, expected: Array<Array<string | RegExp>>): void {
  const rows = stdout.trimEnd().split('\n').map((l) => l.trim().split(/\s+/));
  assert.equal(rows.length, expected.length, `rows of\n${stdout}`);
  rows.forEach((cells, i) => {
    const want = expected[i]!;
    assert.equal(cells.length, want.length, `cells of row ${i} in\n${stdout}`);
    cells.forEach((c, j) => {
      const w = want[j]!;
      if (typeof w === 'string') assert.equal(c, w, `row ${i} cell ${j} in\n${stdout}`);
      else assert.match(c, w, `row ${i} cell ${j} in\n${stdout}`);
    });
  });
}

const HEADER = ['NAME', 'AGE', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION'];
const row = (name: string, signer: string, ...extra: string[]) => [name, AGE, signer, 'plat-admin', '<none>', 'Pending', ...extra];

async function getJson(k: Kubectl, name: string, managedFields = false): Promise<any> {
  return JSON.parse(ok(await k.run(['get', RES, name, '-o', 'json', ...(managedFields ? ['--show-managed-fields'] : [])])));
}

function useServer(): { plat: () => RunningPlat; k: () => Kubectl } {
  let plat: RunningPlat | undefined;
  let k: Kubectl | undefined;
  before(async () => {
    plat = await startProcess();
    k = new Kubectl(plat.kubeconfig);
  });
  after(async () => { await plat?.stop(); });
  return { plat: () => plat!, k: () => k! };
}

describe('kubectl apply', () => {
  const s = useServer();

  it('client-side apply: created, configured (a strategic merge patch), unchanged; the spec stays', async () => {
    const k = s.k();
    const file = manifest('csa.yaml', csrYaml('csa', { labels: { team: 'a', tier: 'x' } }));
    assert.equal(ok(await k.run(['apply', '-f', file])), `${KIND}/csa created\n`);
    const first = await getJson(k, 'csa');
    assert.deepEqual(first.metadata.labels, { team: 'a', tier: 'x' });
    assert.ok(first.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);

    // Changing team and dropping tier: kubectl computes a three-way strategic merge patch (the
    // OpenAPI PATCH operation lists application/strategic-merge-patch+json, §7.2) with tier: null.
    manifest('csa.yaml', csrYaml('csa', { labels: { team: 'b' } }));
    const configured = await k.run(['apply', '-f', file, '-v=8']);
    assert.equal(configured.code, 0, configured.stderr);
    assert.equal(configured.stdout, `${KIND}/csa configured\n`);
    assert.match(configured.stderr, /PATCH https:\/\/\S+\/apis\/certificates\.platform\/v1\/certificatesigningrequests\/csa\?fieldManager=kubectl-client-side-apply&fieldValidation=Strict\s/);
    assert.match(configured.stderr, /Content-Type: application\/strategic-merge-patch\+json/);
    assert.match(configured.stderr, /\\"labels\\":\{\\"team\\":\\"b\\",\\"tier\\":null\}/);

    assert.equal(ok(await k.run(['apply', '-f', file])), `${KIND}/csa unchanged\n`);

    const got = await getJson(k, 'csa');
    assert.deepEqual(got.metadata.labels, { team: 'b' });
    assert.equal(got.spec.request, csrRequest());
    assert.equal(got.spec.signerName, 'example.com/client');
    assert.deepEqual(got.spec.usages, ['digital signature', 'client auth']);
    assert.equal(got.spec.username, 'plat-admin');
    assert.equal(JSON.parse(got.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).metadata.labels.team, 'b');
  });

  it('server-side apply: creates when absent, updates labels when present', async () => {
    const k = s.k();
    const file = manifest('ssa.yaml', csrYaml('ssa', { labels: { team: 'a' } }));
    assert.equal(ok(await k.run(['apply', '--server-side', '-f', file])), `${KIND}/ssa serverside-applied\n`);
    assert.deepEqual((await getJson(k, 'ssa')).metadata.labels, { team: 'a' });

    manifest('ssa.yaml', csrYaml('ssa', { labels: { team: 'b', env: 'prod' } }));
    assert.equal(ok(await k.run(['apply', '--server-side', '-f', file])), `${KIND}/ssa serverside-applied\n`);
    const got = await getJson(k, 'ssa');
    assert.deepEqual(got.metadata.labels, { env: 'prod', team: 'b' });
    assert.equal(got.spec.signerName, 'example.com/client');
    assert.equal(got.spec.request, csrRequest());
  });

  it('server-side apply owns fields: a dropped label goes, another manager conflicts, --force-conflicts takes over', async () => {
    const k = s.k();
    const file = manifest('owned.yaml', csrYaml('owned', { labels: { team: 'a', env: 'dev' } }));
    ok(await k.run(['apply', '--server-side', '-f', file]));
    manifest('owned.yaml', csrYaml('owned', { labels: { team: 'a' } }));
    ok(await k.run(['apply', '--server-side', '-f', file]));
    assert.deepEqual((await getJson(k, 'owned')).metadata.labels, { team: 'a' });

    const other = manifest('owned-other.yaml', csrYaml('owned', { labels: { team: 'b' } }));
    const refused = await k.run(['apply', '--server-side', '--field-manager=other', '-f', other]);
    assert.equal(refused.code, 1, refused.stdout);
    assert.ok(refused.stderr.startsWith('error: Apply failed with 1 conflict: conflict with "kubectl": .metadata.labels.team\n'), refused.stderr);
    assert.match(refused.stderr, /--force-conflicts/);
    assert.equal((await getJson(k, 'owned')).metadata.labels.team, 'a');

    assert.equal(ok(await k.run(['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', other])), `${KIND}/owned serverside-applied\n`);
    const yaml = ok(await k.run(['get', RES, 'owned', '-o', 'yaml', '--show-managed-fields']));
    assert.match(yaml, /  managedFields:\n  - apiVersion: certificates\.platform\/v1\n    fieldsType: FieldsV1\n    fieldsV1:\n/);
    assert.match(yaml, /manager: other\n    operation: Apply\n/);
    const got = await getJson(k, 'owned', true);
    assert.equal(got.metadata.labels.team, 'b');
    const kubectlEntry = got.metadata.managedFields.find((e: { manager: string }) => e.manager === 'kubectl');
    assert.deepEqual(kubectlEntry.fieldsV1, { 'f:spec': { 'f:request': {}, 'f:signerName': {}, 'f:usages': {} } });
    // Without --show-managed-fields kubectl leaves them out.
    assert.doesNotMatch(ok(await k.run(['get', RES, 'owned', '-o', 'yaml'])), /managedFields/);
  });

  it('server-side apply over a client-side-applied object: the kubectl-last-applied patch (no spec) keeps the spec', async () => {
    const k = s.k();
    const file = manifest('mixed.yaml', csrYaml('mixed', { labels: { team: 'a' } }));
    assert.equal(ok(await k.run(['apply', '-f', file])), `${KIND}/mixed created\n`);

    manifest('mixed.yaml', csrYaml('mixed', { labels: { team: 'b' } }));
    const r = await k.run(['apply', '--server-side', '-f', file, '-v=6']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${KIND}/mixed serverside-applied\n`);
    // Both apply PATCHes went out and succeeded (kubectl-wire §7.3).
    assert.match(r.stderr, /PATCH \S+\/certificatesigningrequests\/mixed\?fieldManager=kubectl&fieldValidation=Strict&force=false 200 OK/);
    assert.match(r.stderr, /PATCH \S+\/certificatesigningrequests\/mixed\?fieldManager=kubectl-last-applied&fieldValidation=Strict 200 OK/);

    const got = await getJson(k, 'mixed', true);
    assert.deepEqual(got.metadata.labels, { team: 'b' });
    assert.equal(got.spec.request, csrRequest());
    assert.equal(got.spec.signerName, 'example.com/client');
    assert.deepEqual(got.spec.usages, ['digital signature', 'client auth']);
    // kubectl 1.32 moves kubectl-client-side-apply's fields into its own Apply entry itself (csaupgrade:
    // a JSON patch of managedFields, which the server takes as a client's own managedFields), so the
    // apply finds no conflict; the annotation then follows the apply (lastAppliedUpdater) and
    // kubectl-last-applied owns it.
    assert.equal(JSON.parse(got.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).metadata.labels.team, 'b');
    assert.match(r.stderr, /PATCH \S+\/certificatesigningrequests\/mixed\?fieldManager=kubectl&fieldValidation=Strict 200 OK/);
    const owners = got.metadata.managedFields.map((e: { manager: string; operation: string }) => `${e.manager}/${e.operation}`);
    assert.deepEqual(owners, ['kubectl/Apply', 'kubectl-last-applied/Apply']);
    assert.deepEqual(got.metadata.managedFields[0].fieldsV1, { 'f:metadata': { 'f:labels': { 'f:team': {} } }, 'f:spec': { 'f:request': {}, 'f:signerName': {}, 'f:usages': {} } });
  });

  it('server-side apply --dry-run=server persists nothing, neither a create nor an update', async () => {
    const k = s.k();
    const absent = manifest('ssa-dry.yaml', csrYaml('ssa-dry', { labels: { team: 'a' } }));
    assert.equal(ok(await k.run(['apply', '--server-side', '--dry-run=server', '-f', absent])), `${KIND}/ssa-dry serverside-applied (server dry run)\n`);
    fails(await k.run(['get', RES, 'ssa-dry']), `Error from server (NotFound): ${QUALIFIED} "ssa-dry" not found\n`);

    const file = manifest('ssa-live.yaml', csrYaml('ssa-live', { labels: { team: 'a' } }));
    ok(await k.run(['apply', '--server-side', '-f', file]));
    const before = await getJson(k, 'ssa-live');
    manifest('ssa-live.yaml', csrYaml('ssa-live', { labels: { team: 'z' } }));
    assert.equal(ok(await k.run(['apply', '--server-side', '--dry-run=server', '-f', file])), `${KIND}/ssa-live serverside-applied (server dry run)\n`);
    const after = await getJson(k, 'ssa-live');
    assert.deepEqual(after.metadata.labels, { team: 'a' });
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
  });

  it('server-side apply of a field the schema does not declare: the server refuses it, whatever --validate says', async () => {
    const k = s.k();
    const file = manifest('ssa-unknown.yaml', csrYaml('ssa-unknown', { specExtra: ['bogusField: x'], metaExtra: ['lables: {a: b}'] }));
    const want = 'Error from server: failed to create typed patch object (/ssa-unknown; certificates.platform/v1, Kind=CertificateSigningRequest): '
      + 'errors:\n  .metadata.lables: field not declared in schema\n  .spec.bogusField: field not declared in schema\n';
    for (const validate of ['strict', 'warn', 'false']) {
      fails(await k.run(['apply', '--server-side', `--validate=${validate}`, '-f', file]), want);
    }
    fails(await k.run(['get', RES, 'ssa-unknown']), `Error from server (NotFound): ${QUALIFIED} "ssa-unknown" not found\n`);
  });

  it('a strategic merge patch with $patch in an atomic list item (a RoleBinding\'s subjects): a warning, the list as given', async () => {
    const k = s.k();
    ok(await k.run(['create', '-f', manifest('rb.yaml', [
      'apiVersion: rbac.authorization.platform/v1', 'kind: RoleBinding', 'metadata: {name: rb1, namespace: default}',
      'roleRef: {apiGroup: rbac.authorization.platform, kind: Role, name: reader}',
      'subjects: [{kind: User, name: alice, apiGroup: rbac.authorization.platform}]', ''].join('\n'))]));
    const patch = '{"subjects":[{"kind":"User","name":"bob","apiGroup":"rbac.authorization.platform","$patch":"delete"}]}';
    const r = await k.run(['patch', 'rolebindings.v1.rbac.authorization.platform', 'rb1', '-n', 'default', '--type=strategic', '-p', patch]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, 'Warning: unknown field "subjects[0].$patch"\n');
    assert.equal(r.stdout, 'rolebinding.rbac.authorization.platform/rb1 patched\n');
    const got = JSON.parse(ok(await k.run(['get', 'rolebindings.v1.rbac.authorization.platform', 'rb1', '-n', 'default', '-o', 'json'])));
    assert.deepEqual(got.subjects, [{ kind: 'User', name: 'bob', apiGroup: 'rbac.authorization.platform' }]);
  });
});

interface Explained { header: string[]; field?: string; description: string; fields: string[]; fieldDocs: Map<string, string> }

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Splits `kubectl explain` plaintext output into its parts; descriptions with whitespace collapsed. */
function parseExplain(stdout: string): Explained {
  const lines = stdout.split('\n');
  const header = lines.slice(0, 3);
  const field = lines.find((l) => l.startsWith('FIELD: '));
  const d = lines.indexOf('DESCRIPTION:');
  const f = lines.indexOf('FIELDS:');
  assert.ok(d > 0 && f > d, `sections in\n${stdout}`);
  const fields: string[] = [];
  const fieldDocs = new Map<string, string>();
  let current: string[] | undefined;
  for (const l of lines.slice(f + 1)) {
    const m = /^ {2}(\S+)\t(<.+>(?: -required-)?)$/.exec(l);
    if (m) {
      fields.push(`${m[1]!} ${m[2]!}`);
      current = [];
      fieldDocs.set(m[1]!, '');
      continue;
    }
    if (current) { current.push(l); fieldDocs.set(fields[fields.length - 1]!.split(' ')[0]!, collapse(current.join(' '))); }
  }
  return { header, ...(field ? { field } : {}), description: collapse(lines.slice(d + 1, f).join(' ')), fields, fieldDocs };
}

const EXPLAIN_HEADER = ['GROUP:      certificates.platform', 'KIND:       CertificateSigningRequest', 'VERSION:    v1'];

describe('kubectl get, explain and get --raw', () => {
  const s = useServer();
  before(async () => {
    const file = manifest('three.yaml', [
      csrYaml('g1', { labels: { team: 'a' }, signerName: 'example.com/zeta' }),
      csrYaml('g2', { labels: { team: 'b' }, signerName: 'example.com/alpha' }),
      csrYaml('g3', { labels: { team: 'a', tier: 'web' }, signerName: 'example.com/mid' }),
    ].join('---\n'));
    assert.equal(ok(await s.k().run(['create', '-f', file])), `${KIND}/g1 created\n${KIND}/g2 created\n${KIND}/g3 created\n`);
  });

  it('get -o wide prints the CSR columns (all priority 0, as upstream)', async () => {
    assertTable(ok(await s.k().run(['get', RES, '-o', 'wide'])), [
      HEADER, row('g1', 'example.com/zeta'), row('g2', 'example.com/alpha'), row('g3', 'example.com/mid'),
    ]);
  });

  it('get --show-labels adds LABELS from the rows\' object metadata', async () => {
    assertTable(ok(await s.k().run(['get', RES, '--show-labels'])), [
      [...HEADER, 'LABELS'],
      row('g1', 'example.com/zeta', 'team=a'), row('g2', 'example.com/alpha', 'team=b'), row('g3', 'example.com/mid', 'team=a,tier=web'),
    ]);
  });

  it('get -l team=a filters by label; an unmatched selector prints "No resources found"', async () => {
    const k = s.k();
    assertTable(ok(await k.run(['get', RES, '-l', 'team=a'])), [HEADER, row('g1', 'example.com/zeta'), row('g3', 'example.com/mid')]);
    assertTable(ok(await k.run(['get', RES, '-l', 'team!=a'])), [HEADER, row('g2', 'example.com/alpha')]);
    const none = await k.run(['get', RES, '-l', 'team=nobody']);
    assert.equal(none.code, 0);
    assert.equal(none.stdout, '');
    assert.equal(none.stderr, 'No resources found\n');
  });

  it('get --sort-by=.spec.signerName sorts on the full objects of includeObject=Object rows', async () => {
    assertTable(ok(await s.k().run(['get', RES, '--sort-by=.spec.signerName'])), [
      HEADER, row('g2', 'example.com/alpha'), row('g3', 'example.com/mid'), row('g1', 'example.com/zeta'),
    ]);
    assert.equal(ok(await s.k().run(['get', RES, '--sort-by=.metadata.labels.team', '-o', 'name'])).split('\n')[2], `${KIND}/g2`);
  });

  it('get --chunk-size=1 pages with limit and continue, printing one table', async () => {
    const r = await s.k().run(['get', RES, '--chunk-size=1', '-v=6']);
    assert.equal(r.code, 0, r.stderr);
    assertTable(r.stdout, [HEADER, row('g1', 'example.com/zeta'), row('g2', 'example.com/alpha'), row('g3', 'example.com/mid')]);
    const gets = [...r.stderr.matchAll(/GET \S+\/certificatesigningrequests\?(\S+) 200 OK/g)].map((m) => m[1]!);
    assert.equal(gets.length, 3, r.stderr);
    assert.equal(gets[0], 'limit=1');
    assert.match(gets[1]!, /^continue=[\w-]+&limit=1$/);
    assert.match(gets[2]!, /^continue=[\w-]+&limit=1$/);
    // Paging the plain list (-o name) works too.
    assert.equal(ok(await s.k().run(['get', RES, '--chunk-size=1', '-o', 'name'])), `${KIND}/g1\n${KIND}/g2\n${KIND}/g3\n`);
  });

  it('get -o name and -o jsonpath', async () => {
    const k = s.k();
    assert.equal(ok(await k.run(['get', RES, '-o', 'name'])), `${KIND}/g1\n${KIND}/g2\n${KIND}/g3\n`);
    assert.equal(ok(await k.run(['get', RES, 'g2', '-o', 'name'])), `${KIND}/g2\n`);
    assert.equal(ok(await k.run(['get', RES, '-o', 'jsonpath={.items[*].metadata.name}'])), 'g1 g2 g3');
    assert.equal(ok(await k.run(['get', RES, '-o', 'jsonpath={range .items[*]}{.metadata.name}={.spec.signerName}{"\\n"}{end}'])),
      'g1=example.com/zeta\ng2=example.com/alpha\ng3=example.com/mid\n');
    assert.equal(ok(await k.run(['get', RES, 'g3', '-o', 'jsonpath={.metadata.labels.tier}'])), 'web');
  });

  it('explain the resource: description, fields, types and -required-', async () => {
    const e = parseExplain(ok(await s.k().run(['explain', EXPLAIN])));
    assert.deepEqual(e.header, EXPLAIN_HEADER);
    assert.equal(e.field, undefined);
    assert.equal(e.description, collapse(CSR_DESCRIPTION));
    assert.deepEqual(e.fields, ['apiVersion <string>', 'kind <string>', 'metadata <ObjectMeta>', 'spec <Object> -required-', 'status <Object>']);
    assert.equal(e.fieldDocs.get('spec'), collapse(csrSchema.properties!['spec']!.description!));
    assert.equal(e.fieldDocs.get('status'), collapse(csrSchema.properties!['status']!.description!));
    assert.equal(e.fieldDocs.get('metadata'), 'Standard object\'s metadata.');
  });

  it('explain .spec (also with --api-version)', async () => {
    const spec = csrSchema.properties!['spec']!;
    for (const args of [['explain', `${EXPLAIN}.spec`], ['explain', 'certificatesigningrequests.spec', '--api-version=certificates.platform/v1']]) {
      const e = parseExplain(ok(await s.k().run(args)));
      assert.deepEqual(e.header, EXPLAIN_HEADER);
      assert.equal(e.field, 'FIELD: spec <Object>');
      assert.equal(e.description, collapse(spec.description!));
      assert.deepEqual(e.fields, [
        'expirationSeconds <integer>', 'extra <map[string][]string>', 'groups <[]string>', 'request <string> -required-',
        'signerName <string> -required-', 'uid <string>', 'usages <[]string>', 'username <string>',
      ]);
      for (const [name, doc] of e.fieldDocs) assert.equal(doc, collapse(spec.properties![name]!.description!), name);
    }
  });

  it('explain .status.conditions: the list and its item descriptions, required type and status', async () => {
    const conditions = csrSchema.properties!['status']!.properties!['conditions']!;
    const e = parseExplain(ok(await s.k().run(['explain', `${EXPLAIN}.status.conditions`])));
    assert.deepEqual(e.header, EXPLAIN_HEADER);
    assert.equal(e.field, 'FIELD: conditions <[]Object>');
    assert.equal(e.description, collapse(`${conditions.description!} ${conditions.items!.description!}`));
    assert.deepEqual(e.fields, [
      'lastTransitionTime <string>', 'lastUpdateTime <string>', 'message <string>', 'reason <string>',
      'status <string> -required-', 'type <string> -required-',
    ]);
    for (const [name, doc] of e.fieldDocs) assert.equal(doc, collapse(conditions.items!.properties![name]!.description!), name);
  });

  it('explain of an unknown field fails with field "x" does not exist', async () => {
    const out = fails(await s.k().run(['explain', `${EXPLAIN}.x`]), 'error: field "x" does not exist\n');
    assert.equal(out, `${EXPLAIN_HEADER.join('\n')}\n\n`);
    fails(await s.k().run(['explain', `${EXPLAIN}.spec.nope`]), 'error: field "nope" does not exist\n');
  });

  it('explain --output=plaintext-openapiv2 reads /openapi/v2 (the protobuf) alone', async () => {
    const r = await s.k().run(['explain', EXPLAIN, '--output=plaintext-openapiv2', '-v=6']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /GET \S+\/openapi\/v2\?timeout=32s 200 OK/);
    assert.doesNotMatch(r.stderr, /\/openapi\/v3/);
    const lines = r.stdout.split('\n');
    assert.deepEqual(lines.slice(0, 4), ['KIND:     CertificateSigningRequest', 'VERSION:  certificates.platform/v1', '', 'DESCRIPTION:']);
    const fields = lines.slice(lines.indexOf('FIELDS:') + 1).flatMap((l) => /^ {3}(\S+)\t(<.+>(?: -required-)?)$/.exec(l)?.slice(1, 3).join(' ') ?? []);
    assert.deepEqual(fields, ['apiVersion <string>', 'kind <string>', 'metadata <Object>', 'spec <Object> -required-', 'status <Object>']);
    assert.equal(collapse(r.stdout.slice(r.stdout.indexOf('DESCRIPTION:') + 12, r.stdout.indexOf('FIELDS:'))), collapse(CSR_DESCRIPTION));
    const spec = ok(await s.k().run(['explain', `${EXPLAIN}.spec.usages`, '--output=plaintext-openapiv2']));
    assert.match(spec, /^KIND: {5}CertificateSigningRequest\nVERSION: {2}certificates\.platform\/v1\n\nFIELD: {4}usages <\[\]string>\n/);
  });

  it('get --raw /readyz?verbose and /version print the server\'s bodies', async () => {
    const k = s.k();
    const ready = ok(await k.run(['get', '--raw', '/readyz?verbose']));
    assert.equal(ready, (await s.plat().admin.get('/readyz?verbose')).text);
    const lines = ready.trimEnd().split('\n');
    assert.equal(lines.pop(), 'readyz check passed');
    assert.ok(lines.includes('[+]ping ok'), ready);
    for (const l of lines) assert.match(l, /^\[\+\]\S+ ok$/);

    const version = ok(await k.run(['get', '--raw', '/version']));
    assert.equal(version, (await s.plat().admin.get('/version')).text);
    const v = JSON.parse(version);
    assert.equal(v.major, '1');
    assert.equal(v.minor, '32');
    assert.match(v.gitVersion, /^v1\.32\./);
  });
});

describe('kubectl replace, label, annotate and patch', () => {
  const s = useServer();

  it('replace -f with a changed label replaces; a stale resourceVersion is a Conflict', async () => {
    const k = s.k();
    assert.equal(ok(await k.run(['create', '-f', manifest('r1.yaml', csrYaml('r1', { labels: { team: 'a' } }))])), `${KIND}/r1 created\n`);
    assert.equal(ok(await k.run(['replace', '-f', manifest('r1b.yaml', csrYaml('r1', { labels: { team: 'b' } }))])), `${KIND}/r1 replaced\n`);
    const got = await getJson(k, 'r1');
    assert.deepEqual(got.metadata.labels, { team: 'b' });
    assert.equal(got.spec.username, 'plat-admin');
    assert.equal(got.spec.signerName, 'example.com/client');

    // The file pins the resourceVersion read here; a later write makes it stale.
    const stale = manifest('r1-stale.json', ok(await k.run(['get', RES, 'r1', '-o', 'json'])).replace('"team": "b"', '"team": "c"'));
    assert.equal(ok(await k.run(['label', RES, 'r1', 'bump=1'])), `${KIND}/r1 labeled\n`);
    fails(await k.run(['replace', '-f', stale]),
      `Error from server (Conflict): error when replacing "${stale}": Operation cannot be fulfilled on ${QUALIFIED} "r1": `
      + 'the object has been modified; please apply your changes to the latest version and try again\n');
    assert.deepEqual((await getJson(k, 'r1')).metadata.labels, { bump: '1', team: 'b' });
  });

  it('label: labeled, not labeled when unchanged (same resourceVersion), --overwrite, unlabeled', async () => {
    const k = s.k();
    ok(await k.run(['create', '-f', manifest('l1.yaml', csrYaml('l1', { labels: { team: 'a' } }))]));
    assert.equal(ok(await k.run(['label', RES, 'l1', 'env=prod'])), `${KIND}/l1 labeled\n`);
    const rv = (await getJson(k, 'l1')).metadata.resourceVersion;
    assert.equal(ok(await k.run(['label', RES, 'l1', 'env=prod'])), `${KIND}/l1 not labeled\n`);
    assert.equal((await getJson(k, 'l1')).metadata.resourceVersion, rv);
    fails(await k.run(['label', RES, 'l1', 'env=dev']), 'error: \'env\' already has a value (prod), and --overwrite is false\n');
    assert.equal(ok(await k.run(['label', RES, 'l1', 'env=dev', '--overwrite'])), `${KIND}/l1 labeled\n`);
    assert.deepEqual((await getJson(k, 'l1')).metadata.labels, { env: 'dev', team: 'a' });
    assert.equal(ok(await k.run(['label', RES, 'l1', 'env-'])), `${KIND}/l1 unlabeled\n`);
    assert.deepEqual((await getJson(k, 'l1')).metadata.labels, { team: 'a' });
  });

  it('annotate: annotated (kubectl says so even when nothing changes), and removal', async () => {
    const k = s.k();
    ok(await k.run(['create', '-f', manifest('a1.yaml', csrYaml('a1'))]));
    assert.equal(ok(await k.run(['annotate', RES, 'a1', 'note=hello world'])), `${KIND}/a1 annotated\n`);
    const got = await getJson(k, 'a1');
    assert.deepEqual(got.metadata.annotations, { note: 'hello world' });
    assert.equal(ok(await k.run(['annotate', RES, 'a1', 'note=hello world'])), `${KIND}/a1 annotated\n`);
    assert.equal((await getJson(k, 'a1')).metadata.resourceVersion, got.metadata.resourceVersion);
    assert.equal(ok(await k.run(['annotate', RES, 'a1', 'note-'])), `${KIND}/a1 annotated\n`);
    assert.equal((await getJson(k, 'a1')).metadata.annotations, undefined);
  });

  it('patch: strategic merge (no --type) and merge on metadata; no-op patches print "patched (no change)"', async () => {
    const k = s.k();
    ok(await k.run(['create', '-f', manifest('p1.yaml', csrYaml('p1', { labels: { team: 'a' } }))]));

    const smp = await k.run(['patch', RES, 'p1', '-p', '{"metadata":{"labels":{"smp":"yes"}}}', '-v=8']);
    assert.equal(smp.code, 0, smp.stderr);
    assert.equal(smp.stdout, `${KIND}/p1 patched\n`);
    assert.match(smp.stderr, /Content-Type: application\/strategic-merge-patch\+json/);
    assert.equal(ok(await k.run(['patch', RES, 'p1', '--type=merge', '-p', '{"metadata":{"annotations":{"m":"1"},"labels":{"merge":"yes"}}}'])), `${KIND}/p1 patched\n`);
    const got = await getJson(k, 'p1');
    assert.deepEqual(got.metadata.labels, { merge: 'yes', smp: 'yes', team: 'a' });
    assert.deepEqual(got.metadata.annotations, { m: '1' });

    // No-op writes keep the resourceVersion, so kubectl sees an identical object (kubectl-wire §6).
    assert.equal(ok(await k.run(['patch', RES, 'p1', '-p', '{"metadata":{"labels":{"smp":"yes"}}}'])), `${KIND}/p1 patched (no change)\n`);
    assert.equal(ok(await k.run(['patch', RES, 'p1', '--type=merge', '-p', '{"metadata":{"annotations":{"m":"1"}}}'])), `${KIND}/p1 patched (no change)\n`);
    assert.equal(ok(await k.run(['patch', RES, 'p1', '--type=json', '-p', '[{"op":"replace","path":"/metadata/labels/team","value":"a"}]'])), `${KIND}/p1 patched (no change)\n`);
    assert.equal((await getJson(k, 'p1')).metadata.resourceVersion, got.metadata.resourceVersion);

    // A strategic merge null removes the label.
    assert.equal(ok(await k.run(['patch', RES, 'p1', '-p', '{"metadata":{"labels":{"smp":null}}}'])), `${KIND}/p1 patched\n`);
    const after = await getJson(k, 'p1');
    assert.deepEqual(after.metadata.labels, { merge: 'yes', team: 'a' });
    assert.equal(after.spec.request, csrRequest());
  });
});

describe('kubectl delete, wait and create', () => {
  const s = useServer();

  it('delete --dry-run=server keeps the object; delete -l team=a deletes the matches; a missing name is NotFound', async () => {
    const k = s.k();
    const file = manifest('del.yaml', [
      csrYaml('d1', { labels: { team: 'a' } }), csrYaml('d2', { labels: { team: 'a' } }), csrYaml('d3', { labels: { team: 'b' } }),
    ].join('---\n'));
    ok(await k.run(['create', '-f', file]));

    // kubectl sends the dry run in the DELETE body, not the query (kubectl-wire §10).
    assert.equal(ok(await k.run(['delete', RES, 'd1', '--dry-run=server'])), `${KIND} "d1" deleted (server dry run)\n`);
    assert.equal(ok(await k.run(['get', RES, 'd1', '-o', 'name'])), `${KIND}/d1\n`);

    assert.equal(ok(await k.run(['delete', RES, '-l', 'team=a'])), `${KIND} "d1" deleted\n${KIND} "d2" deleted\n`);
    assert.equal(ok(await k.run(['get', RES, '-l', 'team', '-o', 'name'])), `${KIND}/d3\n`);
    // Unlike get, delete reports an empty selection on stdout.
    assert.equal(ok(await k.run(['delete', RES, '-l', 'team=a'])), 'No resources found\n');

    fails(await k.run(['delete', RES, 'nope']), `Error from server (NotFound): ${QUALIFIED} "nope" not found\n`);
  });

  it('wait --for=condition=Approved returns once an approval made meanwhile arrives on its watch', async () => {
    const k = s.k();
    ok(await k.run(['create', '-f', manifest('w1.yaml', csrYaml('w1'))]));
    const wait = k.start(['wait', RES, 'w1', '--for=condition=Approved', '--timeout=60s', '-v=6']);
    const exited = new Promise<number | null>((resolve) => wait.child.once('exit', (code) => resolve(code)));
    try {
      // The object is still Pending, so kubectl lists and watches it by name (kubectl-wire §9.3).
      await eventually(() => /GET \S+\/certificatesigningrequests\?\S*fieldSelector=metadata\.name%3Dw1\S*&watch=true 200 OK/.test(wait.output()), 'kubectl wait to watch w1');
      assert.doesNotMatch(wait.output(), /condition met/);
      const approve = await k.run(['patch', RES, 'w1', '--subresource=approval', '--type=merge', '-p',
        JSON.stringify({ status: { conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'ok' }] } })]);
      assert.equal(ok(approve), `${KIND}/w1 patched\n`);
      assert.equal(await exited, 0, wait.output());
      assert.match(wait.output(), new RegExp(`^${KIND.replace(/\./g, '\\.')}/w1 condition met$`, 'm'));
    } finally {
      await wait.stop();
    }
  });

  it('create --dry-run=server persists nothing; create of an existing name is AlreadyExists', async () => {
    const k = s.k();
    const file = manifest('c1.yaml', csrYaml('c1'));
    assert.equal(ok(await k.run(['create', '--dry-run=server', '-f', file])), `${KIND}/c1 created (server dry run)\n`);
    fails(await k.run(['get', RES, 'c1']), `Error from server (NotFound): ${QUALIFIED} "c1" not found\n`);
    assert.equal(ok(await k.run(['create', '-f', file])), `${KIND}/c1 created\n`);
    fails(await k.run(['create', '-f', file]),
      `Error from server (AlreadyExists): error when creating "${file}": ${QUALIFIED} "c1" already exists\n`);
  });

  it('create with the default validation: a CSR\'s fieldValidation is found in /openapi/v3, /openapi/v2 is never asked for', async () => {
    const r = await s.k().run(['create', '-f', manifest('c4.yaml', csrYaml('c4', { specExtra: ['bogusField: x'] })), '-v=6']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /POST \S+\/certificatesigningrequests\?fieldManager=kubectl-create&fieldValidation=Strict 400 Bad Request/);
    assert.match(r.stderr, /strict decoding error: unknown field "spec\.bogusField"/);
    assert.doesNotMatch(r.stderr, /\/openapi\/v2/);
  });

  it('create --validate=false ignores an unknown field; --validate=warn warns about it and creates', async () => {
    const k = s.k();
    const off = manifest('c2.yaml', csrYaml('c2', { specExtra: ['bogusField: x'] }));
    assert.equal(ok(await k.run(['create', '--validate=false', '-f', off])), `${KIND}/c2 created\n`);
    // fieldValidation=Ignore drops the field (k8s-behaviour §8.8).
    assert.equal((await getJson(k, 'c2')).spec.bogusField, undefined);

    const warn = manifest('c3.yaml', csrYaml('c3', { specExtra: ['bogusField: x'] }));
    const r = await k.run(['create', '--validate=warn', '-f', warn]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${KIND}/c3 created\n`);
    assert.equal(r.stderr, 'Warning: unknown field "spec.bogusField"\n');
    assert.equal(ok(await k.run(['get', RES, 'c3', '-o', 'jsonpath={.spec.signerName}'])), 'example.com/client');
  });
});
