// Zone states and the taint queues' rates, table-driven from upstream's TestMonitorNodeHealth
// (node_lifecycle_controller_test.go): each case gives every node's zone and Ready status as the
// first health pass sees it and as the second one does an hour later (a node whose heartbeat did
// not move is Unknown by then; `none` is a node without a Ready condition), and the zone states
// each pass ends with. Then the rates ComputeZoneState's states call for, and the
// RateLimitedTimedQueue itself (rate_limited_queue_test.go) on a hand-moved clock.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger } from '../../core/log.js';
import type { NodeCondition } from '../../core/nodes/node-object.js';
import { computeZoneState, RateLimitedTimedQueue, zoneKey, Zones, type ZoneState } from '../../plugins/nodelifecycle-controller/index.js';

type Ready = 'True' | 'Unknown' | 'none';
interface ZoneCase {
  readonly name: string;
  /** [zone, first pass, second pass, excluded from disruption checks]. */
  readonly nodes: readonly (readonly [zone: string, first: Ready, second: Ready, excluded?: boolean])[];
  readonly first: Record<string, ZoneState>;
  readonly second: Record<string, ZoneState>;
}

const z = (region: string, zone: string) => `${region}:\0:${zone}`;
const Z1 = z('region1', 'zone1');
const Z2 = z('region1', 'zone2');

const CASES: readonly ZoneCase[] = [
  { name: 'No Disruption: Node created recently without failure domain labels (happens only at cluster startup)',
    nodes: [['', 'True', 'True']], first: { '': 'Normal' }, second: { '': 'Normal' } },
  { name: 'No Disruption: Initially both zones down, one comes back',
    nodes: [[Z1, 'Unknown', 'Unknown'], [Z2, 'Unknown', 'True']],
    first: { [Z1]: 'FullDisruption', [Z2]: 'FullDisruption' }, second: { [Z1]: 'FullDisruption', [Z2]: 'Normal' } },
  { name: 'Partial Disruption: Nodes created recently without status conditions (happens only at cluster startup)',
    nodes: [[Z1, 'none', 'Unknown'], [Z1, 'none', 'Unknown'], [Z1, 'none', 'Unknown'], [Z1, 'none', 'True']],
    first: { [Z1]: 'FullDisruption' }, second: { [Z1]: 'PartialDisruption' } },
  { name: 'Partial Disruption: one Node failed leading to the number of healthy Nodes to exceed the configured threshold',
    nodes: [[Z1, 'Unknown', 'Unknown'], [Z1, 'Unknown', 'Unknown'], [Z1, 'True', 'Unknown'], [Z1, 'True', 'True'], [Z1, 'True', 'True']],
    first: { [Z1]: 'Normal' }, second: { [Z1]: 'PartialDisruption' } },
  { name: 'Full Disruption: the zone has less than 2 Nodes down, the last healthy Node has failed',
    nodes: [[Z1, 'Unknown', 'Unknown'], [Z1, 'Unknown', 'Unknown'], [Z1, 'True', 'Unknown']],
    first: { [Z1]: 'Normal' }, second: { [Z1]: 'FullDisruption' } },
  { name: 'Full Disruption: all the Nodes in one zone are down',
    nodes: [[Z1, 'Unknown', 'Unknown'], [Z2, 'True', 'True']],
    first: { [Z1]: 'FullDisruption', [Z2]: 'Normal' }, second: { [Z1]: 'FullDisruption', [Z2]: 'Normal' } },
  { name: 'Full Disruption: all the Nodes in both the zones are down',
    nodes: [[Z1, 'Unknown', 'Unknown'], [z('region2', 'zone2'), 'Unknown', 'Unknown']],
    first: { [Z1]: 'FullDisruption', [z('region2', 'zone2')]: 'FullDisruption' }, second: { [Z1]: 'FullDisruption', [z('region2', 'zone2')]: 'FullDisruption' } },
  { name: 'Full Disruption: Ready condition removed from the Node',
    nodes: [[Z1, 'True', 'none']], first: { [Z1]: 'Normal' }, second: { [Z1]: 'FullDisruption' } },
  { name: 'Full Disruption: the only available Node has the node.platform/exclude-disruption label',
    nodes: [[Z1, 'Unknown', 'Unknown'], [Z1, 'True', 'True', true]], first: { [Z1]: 'FullDisruption' }, second: { [Z1]: 'FullDisruption' } },
];

const quiet = createLogger({ verbosity: 0, write: () => {} });
const condition = (r: Ready): NodeCondition | undefined => (r === 'none' ? undefined : { type: 'Ready', status: r });
/** testRateLimiterQPS, testLargeClusterThreshold, testUnhealthyThreshold. */
const zones = (o: Partial<ConstructorParameters<typeof Zones>[0]> = {}) => new Zones({
  evictionQps: 100_000, secondaryEvictionQps: 100_000, largeClusterThreshold: 20, unhealthyThreshold: 0.55, monotonicNow: () => 0, logger: quiet, ...o,
});

/** One monitorNodeHealth's zone part: every node's zone is known, the ones not excluded are counted. */
function pass(zs: Zones, nodes: ZoneCase['nodes'], which: 1 | 2): void {
  const conditions = new Map<string, (NodeCondition | undefined)[]>();
  for (const [zone, first, second, excluded] of nodes) {
    zs.addForNewZone(zone);
    if (!excluded) conditions.set(zone, [...(conditions.get(zone) ?? []), condition(which === 1 ? first : second)]);
  }
  zs.handleDisruption(conditions);
}

describe('node lifecycle controller zones', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const zs = zones();
      pass(zs, c.nodes, 1);
      assert.deepEqual(Object.fromEntries(zs.states), c.first, 'initial states');
      pass(zs, c.nodes, 2);
      assert.deepEqual(Object.fromEntries(zs.states), c.second, 'following states');
    });
  }

  it('ComputeZoneState counts a missing condition as not Ready and needs more than 2 not Ready for a partial disruption', () => {
    const ready = (...s: Ready[]) => s.map(condition);
    const table: [string, (NodeCondition | undefined)[], [number, ZoneState]][] = [
      ['empty', [], [0, 'Normal']],
      ['all ready', ready('True', 'True'), [0, 'Normal']],
      ['none ready', ready('Unknown', 'none'), [2, 'FullDisruption']],
      ['2 of 3 not ready: not more than 2', ready('Unknown', 'Unknown', 'True'), [2, 'Normal']],
      ['3 of 5: 0.6 >= 0.55', ready('Unknown', 'Unknown', 'none', 'True', 'True'), [3, 'PartialDisruption']],
      ['3 of 6: 0.5 < 0.55', ready('Unknown', 'Unknown', 'Unknown', 'True', 'True', 'True'), [3, 'Normal']],
    ];
    for (const [name, conditions, want] of table) assert.deepEqual(computeZoneState(conditions, 0.55), want, name);
    assert.deepEqual(computeZoneState(ready('Unknown', 'Unknown', 'Unknown', 'True', 'True', 'True'), 0.5), [3, 'PartialDisruption'], 'threshold reached exactly');
  });

  it('zoneKey reads the beta failure-domain labels first, then the topology ones', () => {
    const node = (labels: Record<string, string>) => ({ metadata: { name: 'n', labels } });
    assert.equal(zoneKey(node({})), '');
    assert.equal(zoneKey(node({ 'topology.platform/region': 'r', 'topology.platform/zone': 'a' })), z('r', 'a'));
    assert.equal(zoneKey(node({ 'topology.platform/zone': 'a', 'failure-domain.beta.platform/zone': 'b' })), z('', 'b'));
  });

  it('sets each zone\'s taint rate from its state: the eviction rate, the secondary one in a large partially disrupted zone, none in a small one or when every zone is down', () => {
    const zs = zones({ evictionQps: 0.1, secondaryEvictionQps: 0.01, largeClusterThreshold: 3 });
    const qps = () => Object.fromEntries([...zs.tainters].map(([k, q]) => [k, q.qps]));
    const run = (zone: Record<string, Ready[]>) => {
      const m = new Map(Object.entries(zone).map(([k, v]) => [k, v.map(condition)]));
      for (const k of m.keys()) zs.addForNewZone(k);
      return zs.handleDisruption(m);
    };
    run({ [Z1]: ['True', 'True', 'True', 'True'], [Z2]: ['True', 'True', 'True'] });
    assert.deepEqual(qps(), { [Z1]: 0.1, [Z2]: 0.1 });
    // Z1 (4 nodes, large) and Z2 (3 nodes, small) partially disrupted.
    run({ [Z1]: ['Unknown', 'Unknown', 'Unknown', 'True'], [Z2]: ['Unknown', 'Unknown', 'Unknown'] });
    assert.deepEqual(Object.fromEntries(zs.states), { [Z1]: 'PartialDisruption', [Z2]: 'FullDisruption' });
    assert.deepEqual(qps(), { [Z1]: 0.01, [Z2]: 0.1 }, 'a fully disrupted zone among others keeps the normal rate');
    run({ [Z1]: ['Unknown', 'Unknown', 'Unknown'], [Z2]: ['Unknown'] });
    assert.deepEqual(qps(), { [Z1]: 0, [Z2]: 0 }, 'every zone down: master disruption mode, no taints');
    assert.equal(run({ [Z1]: ['True', 'True', 'True', 'Unknown'], [Z2]: ['Unknown'] }), 'exitedFullDisruption');
    assert.deepEqual(Object.fromEntries(zs.states), { [Z1]: 'Normal', [Z2]: 'FullDisruption' });
    assert.deepEqual(qps(), { [Z1]: 0.1, [Z2]: 0.1 });
  });
});

describe('RateLimitedTimedQueue', () => {
  const clock = () => { let t = 1_000; return { now: () => t, advance: (ms: number) => { t += ms; } }; };
  const drain = async (q: RateLimitedTimedQueue, answer: (v: string) => boolean = () => true) => {
    const seen: string[] = [];
    await q.try(async (v) => { seen.push(v.value); return { done: answer(v.value) }; });
    return seen;
  };

  it('adds a value once until it is removed, and processes in the order added (TestAddNode, TestDelNode)', async () => {
    const c = clock();
    const q = new RateLimitedTimedQueue(Infinity, c.now);
    assert.deepEqual([q.add('first', '1'), q.add('second', '2'), q.add('first', '1')], [true, true, false]);
    c.advance(1);
    q.add('third', '3');
    assert.deepEqual(q.values(), ['first', 'second', 'third']);
    assert.equal(q.remove('second'), true);
    assert.equal(q.remove('second'), false);
    assert.deepEqual(await drain(q), ['first', 'third']);
    assert.equal(q.add('first', '1'), false, 'processed once until removed');
    q.remove('first');
    assert.equal(q.add('first', '1'), true);
  });

  it('retries a value its action did not finish after the wait it asked for (TestTryOrdering)', async () => {
    const c = clock();
    const q = new RateLimitedTimedQueue(Infinity, c.now);
    q.add('a', '1');
    c.advance(1);
    q.add('b', '2');
    const seen: string[] = [];
    await q.try(async (v) => { seen.push(v.value); return v.value === 'a' ? { done: false, waitMs: 50 } : { done: true }; });
    assert.deepEqual(seen, ['a', 'b']);
    assert.deepEqual(q.values(), ['a']);
    assert.deepEqual(await drain(q), [], 'not due yet');
    c.advance(51);
    assert.deepEqual(await drain(q), ['a']);
  });

  it('lets through as many values as its rate allows, burst 1', async () => {
    const c = clock();
    const q = new RateLimitedTimedQueue(0.1, c.now);
    for (const v of ['a', 'b', 'c']) q.add(v, v);
    assert.deepEqual(await drain(q), ['a']);
    c.advance(9_999);
    assert.deepEqual(await drain(q), []);
    c.advance(1);
    assert.deepEqual(await drain(q), ['b']);
  });

  it('swaps its limiter only for another rate, never lets anything through at 0, and carries a spent token over (TestSwapLimiter)', async () => {
    const c = clock();
    const q = new RateLimitedTimedQueue(1, c.now);
    q.add('a', 'a');
    q.add('b', 'b');
    assert.deepEqual(await drain(q), ['a']);
    q.swapLimiter(0);
    assert.equal(q.qps, 0);
    c.advance(60_000);
    assert.deepEqual(await drain(q), []);
    q.swapLimiter(5.5);
    assert.equal(q.qps, 5.5);
    assert.deepEqual(await drain(q), [], 'the never limiter had no token: the new one starts drained');
    c.advance(200);
    assert.deepEqual(await drain(q), ['b']);
  });
});
