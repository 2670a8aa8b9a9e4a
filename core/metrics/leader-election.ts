// client-go's leader election metrics as component-base registers them (ALPHA in 1.32), labelled
// with the election's name (kube-controller-manager's: the Lease name): the master status, 0
// from the elector's creation, 1 while leading; and how often a renewal took the slow path (a
// read before the write) because the optimistic write of the last Lease failed.
import type { MetricsRegistry } from './registry.js';

export interface LeaderElectionMetrics {
  leaderOn(name: string): void;
  leaderOff(name: string): void;
  slowpathExercised(name: string): void;
}

const made = new WeakMap<MetricsRegistry, LeaderElectionMetrics>();

export function leaderElectionMetrics(registry: MetricsRegistry): LeaderElectionMetrics {
  let m = made.get(registry);
  if (m) return m;
  const labelNames = ['name'];
  const status = registry.gauge({
    name: 'leader_election_master_status', labelNames,
    help: 'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. \'name\' is the string used to identify the lease. Please make sure to group by name.',
  });
  const slowpath = registry.counter({
    name: 'leader_election_slowpath_total', labelNames,
    help: 'Total number of slow path exercised in renewing leader leases. \'name\' is the string used to identify the lease. Please make sure to group by name.',
  });
  m = {
    leaderOn: (name) => status.labels(name).set(1),
    leaderOff: (name) => status.labels(name).set(0),
    slowpathExercised: (name) => slowpath.labels(name).inc(),
  };
  made.set(registry, m);
  return m;
}
