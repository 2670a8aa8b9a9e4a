// printEvent (pkg/printers/internalversion/printers.go): LAST SEEN, TYPE, REASON, OBJECT, MESSAGE,
// and for -o wide SUBOBJECT, SOURCE, FIRST SEEN, COUNT, NAME. The server always answers the wide
// row; kubectl hides the priority-1 columns unless asked.
import type { CoreEvent, EventSource } from '../../core/api/event.js';
import { age } from '../../core/api/human-duration.js';
import { NAME_DESCRIPTION } from '../../core/api/object-meta-docs.js';
import type { TableColumn, TablePrinter } from '../../core/registry/resource.js';
import { EVENT_DOCS, OBJECT_REFERENCE_DOCS } from './schema.js';

const column = (name: string, description: string, priority = 0, format = ''): TableColumn => ({ name, type: 'string', format, description, priority });

/** formatEventSource: the source, else the reporting controller and instance, joined by ", ". */
export function formatEventSource(source: EventSource | undefined, reportingController: string | undefined, reportingInstance: string | undefined): string {
  const component = source?.component || reportingController || '';
  const instance = source?.host || reportingInstance || '';
  return instance ? `${component}, ${instance}` : component;
}

/** The Object column: `kind/name` in lower case kind, or the kind alone. */
export const eventTarget = (e: CoreEvent): string => {
  const kind = (e.involvedObject?.kind ?? '').toLowerCase();
  return e.involvedObject?.name ? `${kind}/${e.involvedObject.name}` : kind;
};

export const eventTable: TablePrinter<CoreEvent> = {
  columns: [
    column('Last Seen', EVENT_DOCS.lastTimestamp),
    column('Type', EVENT_DOCS.type),
    column('Reason', EVENT_DOCS.reason),
    column('Object', EVENT_DOCS.involvedObject),
    column('Subobject', OBJECT_REFERENCE_DOCS.fieldPath, 1),
    column('Source', EVENT_DOCS.source, 1),
    column('Message', EVENT_DOCS.message),
    column('First Seen', EVENT_DOCS.firstTimestamp, 1),
    column('Count', EVENT_DOCS.count, 1),
    column('Name', NAME_DESCRIPTION, 1, 'name'),
  ],
  cells(e, now) {
    // A new-style Event has eventTime and a series in place of the timestamps and the count.
    const firstSeen = e.firstTimestamp ? age(e.firstTimestamp, now) : age(e.eventTime, now);
    let lastSeen = e.lastTimestamp ? age(e.lastTimestamp, now) : firstSeen;
    let count = e.count ?? 0;
    if (e.series) {
      lastSeen = age(e.series.lastObservedTime, now);
      count = e.series.count ?? 0;
    } else if (count === 0) {
      count = 1;
    }
    return [
      lastSeen, e.type ?? '', e.reason ?? '', eventTarget(e), e.involvedObject?.fieldPath ?? '',
      formatEventSource(e.source, e.reportingComponent, e.reportingInstance), (e.message ?? '').trim(),
      firstSeen, count, e.metadata.name ?? '',
    ];
  },
};
