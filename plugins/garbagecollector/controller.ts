// The garbage collector's run (upstream's Run, Sync and GetDeletableResources): discovery lists the
// resources to watch (preferred versions that serve list, watch and delete, events left out),
// each gets a monitor; the workers start once every monitor has listed (or after 30 s, whatever
// has not), and every 30 s discovery is asked again so that resources that come or go (a new API
// group) are watched or dropped.
import { EventBroadcaster } from '../../core/client/events/event-broadcaster.js';
import { restEventSink } from '../../core/client/events/event-sink.js';
import { setMaxListeners } from 'node:events';
import type { ControllerContext, Runnable } from '../../core/lifecycle.js';
import { sleep, whenAborted } from '../../core/abort-wait.js';
import { formatGroupVersion } from '../../core/api/group-version.js';
import { deletableResources, serverPreferredResources, type GroupVersionResource } from '../../core/client/discovery.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import { defaultControllerRateLimiter } from '../../core/controller/rate-limiters.js';
import { WorkQueue } from '../../core/controller/workqueue.js';
import type { Logger } from '../../core/log.js';
import { GarbageCollector, type Action } from './garbage-collector.js';
import { GraphBuilder, gvrKey } from './graph-builder.js';
import { Operations } from './operations.js';

/** The syncPeriod of discovery, and the initial sync's bound. */
export const SYNC_PERIOD_MS = 30_000;
/** DefaultIgnoredResources: events are never owners' dependents worth a watch. */
const IGNORED_RESOURCES = new Set(['/events', 'events.k8s.io/events']);

export interface GarbageCollectorOptions {
  /** --concurrent-gc-syncs: workers of each queue. */
  readonly workers: number;
  readonly syncPeriodMs?: number;
}

/** printDiff's `%+v` of a GroupVersionResource. */
const gvrText = (r: GroupVersionResource): string => `{Group:${r.group} Version:${r.version} Resource:${r.resource}}`;

/** One queue's workers until it shuts down (processAttemptToDeleteWorker, processAttemptToOrphanWorker). */
async function work(queue: WorkQueue<string>, run: (uid: string) => Promise<Action>, log: Logger): Promise<void> {
  for (;;) {
    const uid = await queue.get();
    if (uid === undefined) return;
    let action: Action = 'requeue';
    try {
      action = await run(uid);
    } catch (e) {
      log.error('Unhandled Error', { err: goClientErrorText(e) });
    } finally {
      queue.done(uid);
    }
    if (action === 'forget') queue.forget(uid); else queue.addRateLimited(uid);
  }
}

export function garbageCollectorController(ctx: ControllerContext, o: GarbageCollectorOptions): Runnable {
  const log = ctx.logger;
  const syncPeriodMs = o.syncPeriodMs ?? SYNC_PERIOD_MS;
  const attemptToDelete = new WorkQueue<string>(defaultControllerRateLimiter<string>(), { name: 'garbage_collector_attempt_to_delete', metrics: ctx.metrics });
  const attemptToOrphan = new WorkQueue<string>(defaultControllerRateLimiter<string>(), { name: 'garbage_collector_attempt_to_orphan', metrics: ctx.metrics });
  // NewGarbageCollector's broadcaster; Run starts it (V(3) lines, writes with the collector's client).
  const events = new EventBroadcaster({ logger: log });
  const graph = new GraphBuilder({ informers: ctx.informers, logger: log, attemptToDelete, attemptToOrphan, recorder: events.newRecorder({ component: 'garbage-collector-controller' }) });

  /** GetDeletableResources, and the REST mapper reset from the same discovery. */
  async function discover(ops: Operations, signal: AbortSignal): Promise<{ resources: GroupVersionResource[]; failedGroups: ReadonlySet<string> }> {
    let found;
    try {
      found = await serverPreferredResources(ctx.client, signal);
    } catch (e) {
      if (signal.aborted) throw e;
      log.info('failed to discover preferred resources', { error: goClientErrorText(e) });
      return { resources: [], failedGroups: new Set() };
    }
    if (found.error) log.info('failed to discover some groups', { groups: `map[${[...found.error.groups].map(([gv, err]) => `${JSON.stringify(gv)}:${JSON.stringify(err)}`).join(' ')}]` });
    ops.resetMapper(found.lists);
    const { resources } = deletableResources(found.lists, ['delete', 'list', 'watch']);
    return { resources: resources.filter((r) => !IGNORED_RESOURCES.has(`${r.group}/${r.resource}`)), failedGroups: new Set(found.error?.groups.keys() ?? []) };
  }

  /** Sync: every period, the monitors follow what discovery lists. */
  async function syncLoop(ops: Operations, initial: GroupVersionResource[], signal: AbortSignal): Promise<void> {
    let old = new Map(initial.map((r) => [gvrKey(r), r]));
    while (!signal.aborted) {
      await sleep(syncPeriodMs, signal);
      if (signal.aborted) return;
      const { resources, failedGroups } = await discover(ops, signal).catch(() => ({ resources: [], failedGroups: new Set<string>() }));
      if (!resources.length) {
        log.v(2).info('no resources reported by discovery, skipping garbage collector sync');
        continue;
      }
      const next = new Map(resources.map((r) => [gvrKey(r), r]));
      // A group whose discovery failed keeps the monitors it had.
      for (const [k, r] of old) if (failedGroups.has(formatGroupVersion(r))) next.set(k, r);
      if (next.size === old.size && [...next.keys()].every((k) => old.has(k))) {
        log.v(5).info('no resource updates from discovery, skipping garbage collector sync');
        continue;
      }
      const added = [...next].filter(([k]) => !old.has(k)).map(([, r]) => gvrText(r)).sort();
      const removed = [...old].filter(([k]) => !next.has(k)).map(([, r]) => gvrText(r)).sort();
      log.v(2).info('syncing garbage collector with updated resources from discovery', { diff: `added: [${added.join(' ')}], removed: [${removed.join(' ')}]` });
      graph.syncMonitors([...next.values()]);
      log.v(4).info('resynced monitors');
      if (await synced(signal)) log.v(2).info('synced garbage collector');
      else if (!signal.aborted) log.error('Unhandled Error', { err: 'timed out waiting for dependency graph builder sync during GC sync' });
      old = next;
    }
  }

  /** Whether every monitor has listed within a sync period. */
  async function synced(signal: AbortSignal): Promise<boolean> {
    const bound = new AbortController();
    const timer = setTimeout(() => bound.abort(), syncPeriodMs);
    const onAbort = () => bound.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await graph.waitForSync(bound.signal);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
    return graph.isSynced();
  }

  return {
    async run(stopped: AbortSignal): Promise<void> {
      events.startStructuredLogging(3);
      events.startRecordingToSink(restEventSink(ctx.client));
      log.info('Starting controller', { controller: 'garbagecollector' });
      // Each in-flight request of the 2 x --concurrent-gc-syncs workers listens to the stop.
      const stop = new AbortController();
      setMaxListeners(0, stop.signal);
      void whenAborted(stopped).then(() => stop.abort());
      const signal = stop.signal;
      const ops = new Operations(ctx.client, log, signal);
      const gc = new GarbageCollector(graph, ops, attemptToDelete, log);
      const { resources } = await discover(ops, signal).catch(() => ({ resources: [] as GroupVersionResource[] }));
      graph.syncMonitors(resources);
      const syncing = syncLoop(ops, resources, signal);
      if (await synced(signal)) log.info('Garbage collector: all resource monitors have synced');
      else if (!signal.aborted) log.info('Garbage collector: not all resource monitors could be synced, proceeding anyways');
      const workers: Promise<void>[] = [];
      if (!signal.aborted) {
        log.info('Proceeding to collect garbage');
        for (let i = 0; i < o.workers; i++) {
          workers.push(work(attemptToDelete, (uid) => gc.attemptToDeleteWorker(uid), log), work(attemptToOrphan, (uid) => gc.attemptToOrphanWorker(uid), log));
        }
      }
      await whenAborted(signal);
      log.info('Shutting down controller', { controller: 'garbagecollector' });
      await Promise.all([attemptToDelete.shutDown(), attemptToOrphan.shutDown()]);
      await Promise.all([...workers, syncing]);
      events.shutdown();
    },
  };
}
