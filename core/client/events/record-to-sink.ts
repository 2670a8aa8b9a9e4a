// recordToSink (client-go tools/record/event.go): an Event through the correlator, then written,
// patched when the correlator has seen it before (created when that patch finds it gone). A
// transport failure is tried again, 12 tries in all, the first wait a random part of the sleep
// duration (10 s) so clients do not retry in step after an outage, the others the whole of it; an
// answer from the server (any status: a 403, a 422, a 409, a 5xx) is final, as is a request that
// cannot be built.
import type { CoreEvent } from '../../api/event.js';
import type { Logger } from '../../log.js';
import { ApiError } from '../rest-client.js';
import type { EventCorrelator } from './event-correlator.js';
import { EventConstructionError, type EventSink } from './event-sink.js';
import { FencedWriteError } from '../write-fence.js';

export const MAX_TRIES_PER_EVENT = 12;
export const DEFAULT_SLEEP_DURATION_MS = 10_000;

export interface RecordToSinkOptions {
  readonly sleepMs?: number;
  /** Waits `ms` (or less when stopping); a test's clock. */
  readonly sleep: (ms: number) => Promise<void>;
  readonly random?: () => number;
  readonly logger: Logger;
  /** True once the broadcaster shuts down: no more tries. */
  readonly stopped?: () => boolean;
}

const describe = (e: CoreEvent) => ({ event: `${e.metadata.namespace ?? ''}/${e.metadata.name ?? ''}`, reason: e.reason ?? '', object: `${e.involvedObject?.kind ?? ''}/${e.involvedObject?.name ?? ''}` });

/** recordEvent: true when done with the Event (written, or refused for good). */
async function recordEvent(sink: EventSink, event: CoreEvent, patch: Record<string, unknown> | undefined, correlator: EventCorrelator, log: Logger): Promise<boolean> {
  try {
    let written: CoreEvent | undefined;
    if (patch && (event.count ?? 0) > 1) {
      try {
        written = await sink.patch(event, patch);
      } catch (e) {
        // The Event may have gone (its TTL): create it again.
        if (!(e instanceof ApiError && e.code === 404)) throw e;
      }
    }
    if (!written) {
      const { resourceVersion: _rv, ...meta } = event.metadata;
      written = await sink.create({ ...event, metadata: meta });
    }
    correlator.updateState(written);
    return true;
  } catch (e) {
    if (e instanceof EventConstructionError) {
      log.error('Unable to construct event (will not retry!)', { ...describe(event), err: e.message });
      return true;
    }
    if (e instanceof FencedWriteError) {
      // This process no longer leads: the Event is the old term's, not to be written later.
      log.v(2).info('Event not written: this process does not lead (will not retry!)', { ...describe(event), err: e.message });
      return true;
    }
    if (e instanceof ApiError) {
      const terminating = (e.body as { details?: { causes?: { reason?: string }[] } } | undefined)?.details?.causes?.some((c) => c.reason === 'NamespaceTerminating');
      if (e.reason === 'AlreadyExists' || terminating) log.v(5).info('Server rejected event (will not retry!)', { ...describe(event), err: e.message });
      else log.error('Server rejected event (will not retry!)', { ...describe(event), err: e.message });
      return true;
    }
    log.error('Unable to write event (may retry after sleeping)', { ...describe(event), err: (e as Error).message });
    return false;
  }
}

export async function recordToSink(sink: EventSink, event: CoreEvent, correlator: EventCorrelator, o: RecordToSinkOptions): Promise<void> {
  const result = correlator.correlate(event);
  if (result.skip || !result.event) return;
  const sleepMs = o.sleepMs ?? DEFAULT_SLEEP_DURATION_MS;
  for (let tries = 0; ;) {
    if (await recordEvent(sink, result.event, result.patch, correlator, o.logger)) return;
    tries++;
    if (tries >= MAX_TRIES_PER_EVENT) {
      o.logger.error('Unable to write event (retry limit exceeded!)', describe(result.event));
      return;
    }
    if (o.stopped?.()) return;
    await o.sleep(tries === 1 ? sleepMs * (o.random ?? Math.random)() : sleepMs);
    if (o.stopped?.()) return;
  }
}
