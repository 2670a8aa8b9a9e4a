// What upstream's AuditLogOptions and AuditWebhookOptions share: the `--audit-<plugin>-*` mode,
// batch and truncation flags and the version, checked as validateBackendBatchOptions,
// AuditTruncateOptions.Validate and validateGroupVersionString check them (each group's first
// problem only, in upstream's words naming the plugin), and read into a backend's settings.
import type { FlagSet } from '../flags/types.js';
import { located, type LocatedProblems } from '../located-problems.js';
import { AUDIT_MODES, type AuditMode, type BackendSettings } from './backend.js';
import { AUDIT_API_VERSION } from './event.js';

/** upstream's PluginName of each backend, which its flags and error texts carry. */
export type AuditPluginName = 'log' | 'webhook';

/** schema.ParseGroupVersion's error, then the known-versions check. */
function groupVersionProblem(gv: string): string | undefined {
  if (gv.split('/').length > 2) return `unexpected GroupVersion string: ${gv}`;
  return gv === AUDIT_API_VERSION ? undefined : `invalid group version, allowed versions are ["${AUDIT_API_VERSION}"]`;
}

/** The mode and batch problem, the truncation problem and the version problem, in that order. */
export function validateBackendOptions(f: FlagSet, plugin: AuditPluginName): LocatedProblems[] {
  const n = (name: string) => `audit-${plugin}-${name}`;
  const get = <T>(name: string) => f.get<T>(n(name));
  const out: LocatedProblems[] = [];
  const add = (problem: string, ...names: string[]) => out.push(located(f, [problem], names.map(n)));
  const mode = get<string>('mode');
  if (!(AUDIT_MODES as readonly string[]).includes(mode)) add(`invalid audit ${plugin} mode ${mode}, allowed modes are "${AUDIT_MODES.join(',')}"`, 'mode');
  else if (mode === 'batch') {
    const buffer = get<number>('batch-buffer-size');
    const max = get<number>('batch-max-size');
    if (buffer <= 0) add(`invalid audit batch ${plugin} buffer size ${buffer}, must be a positive number`, 'batch-buffer-size');
    else if (max <= 0) add(`invalid audit batch ${plugin} max batch size ${max}, must be a positive number`, 'batch-max-size');
    else if (get<boolean>('batch-throttle-enable')) {
      const qps = get<number>('batch-throttle-qps');
      const burst = get<number>('batch-throttle-burst');
      if (qps <= 0) add(`invalid audit batch ${plugin} throttle QPS ${qps}, must be a positive number`, 'batch-throttle-qps');
      else if (burst <= 0) add(`invalid audit batch ${plugin} throttle burst ${burst}, must be a positive number`, 'batch-throttle-burst');
    }
  }
  const maxEvent = get<number>('truncate-max-event-size');
  const maxBatch = get<number>('truncate-max-batch-size');
  if (maxEvent <= 0) add(`invalid audit truncate ${plugin} max event size ${maxEvent}, must be a positive number`, 'truncate-max-event-size');
  else if (maxBatch < maxEvent) add(`invalid audit truncate ${plugin} max batch size ${maxBatch}, must be greater than max event size (${maxEvent})`, 'truncate-max-batch-size', 'truncate-max-event-size');
  const gv = groupVersionProblem(get<string>('version'));
  if (gv) add(gv, 'version');
  return out;
}

/** The settings, once validateBackendOptions found nothing. */
export function backendSettings(f: FlagSet, plugin: AuditPluginName): BackendSettings {
  const get = <T>(name: string) => f.get<T>(`audit-${plugin}-${name}`);
  return {
    mode: get<AuditMode>('mode'),
    batch: {
      bufferSize: get<number>('batch-buffer-size'), maxBatchSize: get<number>('batch-max-size'), maxBatchWait: get<number>('batch-max-wait'),
      throttleEnable: get<boolean>('batch-throttle-enable'), throttleQPS: get<number>('batch-throttle-qps'), throttleBurst: get<number>('batch-throttle-burst'),
      // defaultWebhookBatchConfig's AsyncDelegate; the log backend's writes stay in order.
      asyncDelegate: plugin === 'webhook',
    },
    ...(get<boolean>('truncate-enabled') ? { truncate: { maxEventSize: get<number>('truncate-max-event-size'), maxBatchSize: get<number>('truncate-max-batch-size') } } : {}),
    apiVersion: get<string>('version'),
  };
}
