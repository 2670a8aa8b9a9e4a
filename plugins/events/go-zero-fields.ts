// The fields Go always writes in a core/v1 Event (structs and the two strings without omitempty),
// so a stored Event reads as upstream's does: `involvedObject: {}`, `source: {}`, null times, empty
// reporting fields.
import type { CoreEvent } from '../../core/api/event.js';

export function goZeroFields(e: CoreEvent): void {
  e.involvedObject ??= {};
  e.source ??= {};
  e.firstTimestamp ??= null;
  e.lastTimestamp ??= null;
  e.eventTime ??= null;
  // EventSeries.LastObservedTime is a MicroTime struct: never omitted.
  if (e.series && typeof e.series === 'object') (e.series as { lastObservedTime?: unknown }).lastObservedTime ??= null;
  e.reportingComponent ??= '';
  e.reportingInstance ??= '';
}
