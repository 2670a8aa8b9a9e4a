// AuditLogOptions.Validate: checked only when --audit-log-path is set, every problem at once,
// in upstream's words and order (mode and batch settings, truncation, version: core/audit's, as
// the webhook backend's; then format and rotation).
import type { FlagSet } from '../../core/flags/types.js';
import { located, type LocatedProblems } from '../../core/located-problems.js';
import type { BackendSettings } from '../../core/audit/backend.js';
import { backendSettings, validateBackendOptions } from '../../core/audit/backend-options.js';
import type { RotationSettings } from './rotating-file.js';

const FORMATS = ['legacy', 'json'];

export interface AuditLogSettings {
  readonly path: string;
  readonly format: 'legacy' | 'json';
  readonly backend: BackendSettings;
  readonly rotation: RotationSettings;
}

export function validateAuditLog(f: FlagSet): LocatedProblems[] {
  const n = (name: string) => `audit-log-${name}`;
  const get = <T>(name: string) => f.get<T>(n(name));
  const out = validateBackendOptions(f, 'log');
  const add = (problem: string, name: string) => out.push(located(f, [problem], [n(name)]));
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
    backend: backendSettings(f, 'log'),
    rotation: { maxSize: get<number>('maxsize'), maxBackups: get<number>('maxbackup'), maxAge: get<number>('maxage'), compress: get<boolean>('compress') },
  };
}
