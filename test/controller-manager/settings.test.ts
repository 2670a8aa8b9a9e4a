// The rules behind --controllers (k8s.io/controller-manager IsControllerEnabled / Validate) and the
// --leader-elect-* checks (Validate's resource lock, client-go's NewLeaderElector), as tables.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { controllersHelp, isControllerEnabled, unknownControllerErrors } from '../../core/controller/selection.js';
import { MapRegistry } from '../../core/lifecycle.js';
import { leaderElectionErrors, leaderElectionProblems, type LeaderElectionSettings } from '../../plugins/controller-manager/leader-election-settings.js';

describe('--controllers', () => {
  // [controllers, name, disabled by default, enabled?]
  const table: [string[], string, boolean, boolean][] = [
    [['*'], 'csrsigning', false, true],
    [['*'], 'bootstrapsigner', true, false],
    [[], 'csrsigning', false, false],
    [['csrsigning'], 'csrsigning', false, true],
    [['csrsigning'], 'csrapproving', false, false],
    [['bootstrapsigner'], 'bootstrapsigner', true, true],
    [['*', 'bootstrapsigner'], 'bootstrapsigner', true, true],
    [['-csrsigning', '*'], 'csrsigning', false, false],
    [['*', '-csrsigning'], 'csrsigning', false, false],
    [['csrsigning', '-csrsigning'], 'csrsigning', false, true],
    [['-csrsigning', 'csrsigning'], 'csrsigning', false, false],
    [['-csrsigning'], 'csrapproving', false, false],
    [['-bootstrapsigner', '*'], 'csrsigning', false, true],
  ];
  for (const [controllers, name, off, want] of table) {
    it(`${JSON.stringify(controllers)} ${want ? 'enables' : 'does not enable'} ${name}${off ? ' (off by default)' : ''}`, () => {
      assert.equal(isControllerEnabled(name, off, controllers), want);
    });
  }

  it('takes a controller\'s aliases for it (upstream\'s long names), the first item still deciding', () => {
    const aliases = ['certificatesigningrequest-signing-controller'];
    assert.equal(isControllerEnabled('csrsigning', false, ['*', '-certificatesigningrequest-signing-controller'], aliases), false);
    assert.equal(isControllerEnabled('csrsigning', true, ['certificatesigningrequest-signing-controller'], aliases), true);
    assert.equal(isControllerEnabled('csrsigning', false, ['csrsigning', '-certificatesigningrequest-signing-controller'], aliases), true);
    assert.equal(isControllerEnabled('csrsigning', false, ['-certificatesigningrequest-signing-controller'], []), false, 'not without *');
    // A name is one controller's only: an alias may not be another's name or alias.
    const registry = new MapRegistry<() => void>();
    registry.register('a', () => {}, { aliases: ['a-controller'] });
    assert.throws(() => registry.register('a-controller', () => {}), /"a-controller" is registered twice/);
    assert.throws(() => registry.register('b', () => {}, { aliases: ['a'] }), /"a" is registered twice/);
    assert.deepEqual([registry.names(), registry.aliasesOf('a')], [['a'], ['a-controller']]);
  });

  it('names each unknown item once, with or without its dash', () => {
    assert.deepEqual(unknownControllerErrors(['*', 'a', '-b', 'c', '-zz', 'zz2'], ['a', 'b', 'c']),
      ['"zz" is not in the list of known controllers', '"zz2" is not in the list of known controllers']);
    assert.deepEqual(unknownControllerErrors(['*'], []), []);
  });

  it('lists the known controllers in its help, as upstream', () => {
    assert.match(controllersHelp(['b', 'c', 'a'], ['c']), /named 'foo'\.\nAll controllers: a, b, c\nDisabled-by-default controllers: c$/);
    assert.match(controllersHelp(['a'], []), /\nDisabled-by-default controllers: $/);
  });
});

describe('--leader-elect-*', () => {
  const base: LeaderElectionSettings = {
    leaderElect: true, leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000,
    resourceLock: 'leases', resourceName: 'plat-controller-manager', resourceNamespace: 'plat-system',
  };
  const table: [string, Partial<LeaderElectionSettings>, string[]][] = [
    ['the defaults', {}, []],
    ['the tests\' fast election', { leaseDurationMs: 2000, renewDeadlineMs: 1500, retryPeriodMs: 500 }, []],
    ['anything when leader election is off', { leaderElect: false, resourceLock: 'endpoints', leaseDurationMs: 0 }, []],
    ['another lock', { resourceLock: 'endpointsleases' }, ['--leader-elect-resource-lock="endpointsleases": resourceLock value must be "leases"']],
    ['no lock name or namespace', { resourceName: '', resourceNamespace: '' },
      ['--leader-elect-resource-name: resourceName is required', '--leader-elect-resource-namespace: resourceNamespace is required']],
    ['zero durations', { leaseDurationMs: 0, retryPeriodMs: 0 },
      ['--leader-elect-lease-duration=0s: leaseDuration must be greater than zero', '--leader-elect-retry-period=0s: retryPeriod must be greater than zero']],
    ['a renew deadline as long as the lease', { renewDeadlineMs: 15_000 },
      ['leaseDuration must be greater than renewDeadline (--leader-elect-lease-duration=15s, --leader-elect-renew-deadline=15s)']],
    ['a renew deadline within 1.2 retry periods', { renewDeadlineMs: 2400 },
      ['renewDeadline must be greater than retryPeriod*JitterFactor (--leader-elect-renew-deadline=2.4s, --leader-elect-retry-period=2s, JitterFactor 1.2)']],
  ];
  for (const [name, change, errors] of table) {
    it(`${errors.length ? 'refuses' : 'accepts'} ${name}`, () => {
      assert.deepEqual(leaderElectionErrors({ ...base, ...change }), errors);
    });
  }

  // The controller manager locates a problem in the config file by these flags alone.
  it('gives each problem the flags its message names, and only those', () => {
    for (const [, change] of table) {
      for (const p of leaderElectionProblems({ ...base, ...change })) {
        const named = [...p.message.matchAll(/--([a-z-]+)[=:]/g)].map((m) => m[1]);
        assert.deepEqual([...p.flags].sort(), [...new Set(named)].sort(), p.message);
      }
    }
  });
});
