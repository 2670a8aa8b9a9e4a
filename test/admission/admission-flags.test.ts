// Which admission plugins run, from the flags: the default-enabled set, --disable-admission-plugins,
// the deprecated --admission-control (exactly the plugins it names), and the start-up errors for
// names plat does not have (exit 2: booted in this process, and one row as the real `plat` process).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { b64, fixtures } from '../certificates/fixtures.js';
import { tempDir } from '../helpers/plat.js';
import { bootRefusal } from '../helpers/boot-refusal.js';
import { runPlat } from '../helpers/run-plat.js';
import { csrObject, csrPath, CSR_PATH, csrPem, startAdmissionPlat, withCondition, type AdmissionPlat } from './support.js';

const SIGNER = 'example.com/my-signer';
const users = { unprivileged: [] };
const signerTable = { grants: { unprivileged: [] } };

/** What each certificate plugin decides for an unprivileged user, and whether NamespaceLifecycle runs. */
interface Observed { approval: number; signing: number; subjectRestriction: number; namespaceLifecycle: number }

async function observe(a: AdmissionPlat, tag: string): Promise<Observed> {
  const fx = fixtures();
  const created = await a.plat.admin.post(CSR_PATH, csrObject(`observe-${tag}`, SIGNER, fx.ecCsrPem));
  assert.equal(created.status, 201, created.text);
  const csr = created.json;
  const user = a.as('unprivileged');
  const approval = (await user.put(csrPath(csr.metadata.name, 'approval'), withCondition(csr, 'Approved'))).status;
  const signing = (await user.patch(csrPath(csr.metadata.name, 'status'), { status: { certificate: b64(fx.certPem) } }, 'application/merge-patch+json')).status;
  const subjectRestriction = (await a.plat.admin.post(CSR_PATH, csrObject(`masters-${tag}`, 'platform/apiserver-client', csrPem('/O=system:masters/CN=eve')))).status;
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: `s-${tag}` } };
  const namespaceLifecycle = (await a.plat.admin.post('/api/v1/namespaces/missing/secrets', secret)).status;
  return { approval, signing, subjectRestriction, namespaceLifecycle };
}

const cases: [string, string[], Observed][] = [
  ['the defaults run every certificate plugin and NamespaceLifecycle', [], { approval: 403, signing: 403, subjectRestriction: 403, namespaceLifecycle: 404 }],
  ['--disable-admission-plugins=CertificateApproval lets an unprivileged user approve', ['--disable-admission-plugins=CertificateApproval'],
    { approval: 200, signing: 403, subjectRestriction: 403, namespaceLifecycle: 404 }],
  ['--disable-admission-plugins takes several names, and catalogue names plat lacks',
    ['--disable-admission-plugins=CertificateSigning,CertificateSubjectRestriction,PodSecurity'],
    { approval: 403, signing: 200, subjectRestriction: 201, namespaceLifecycle: 404 }],
  ['--admission-control=NamespaceLifecycle runs only NamespaceLifecycle', ['--admission-control=NamespaceLifecycle'],
    { approval: 200, signing: 200, subjectRestriction: 201, namespaceLifecycle: 404 }],
  ['--admission-control=CertificateSubjectRestriction,CertificateSigning runs exactly those', ['--admission-control=CertificateSubjectRestriction,CertificateSigning'],
    { approval: 200, signing: 403, subjectRestriction: 403, namespaceLifecycle: 201 }],
];

for (const [what, args, expected] of cases) {
  describe(what, () => {
    let a: AdmissionPlat;
    before(async () => { a = await startAdmissionPlat({ args, users, signerTable }); });
    after(async () => { await a?.stop(); });
    it('applies exactly the selected plugins', async () => {
      assert.deepEqual(await observe(a, 'x'), expected);
    });
    if (args.some((f) => f.startsWith('--admission-control='))) {
      it('warns that --admission-control is deprecated', () => {
        assert.ok(a.logs.some((l) => l.includes('Flag --admission-control has been deprecated')), a.logs.join('\n'));
      });
    }
  });
}

describe('admission flags that cannot be honoured stop start-up with exit 2', () => {
  let dataDir: string;
  before(() => { dataDir = tempDir('plat-admission-flags-'); });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  const AVAILABLE = 'AlwaysAdmit, AlwaysDeny, CertificateApproval, CertificateSigning, CertificateSubjectRestriction, MutatingAdmissionWebhook, NamespaceLifecycle, NodeRestriction, ValidatingAdmissionWebhook';
  const refusals: [string, string[], string][] = [
    ['a catalogue plugin plat does not have', ['--enable-admission-plugins=PodSecurity'],
      `--enable-admission-plugins: admission plugin "PodSecurity" is not available in plat (available: ${AVAILABLE})`],
    ['an unknown plugin name', ['--enable-admission-plugins=NoSuchPlugin'], 'plat all: enable-admission-plugins plugin "NoSuchPlugin" is unknown\n'],
    ['an unknown name in --disable-admission-plugins', ['--disable-admission-plugins=NoSuchPlugin'], 'plat all: disable-admission-plugins plugin "NoSuchPlugin" is unknown\n'],
    ['an unknown name in --admission-control', ['--admission-control=NoSuchPlugin'], 'plat all: admission-control plugin "NoSuchPlugin" is unknown\n'],
    ['every problem at once, in upstream\'s order', ['--enable-admission-plugins=Foo,Bar,NodeRestriction', '--disable-admission-plugins=Baz,NodeRestriction'],
      'plat all: [enable-admission-plugins plugin "Foo" is unknown, enable-admission-plugins plugin "Bar" is unknown, ' +
      'disable-admission-plugins plugin "Baz" is unknown, [NodeRestriction] in enable-admission-plugins and disable-admission-plugins overlapped]\n'],
    ['--admission-control with --enable-admission-plugins, and its unknown names', ['--admission-control=Foo', '--enable-admission-plugins=Bar'],
      'plat all: [admission-control and enable-admission-plugins/disable-admission-plugins flags are mutually exclusive, ' +
      'admission-control plugin "Foo" is unknown, enable-admission-plugins plugin "Bar" is unknown]\n'],
    ['a plugin plat lacks in --admission-control', ['--admission-control=NamespaceLifecycle,PodSecurity'], 'admission plugin "PodSecurity" is not available in plat'],
    ['--admission-control with --enable-admission-plugins', ['--admission-control=NamespaceLifecycle', '--enable-admission-plugins=NodeRestriction'],
      'admission-control and enable-admission-plugins/disable-admission-plugins flags are mutually exclusive'],
    ['the same name enabled and disabled', ['--enable-admission-plugins=NodeRestriction', '--disable-admission-plugins=NodeRestriction'],
      'plat all: [NodeRestriction] in enable-admission-plugins and disable-admission-plugins overlapped\n'],
    ['several names enabled and disabled, sorted as a Go set lists them', ['--enable-admission-plugins=NodeRestriction,AlwaysDeny', '--disable-admission-plugins=AlwaysDeny,NodeRestriction'],
      'plat all: [AlwaysDeny NodeRestriction] in enable-admission-plugins and disable-admission-plugins overlapped\n'],
  ];
  // Each row booted in this process (boot refuses in its configure phase, before anything starts)...
  for (const [what, args, message] of refusals) {
    it(what, async () => {
      const r = await bootRefusal('all', ['--data-dir', dataDir, '--secure-port', '0', ...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.ok(r.stderr.includes(message), r.stderr);
    });
  }

  // ...and one as the real process, for its exit code and stderr.
  it('the real `plat all`: exit 2, the refusal on stderr', () => {
    const [, args, message] = refusals[4]!;
    const r = runPlat(['all', '--data-dir', dataDir, '--secure-port', '0', ...args]);
    assert.equal(r.code, 2, r.stderr);
    assert.ok(r.stderr.includes(message), r.stderr);
  });
});
