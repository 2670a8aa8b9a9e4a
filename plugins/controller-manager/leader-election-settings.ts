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

/** A problem with the settings and the flags it is about. */
export interface LeaderElectionProblem { readonly message: string; readonly flags: readonly string[] }

/** Problems with the settings (nothing is checked when leader election is off, as upstream). */
export function leaderElectionProblems(s: LeaderElectionSettings): LeaderElectionProblem[] {
  if (!s.leaderElect) return [];
  const d = formatDuration;
  const problems: LeaderElectionProblem[] = [];
  const add = (message: string, ...flags: string[]) => { problems.push({ message, flags }); };
  if (s.resourceLock !== 'leases') {
    add(`--${LEADER_ELECT.resourceLock}=${JSON.stringify(s.resourceLock)}: resourceLock value must be "leases"`, LEADER_ELECT.resourceLock);
  }
  if (s.resourceName === '') add(`--${LEADER_ELECT.resourceName}: resourceName is required`, LEADER_ELECT.resourceName);
  if (s.resourceNamespace === '') add(`--${LEADER_ELECT.resourceNamespace}: resourceNamespace is required`, LEADER_ELECT.resourceNamespace);
  const positive: [string, number, string][] = [
    [LEADER_ELECT.leaseDuration, s.leaseDurationMs, 'leaseDuration'],
    [LEADER_ELECT.renewDeadline, s.renewDeadlineMs, 'renewDeadline'],
    [LEADER_ELECT.retryPeriod, s.retryPeriodMs, 'retryPeriod'],
  ];
  for (const [flag, value, field] of positive) {
    if (value <= 0) add(`--${flag}=${d(value)}: ${field} must be greater than zero`, flag);
  }
  if (problems.length) return problems;
  if (s.leaseDurationMs <= s.renewDeadlineMs) {
    add(`leaseDuration must be greater than renewDeadline (--${LEADER_ELECT.leaseDuration}=${d(s.leaseDurationMs)}, --${LEADER_ELECT.renewDeadline}=${d(s.renewDeadlineMs)})`,
      LEADER_ELECT.leaseDuration, LEADER_ELECT.renewDeadline);
  }
  if (s.renewDeadlineMs <= JITTER_FACTOR * s.retryPeriodMs) {
    add(`renewDeadline must be greater than retryPeriod*JitterFactor (--${LEADER_ELECT.renewDeadline}=${d(s.renewDeadlineMs)}, --${LEADER_ELECT.retryPeriod}=${d(s.retryPeriodMs)}, JitterFactor ${JITTER_FACTOR})`,
      LEADER_ELECT.renewDeadline, LEADER_ELECT.retryPeriod);
  }
  return problems;
}

/** The problems' messages, one line each. */
export const leaderElectionErrors = (s: LeaderElectionSettings): string[] => leaderElectionProblems(s).map((p) => p.message);
