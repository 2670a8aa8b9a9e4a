// The --leader-elect-* flags, checked at start-up with upstream's rules: the resource lock must be
// `leases` (controller-manager's Validate), and client-go's NewLeaderElector conditions, which
// upstream only meets once running (and then exits): every duration positive, the lease longer
// than the renew deadline, the renew deadline longer than 1.2 retry periods.
import { formatDuration } from '../../core/flags/duration.js';
import type { FlagSet } from '../../core/flags/types.js';

export const LEADER_ELECT = {
  enabled: 'leader-elect',
  leaseDuration: 'leader-elect-lease-duration',
  renewDeadline: 'leader-elect-renew-deadline',
  retryPeriod: 'leader-elect-retry-period',
  resourceLock: 'leader-elect-resource-lock',
  resourceName: 'leader-elect-resource-name',
  resourceNamespace: 'leader-elect-resource-namespace',
} as const;

/** client-go's leaderelection.JitterFactor. */
const JITTER_FACTOR = 1.2;

export interface LeaderElectionSettings {
  readonly leaderElect: boolean;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
  readonly resourceLock: string;
  readonly resourceName: string;
  readonly resourceNamespace: string;
}

export function leaderElectionSettings(flags: FlagSet): LeaderElectionSettings {
  return {
    leaderElect: flags.get<boolean>(LEADER_ELECT.enabled),
    leaseDurationMs: flags.get<number>(LEADER_ELECT.leaseDuration),
    renewDeadlineMs: flags.get<number>(LEADER_ELECT.renewDeadline),
    retryPeriodMs: flags.get<number>(LEADER_ELECT.retryPeriod),
    resourceLock: flags.get<string>(LEADER_ELECT.resourceLock),
    resourceName: flags.get<string>(LEADER_ELECT.resourceName),
    resourceNamespace: flags.get<string>(LEADER_ELECT.resourceNamespace),
  };
}

/** Problems with the settings, one line each (nothing is checked when leader election is off, as upstream). */
export function leaderElectionErrors(s: LeaderElectionSettings): string[] {
  if (!s.leaderElect) return [];
  const d = formatDuration;
  const errors: string[] = [];
  if (s.resourceLock !== 'leases') {
    errors.push(`--${LEADER_ELECT.resourceLock}=${JSON.stringify(s.resourceLock)}: resourceLock value must be "leases"`);
  }
  if (s.resourceName === '') errors.push(`--${LEADER_ELECT.resourceName}: resourceName is required`);
  if (s.resourceNamespace === '') errors.push(`--${LEADER_ELECT.resourceNamespace}: resourceNamespace is required`);
  const positive: [string, number, string][] = [
    [LEADER_ELECT.leaseDuration, s.leaseDurationMs, 'leaseDuration'],
    [LEADER_ELECT.renewDeadline, s.renewDeadlineMs, 'renewDeadline'],
    [LEADER_ELECT.retryPeriod, s.retryPeriodMs, 'retryPeriod'],
  ];
  for (const [flag, value, field] of positive) {
    if (value <= 0) errors.push(`--${flag}=${d(value)}: ${field} must be greater than zero`);
  }
  if (errors.length) return errors;
  if (s.leaseDurationMs <= s.renewDeadlineMs) {
    errors.push(`leaseDuration must be greater than renewDeadline (--${LEADER_ELECT.leaseDuration}=${d(s.leaseDurationMs)}, --${LEADER_ELECT.renewDeadline}=${d(s.renewDeadlineMs)})`);
  }
  if (s.renewDeadlineMs <= JITTER_FACTOR * s.retryPeriodMs) {
    errors.push(`renewDeadline must be greater than retryPeriod*JitterFactor (--${LEADER_ELECT.renewDeadline}=${d(s.renewDeadlineMs)}, --${LEADER_ELECT.retryPeriod}=${d(s.retryPeriodMs)}, JitterFactor ${JITTER_FACTOR})`);
  }
  return errors;
}
