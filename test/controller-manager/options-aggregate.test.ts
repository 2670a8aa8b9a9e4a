// Options problems found by different plugins come out as one, as upstream's
// KubeControllerManagerOptions.Validate appends every sub-options' errors (Generic: the lock and
// --controllers; CSRSigningController: the signing files; SecureServing: the port) and returns one
// utilerrors.NewAggregate: bare for one problem, "[a, b]" for several, in that order. What comes
// after Validate (reading the kubeconfig, as Config does) is not reached then, and stops start-up
// on its own once the options are fine.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../helpers/plat.js';
import { runPlat } from '../helpers/run-plat.js';

const MISSING_KUBECONFIG = '/nonexistent/admin.conf';

describe('plat controller-manager options validation', () => {
  it('reports the problems of every plugin in one aggregate, in Validate\'s order, without reading the kubeconfig', () => {
    // Given in the reverse of upstream's order, so that the command line's order cannot pass for it.
    const r = runPlat(['controller-manager', `--platconfig=${MISSING_KUBECONFIG}`, '--secure-port=70000',
      '--cluster-signing-legacy-unknown-key-file=/x.key', '--controllers=*,bogus', '--leader-elect-resource-lock=endpoints'], { cwd: tempDir() });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr, 'plat controller-manager: [--leader-elect-resource-lock="endpoints": resourceLock value must be "leases", '
      + '"bogus" is not in the list of known controllers, "cluster-signing-legacy-unknown": cannot specify key without cert, '
      + '--secure-port 70000 must be between 1 and 65535, inclusive. It cannot be turned off with 0]\n');
  });

  it('says a single problem bare', () => {
    const r = runPlat(['controller-manager', `--platconfig=${MISSING_KUBECONFIG}`, '--secure-port=-1'], { cwd: tempDir() });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr, 'plat controller-manager: --secure-port -1 must be between 0 and 65535, inclusive. 0 for turning off secure port\n');
  });

  it('names a value from the --config file with its field, beside those of the command line (exit 2)', () => {
    const dir = tempDir();
    const config = path.join(dir, 'cm.yaml');
    writeFileSync(config, 'apiVersion: platcontrollermanager.config.platform/v1alpha1\nkind: PlatControllerManagerConfiguration\nGeneric:\n  Controllers: ["*", "bogus"]\n');
    const r = runPlat(['controller-manager', `--config=${config}`, `--platconfig=${MISSING_KUBECONFIG}`, '--secure-port=70000'], { cwd: dir });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^plat controller-manager: \[.*cm\.yaml: Generic\.Controllers: "bogus" is not in the list of known controllers, --secure-port 70000 must be between 1 and 65535, inclusive\. It cannot be turned off with 0\]\n$/);
  });

  it('reads the kubeconfig only once the options are fine, and stops at its error alone', () => {
    const r = runPlat(['controller-manager', `--platconfig=${MISSING_KUBECONFIG}`, '--secure-port=0'], { cwd: tempDir() });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /\nplat controller-manager: --platconfig=\/nonexistent\/admin\.conf: stat \/nonexistent\/admin\.conf: no such file or directory\n$/);
  });
});
