// Upstream's log backend: one line per event, the event's JSON (in --audit-log-version) or its
// legacy text; a failed write is logged with the event (HandlePluginError) and reported.
import type { AuditBackend } from '../../core/audit/backend.js';
import { handlePluginError } from '../../core/audit/backend.js';
import type { AuditEvent } from '../../core/audit/event.js';
import { eventJson, eventString } from '../../core/audit/format.js';
import type { Logger } from '../../core/log.js';
import type { AuditErrorCounter } from '../../core/metrics/apiserver-audit.js';

export interface LineWriter { write(text: string): void; close?(): void; idle?(): Promise<void> }

export class LogBackend implements AuditBackend {
  constructor(private readonly out: LineWriter, private readonly format: 'json' | 'legacy', private readonly apiVersion: string, private readonly logger: Logger, private readonly count?: AuditErrorCounter) {}

  processEvents(events: readonly AuditEvent[]): boolean {
    let ok = true;
    for (const ev of events) {
      try {
        this.out.write(this.format === 'legacy' ? `${eventString(ev)}\n` : eventJson(ev, this.apiVersion));
      } catch (e) {
        handlePluginError(this.logger, 'log', e, [ev], this.count);
        ok = false;
      }
    }
    return ok;
  }

  async shutdown(): Promise<void> { this.out.close?.(); await this.out.idle?.(); }
}
