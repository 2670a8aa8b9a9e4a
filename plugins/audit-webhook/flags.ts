// The webhook backend's flags, the spec's (host/flag-catalogue/apiserver.ts) with upstream's
// defaults for the webhook backend: batch mode, 400 events a batch at most 30s apart, throttled
// to 10 batches a second (burst 15), retries from 10s. Their values are checked at configure, all
// at once with upstream's texts, and only when --audit-webhook-config-file is set (index.ts).
import type { FlagSpec } from '../../core/flags/types.js';

const AUDIT = 'Audit options';

export const CONFIG_FILE_FLAG = 'audit-webhook-config-file';
export const INITIAL_BACKOFF_FLAG = 'audit-webhook-initial-backoff';

export const auditWebhookFlags: readonly FlagSpec[] = [
  { name: CONFIG_FILE_FLAG, type: 'string', default: '', section: AUDIT, help: 'Connection-settings file for the audit webhook.' },
  { name: 'audit-webhook-mode', type: 'string', default: 'batch', section: AUDIT, help: '`batch`, `blocking`, `blocking-strict`.' },
  { name: 'audit-webhook-version', type: 'string', default: 'audit.platform/v1', section: AUDIT, help: 'Serialization group and version.' },
  { name: INITIAL_BACKOFF_FLAG, type: 'duration', default: 10_000, section: AUDIT, help: 'Wait before retrying the first failed request.' },
  { name: 'audit-webhook-batch-buffer-size', type: 'int', default: 10000, section: AUDIT, help: 'Batch buffer.' },
  { name: 'audit-webhook-batch-max-size', type: 'int', default: 400, section: AUDIT, help: 'Maximum batch.' },
  { name: 'audit-webhook-batch-max-wait', type: 'duration', default: 30_000, section: AUDIT, help: 'Forced write wait.' },
  { name: 'audit-webhook-batch-throttle-enable', type: 'bool', default: true, section: AUDIT, help: 'Throttling.' },
  { name: 'audit-webhook-batch-throttle-qps', type: 'float32', default: 10, section: AUDIT, help: 'Batches per second.' },
  { name: 'audit-webhook-batch-throttle-burst', type: 'int', default: 15, section: AUDIT, help: 'Burst.' },
  { name: 'audit-webhook-truncate-enabled', type: 'bool', default: false, section: AUDIT, help: 'Truncation.' },
  { name: 'audit-webhook-truncate-max-batch-size', type: 'int', default: 10485760, section: AUDIT, help: 'As for the log backend.' },
  { name: 'audit-webhook-truncate-max-event-size', type: 'int', default: 102400, section: AUDIT, help: 'As for the log backend.' },
];
