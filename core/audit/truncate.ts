// Upstream's truncating backend: an event whose JSON is larger than maxEventSize loses its
// request and response objects (and is marked audit.platform/truncated), and is dropped with an
// error if it is still too large; events are passed on in batches of at most maxBatchSize bytes.
import type { Logger } from '../log.js';
import { aggregate } from '../aggregate.js';
import { levelAtLeast, sortedAnnotations, type AuditEvent } from './event.js';
import { handlePluginError, type AuditBackend } from './backend.js';
import type { AuditErrorCounter } from '../metrics/apiserver-audit.js';
import { eventJson } from './format.js';

export interface TruncateConfig { readonly maxEventSize: number; readonly maxBatchSize: number }
export const TRUNCATED_ANNOTATION = 'audit.platform/truncated';

export class TruncatingBackend implements AuditBackend {
  constructor(private readonly delegate: AuditBackend, private readonly c: TruncateConfig, private readonly apiVersion: string, private readonly logger: Logger, private readonly count?: AuditErrorCounter) {}

  private size(ev: AuditEvent): number { return Buffer.byteLength(eventJson(ev, this.apiVersion)); }

  async processEvents(events: readonly AuditEvent[]): Promise<boolean> {
    const problems: string[] = [];
    const impacted: AuditEvent[] = [];
    let batch: AuditEvent[] = [];
    let batchSize = 0;
    let ok = true;
    for (let ev of events) {
      let size = this.size(ev);
      if (size > this.c.maxEventSize && levelAtLeast(ev.level, 'Request')) {
        const { requestObject: _req, responseObject: _res, ...rest } = ev;
        ev = { ...rest, annotations: sortedAnnotations({ ...ev.annotations, [TRUNCATED_ANNOTATION]: 'true' }) };
        size = this.size(ev);
      }
      if (size > this.c.maxEventSize) { problems.push('event is too large even after truncating'); impacted.push(ev); continue; }
      if (batch.length > 0 && batchSize + size > this.c.maxBatchSize) {
        ok = (await this.delegate.processEvents(batch)) && ok;
        batch = [];
        batchSize = 0;
      }
      batchSize += size;
      batch.push(ev);
    }
    if (batch.length > 0) ok = (await this.delegate.processEvents(batch)) && ok;
    if (impacted.length > 0) handlePluginError(this.logger, 'truncate', new Error(aggregate(problems)), impacted, this.count);
    return ok;
  }

  async shutdown(): Promise<void> { await this.delegate.shutdown?.(); }
}
