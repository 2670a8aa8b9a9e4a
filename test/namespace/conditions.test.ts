// The namespace controller's condition updater as upstream's status_condition_utils.go: failures
// become True conditions with upstream's reasons and messages, the rest False with the "ok" ones,
// and a condition's lastTransitionTime moves only when its status does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NamespaceConditionUpdater } from '../../plugins/namespace/index.js';
import { GroupDiscoveryFailedError } from '../../core/client/discovery.js';

const at = (s: number) => () => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

describe('namespace conditions', () => {
  it('discovery and content failures, in upstream\'s words', () => {
    const u = new NamespaceConditionUpdater(at(1));
    u.discoveryError(new GroupDiscoveryFailedError(new Map([['b.example/v1', 'the server is currently unable to handle the request'], ['a.example/v1', 'boom']])));
    u.deleteContentError('z failed');
    u.deleteContentError('a failed');
    const status: { conditions?: any[] } = {};
    assert.equal(u.update(status), true);
    const byType = Object.fromEntries(status.conditions!.map((c) => [c.type, c]));
    assert.deepEqual(byType['NamespaceDeletionDiscoveryFailure'], {
      type: 'NamespaceDeletionDiscoveryFailure', status: 'True', lastTransitionTime: '2026-01-01T00:00:01Z', reason: 'DiscoveryFailed',
      message: 'Discovery failed for some groups, 2 failing: unable to retrieve the complete list of server APIs: a.example/v1: boom, b.example/v1: the server is currently unable to handle the request',
    });
    assert.deepEqual([byType['NamespaceDeletionContentFailure'].reason, byType['NamespaceDeletionContentFailure'].message],
      ['ContentDeletionFailed', 'Failed to delete all resource types, 2 remaining: a failed, z failed']);
    assert.deepEqual([byType['NamespaceContentRemaining'].status, byType['NamespaceContentRemaining'].reason], ['False', 'ContentRemoved']);
  });

  it('keeps the transition time while the status stays, moves it when the status changes', () => {
    const status: { conditions?: any[] } = {};
    const first = new NamespaceConditionUpdater(at(1));
    first.contentTotals(new Map([['secrets.', 2]]), new Map([['example.com/x', 2]]));
    first.update(status);
    const second = new NamespaceConditionUpdater(at(2));
    second.contentTotals(new Map([['secrets.', 1]]), new Map([['example.com/x', 1]]));
    assert.equal(second.update(status), true, 'the message changed');
    const remaining = status.conditions!.find((c) => c.type === 'NamespaceContentRemaining');
    assert.deepEqual([remaining.status, remaining.lastTransitionTime, remaining.message], ['True', '2026-01-01T00:00:01Z', 'Some resources are remaining: secrets. has 1 resource instances']);
    const same = new NamespaceConditionUpdater(at(3));
    same.contentTotals(new Map([['secrets.', 1]]), new Map([['example.com/x', 1]]));
    assert.equal(same.update(status), false, 'nothing to write');
    const done = new NamespaceConditionUpdater(at(4));
    assert.equal(done.update(status), true);
    const after = status.conditions!.find((c) => c.type === 'NamespaceFinalizersRemaining');
    assert.deepEqual([after.status, after.reason, after.message, after.lastTransitionTime], ['False', 'ContentRemoved', 'All content successfully removed', '2026-01-01T00:00:04Z']);
  });
});
