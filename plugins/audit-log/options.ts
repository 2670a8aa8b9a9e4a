// AuditLogOptions.Validate: checked only when --audit-log-path is set, every problem at once,
// in upstream's words and order (mode and batch settings, truncation, version, format, rotation).
import type { FlagSet } from '../../core/flags/types.js';
import { located, type LocatedProblems } from '../../core/located-problems.js';
import { AUDIT_MODES, type AuditMode, type BackendSettings } from '../../core/audit/backend.js';
import { AUDIT_API_VERSION } from '../../core/audit/event.js';
import type { RotationSettings } from './rotating-file.js';

const FORMATS = ['legacy', 'json'];

export interface AuditLogSettings {
  readonly path: string;
  readonly format: 'legacy' | 'json';
  readonly backend: BackendSettings;
  readonly rotation: RotationSettings;
}

/** schema.ParseGroupVersion's error, then the known-versions check. */
function groupVersionProblem(gv: string): string | undefined {
  if (gv.split('/').length > 2) return `unexpected GroupVersion string: ${gv}`;
  return gv === AUDIT_API_VERSION ? undefined : `invalid group version, allowed versions are ["${AUDIT_API_VERSION}"]`;
}

export function validateAuditLog(f: FlagSet): LocatedProblems[] {
  const n = (name: string) => `audit-log-${name}`;
  const get = <T>(name: string) => f.get<T>(n(name));
  const out: LocatedProblems[] = [];
  const add = (problem: string, ...names: string[]) => out.push(located(f, [problem], names.map(n)));
  const mode = get<string>('mode');
  if (!(AUDIT_MODES as readonly string[]).includes(mode)) add(`invalid audit log mode ${mode}, allowed modes are "${AUDIT_MODES.join(',')}"`, 'mode');
  else if (mode === 'batch') {
    const buffer = get<number>('batch-buffer-size');
    const max = get<number>('batch-max-size');
    if (buffer <= 0) add(`invalid audit batch log buffer size ${buffer}, must be a positive number`, 'batch-buffer-size');
    else if (max <= 0) add(`invalid audit batch log max batch size ${max}, must be a positive number`, 'batch-max-size');
    else if (get<boolean>('batch-throttle-enable')) {
      const qps = get<number>('batch-throttle-qps');
      const burst = get<number>('batch-throttle-burst');
      if (qps <= 0) add(`invalid audit batch log throttle QPS ${qps}, must be a positive number`, 'batch-throttle-qps');
      else if (burst <= 0) add(`invalid audit batch log throttle burst ${burst}, must be a positive number`, 'batch-throttle-burst');
    }
  }
  const maxEvent = get<number>('truncate-max-event-size');
  const maxBatch = get<number>('truncate-max-batch-size');
  if (maxEvent <= 0) add(`invalid audit truncate log max event size ${maxEvent}, must be a positive number`, 'truncate-max-event-size');
  else if (maxBatch < maxEvent) add(`invalid audit truncate log max batch size ${maxBatch}, must be greater than max event size (${maxEvent})`, 'truncate-max-batch-size', 'truncate-max-event-size');
  const gv = groupVersionProblem(get<string>('version'));
  if (gv) add(gv, 'version');
  const format = get<string>('format');
  if (!FORMATS.includes(format)) add(`invalid audit log format ${format}, allowed formats are "${FORMATS.join(',')}"`, 'format');
  for (const k of ['maxage', 'maxbackup', 'maxsize']) {
    const v = get<number>(k);
    if (v < 0) add(`--audit-log-${k} ${v} can't be a negative number`, k);
  }
  return out;
}

/** The settings, once validateAuditLog found nothing. */
export function auditLogSettings(f: FlagSet): AuditLogSettings {
  const get = <T>(name: string) => f.get<T>(`audit-log-${name}`);
  return {
    path: get<string>('path'),
    format: get<'legacy' | 'json'>('format'),
    backend: {
      mode: get<AuditMode>('mode'),
      batch: {
        bufferSize: get<number>('batch-buffer-size'), maxBatchSize: get<number>('batch-max-size'), maxBatchWait: get<number>('batch-max-wait'),
        throttleEnable: get<boolean>('batch-throttle-enable'), throttleQPS: get<number>('batch-throttle-qps'), throttleBurst: get<number>('batch-throttle-burst'),
      },
      ...(get<boolean>('truncate-enabled') ? { truncate: { maxEventSize: get<number>('truncate-max-event-size'), maxBatchSize: get<number>('truncate-max-batch-size') } } : {}),
      apiVersion: get<string>('version'),
    },
    rotation: { maxSize: get<number>('maxsize'), maxBackups: get<number>('maxbackup'), maxAge: get<number>('maxage'), compress: get<boolean>('compress') },
  };
}
