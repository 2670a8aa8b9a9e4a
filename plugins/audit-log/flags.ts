// The log backend's flags, the spec's (host/flag-catalogue/apiserver.ts) with upstream's defaults
// for the log backend: blocking, a batch of 1, no throttling. Their values are checked at configure,
// all at once with upstream's texts, and only when --audit-log-path is set (options.ts).
import type { FlagSpec } from '../../core/flags/types.js';

const AUDIT = 'Audit options';

export const auditLogFlags: readonly FlagSpec[] = [
  { name: 'audit-log-path', type: 'string', default: '', section: AUDIT, help: 'Log all requests to this file; `-` is standard output.' },
  { name: 'audit-log-format', type: 'string', default: 'json', section: AUDIT, help: '`legacy` (one-line text) or `json`.' },
  { name: 'audit-log-mode', type: 'string', default: 'blocking', section: AUDIT, help: '`batch`, `blocking` or `blocking-strict`.' },
  { name: 'audit-log-version', type: 'string', default: 'audit.platform/v1', section: AUDIT, help: 'Group and version of serialized events.' },
  { name: 'audit-log-maxage', type: 'int', default: 0, section: AUDIT, help: 'Days to retain rotated files.' },
  { name: 'audit-log-maxbackup', type: 'int', default: 0, section: AUDIT, help: 'Rotated files to retain; 0 means no restriction.' },
  { name: 'audit-log-maxsize', type: 'int', default: 0, section: AUDIT, help: 'Megabytes before rotation (0: 100).' },
  { name: 'audit-log-compress', type: 'bool', default: false, section: AUDIT, help: 'gzip rotated files.' },
  { name: 'audit-log-batch-buffer-size', type: 'int', default: 10000, section: AUDIT, help: 'Batch-mode buffer.' },
  { name: 'audit-log-batch-max-size', type: 'int', default: 1, section: AUDIT, help: 'Batch-mode maximum batch.' },
  { name: 'audit-log-batch-max-wait', type: 'duration', default: 0, section: AUDIT, help: 'Wait before forcing an incomplete batch.' },
  { name: 'audit-log-batch-throttle-enable', type: 'bool', default: false, section: AUDIT, help: 'Batch throttling.' },
  { name: 'audit-log-batch-throttle-qps', type: 'float32', default: 0, section: AUDIT, help: 'Average batches per second.' },
  { name: 'audit-log-batch-throttle-burst', type: 'int', default: 0, section: AUDIT, help: 'Simultaneous requests if throttle QPS was unused.' },
  { name: 'audit-log-truncate-enabled', type: 'bool', default: false, section: AUDIT, help: 'Event and batch truncation.' },
  { name: 'audit-log-truncate-max-batch-size', type: 'int', default: 10485760, section: AUDIT, help: 'Larger batches are split.' },
  { name: 'audit-log-truncate-max-event-size', type: 'int', default: 102400, section: AUDIT, help: 'Larger events lose request and response, then are discarded if still too large.' },
];
