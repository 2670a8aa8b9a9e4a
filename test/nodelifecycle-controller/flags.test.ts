// The controller's flags are the plugin's now (listed in --help without "not supported yet"), and
// values that make no sense stop start-up (exit 2) before anything is read or served.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runPlat } from '../helpers/run-plat.js';

const FLAGS = ['node-monitor-period', 'node-monitor-grace-period', 'node-startup-grace-period', 'node-eviction-rate',
  'secondary-node-eviction-rate', 'large-cluster-size-threshold', 'unhealthy-zone-threshold'];

describe('node lifecycle controller flags', () => {
  it('are implemented, in plat controller-manager and plat all', () => {
    for (const role of ['controller-manager', 'all']) {
      const r = runPlat([role, '--help']);
      assert.equal(r.code, 0, r.stderr);
      for (const f of FLAGS) {
        const entry = new RegExp(`--${f} [\\s\\S]*?(?=\\n\\s+--|\\n\\n)`).exec(r.stdout)?.[0] ?? '';
        assert.ok(entry, `${role}: --${f} listed`);
        assert.doesNotMatch(entry, /not\s+supported\s+yet/, `${role}: --${f}`);
      }
    }
  });

  it('refuses a period of 0, a negative grace period, negative rates and thresholds, and NaN', () => {
    const cases: [string, string][] = [
      ['--node-monitor-period=0s', 'invalid argument "0s" for "--node-monitor-period" flag: must be greater than 0'],
      ['--node-monitor-grace-period=-1s', 'invalid argument "-1s" for "--node-monitor-grace-period" flag: must be greater than 0'],
      ['--node-startup-grace-period=0', 'invalid argument "0" for "--node-startup-grace-period" flag: must be greater than 0'],
      ['--node-eviction-rate=-0.5', 'invalid argument "-0.5" for "--node-eviction-rate" flag: must not be negative'],
      ['--secondary-node-eviction-rate=-1', 'invalid argument "-1" for "--secondary-node-eviction-rate" flag: must not be negative'],
      ['--unhealthy-zone-threshold=-0.1', 'invalid argument "-0.1" for "--unhealthy-zone-threshold" flag: must not be negative'],
      ['--large-cluster-size-threshold=-3', 'invalid argument "-3" for "--large-cluster-size-threshold" flag: must not be negative'],
      ['--unhealthy-zone-threshold=NaN', 'invalid argument "NaN" for "--unhealthy-zone-threshold" flag: must be a number'],
      ['--node-eviction-rate=nan', 'invalid argument "nan" for "--node-eviction-rate" flag: must be a number'],
    ];
    for (const [arg, message] of cases) {
      const r = runPlat(['controller-manager', arg]);
      assert.deepEqual([r.code, r.stderr], [2, `plat controller-manager: ${message}\n`], arg);
    }
  });
});
