// The flags ControllerManagerPlugin honours, with spec 02's names, types, defaults and sections.
// The embedded variant (`plat all`) has no API connection of its own, so no --platconfig,
// --master or --config.
import { parseDuration } from '../../core/flags/duration.js';
import type { FlagSpec } from '../../core/flags/types.js';
import { apiContentTypeProblem } from '../../core/flags/api-content-type.js';
import { LEADER_ELECT } from './leader-election-settings.js';

const CLIENT = 'Client connection to the API server';
const PROCESS = 'Leader election and process';

export const FLAGS = {
  platconfig: 'platconfig',
  master: 'master',
  qps: 'plat-api-qps',
  burst: 'plat-api-burst',
  contentType: 'plat-api-content-type',
  config: 'config',
  controllers: 'controllers',
  startInterval: 'controller-start-interval',
  shutdownTimeout: 'controller-shutdown-timeout',
  minResyncPeriod: 'min-resync-period',
  useServiceAccountCredentials: 'use-service-account-credentials',
} as const;

const ms = parseDuration;
const nonNegative = (v: unknown) => ((v as number) < 0 ? 'must not be negative' : undefined);

/** Flags for talking to the API server from a process of its own (not `plat all`). */
export const connectionFlags: readonly FlagSpec[] = [
  { name: FLAGS.platconfig, type: 'string', section: CLIENT, help: 'Connection settings file (authorization and master location).' },
  { name: FLAGS.master, type: 'string', section: CLIENT, help: 'API server address; overrides the settings file.' },
  // Accepted, not acted on: requests go out as JSON whichever of the two is given.
  { name: FLAGS.contentType, type: 'string', default: 'application/vnd.platform.protobuf', section: CLIENT, help: 'Request content type.', validate: apiContentTypeProblem },
  { name: FLAGS.config, type: 'string', section: PROCESS,
    help: 'A PlatControllerManagerConfiguration file (YAML or JSON); its Generic, KubeCloudShared and CSRSigningController parts set the matching flags, and flags given on the command line override it.' },
  // Embedded, the controllers reach the API server over an in-process connection that presents the
  // admin's certificate, so there is nothing to trade for a service account's token.
  { name: FLAGS.useServiceAccountCredentials, type: 'bool', section: PROCESS, help: 'Individual service account credentials per controller.' },
];

/** Flags of running controllers, in both variants. */
export function runnerFlags(controllersHelp: string): FlagSpec[] {
  return [
    { name: FLAGS.qps, type: 'float32', default: 20, section: CLIENT, help: 'Queries per second.' },
    { name: FLAGS.burst, type: 'int', typeName: 'int32', default: 30, section: CLIENT, help: 'Burst.', validate: nonNegative },
    { name: LEADER_ELECT.enabled, type: 'bool', default: true, section: PROCESS, help: 'Acquire leadership before running the main loop.' },
    { name: LEADER_ELECT.leaseDuration, type: 'duration', default: ms('15s'), section: PROCESS, help: 'Wait by non-leaders after observing a renewal before taking over an unrenewed slot.' },
    { name: LEADER_ELECT.renewDeadline, type: 'duration', default: ms('10s'), section: PROCESS, help: 'Interval of renewal attempts by the acting leader; must be less than the lease duration.' },
    { name: LEADER_ELECT.retryPeriod, type: 'duration', default: ms('2s'), section: PROCESS, help: 'Wait between acquisition and renewal attempts.' },
    { name: LEADER_ELECT.resourceLock, type: 'string', default: 'leases', section: PROCESS, help: 'Lock object type; only `leases` supported.' },
    { name: LEADER_ELECT.resourceName, type: 'string', default: 'plat-controller-manager', section: PROCESS, help: 'Lock object name.' },
    { name: LEADER_ELECT.resourceNamespace, type: 'string', default: 'plat-system', section: PROCESS, help: 'Lock object namespace.' },
    { name: FLAGS.controllers, type: 'strings', default: ['*'], section: PROCESS, help: controllersHelp },
    { name: FLAGS.startInterval, type: 'duration', default: 0, section: PROCESS, help: 'Interval between starting controller managers.', validate: nonNegative },
    { name: FLAGS.shutdownTimeout, type: 'duration', default: ms('10s'), section: PROCESS, help: 'Wait for controllers to stop before exit.', validate: nonNegative },
    { name: FLAGS.minResyncPeriod, type: 'duration', default: ms('12h0m0s'), section: PROCESS, help: 'Reflector resync period, random between this and twice this.', validate: nonNegative },
  ];
}
