// What an audit backend is (upstream's audit.Backend), and how one meets the `audit` hook in the
// mode its flags name: blocking (the request waits for the backend, whose failures are only
// logged), blocking-strict (a failure at RequestReceived fails the request: the tap throws), batch
// (events are buffered and written by the backend in the background, buffered.ts). A log or webhook
// backend plugin builds its backend, wraps it (truncate.ts, then the mode) and taps with it.
import type { Host } from '../host.js';
import type { Logger } from '../log.js';
import type { AuditEvent } from './event.js';
import { BufferedBackend, type BatchConfig } from './buffered.js';
import { eventString } from './format.js';
import { TruncatingBackend, type TruncateConfig } from './truncate.js';
import { auditErrorCounter } from '../metrics/apiserver.js';
import type { AuditErrorCounter } from '../metrics/apiserver-audit.js';

export interface AuditBackend {
  /** true when every event was taken; a backend logs its own failures (handlePluginError). */
  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean>;
  /** Writes what it holds and stops; called once, at shutdown. */
  shutdown?(): Promise<void>;
}

export const AUDIT_MODES = ['batch', 'blocking', 'blocking-strict'] as const;
export type AuditMode = (typeof AUDIT_MODES)[number];

/** HandlePluginError: the events counted in apiserver_audit_error_total; the error and each impacted event's legacy line, one error log entry. */
export function handlePluginError(logger: Logger, plugin: string, err: unknown, events: readonly AuditEvent[], count?: AuditErrorCounter): void {
  count?.(plugin, events.length);
  const text = err instanceof Error ? err.message : String(err);
  logger.error(`Error in audit plugin '${plugin}' affecting ${events.length} audit events: ${text}\nImpacted events:\n${events.map((e) => `${eventString(e)}\n`).join('')}`);
}

export interface BackendSettings {
  readonly mode: AuditMode;
  /** Used in batch mode only. */
  readonly batch: BatchConfig;
  /** Set: truncation is on (--audit-*-truncate-enabled), outside the mode as upstream wraps it. */
  readonly truncate?: TruncateConfig;
  /** The events' group and version, which truncation measures them in. */
  readonly apiVersion: string;
}

/**
 * Taps `hooks.audit` with the backend wrapped as the settings say (truncate, then the mode), and
 * `hooks.shutdown` to flush and stop it once the API server has drained (its last events are in).
 */
export function tapAuditBackend(host: Host, name: string, backend: AuditBackend, s: BackendSettings, logger: Logger): void {
  const count = auditErrorCounter(host);
  let target: AuditBackend = s.mode === 'batch' ? new BufferedBackend(backend, s.batch, logger, count) : backend;
  if (s.truncate) target = new TruncatingBackend(target, s.truncate, s.apiVersion, logger, count);
  host.hooks.audit.tapPromise(name, async (ev) => {
    const ok = await target.processEvents([ev]);
    if (!ok && s.mode === 'blocking-strict') throw new Error(`audit backend ${name} failed to store the event`);
  });
  // After the server drained (the default stage 0 comes after it): its last events are in.
  host.hooks.shutdown.tapPromise(name, async () => { await target.shutdown?.(); });
}
