// The watch stream over HTTP: newline-delimited JSON WatchEvents, flushed as they happen, Tables
// when the client asked for Tables, periodic bookmarks when allowed, ending at timeoutSeconds.
import type { Context } from 'koa';
import { isStatusError, StatusError } from '../api/errors.js';
import { goJsonCompact } from '../api/go-json-marshal.js';
import type { ApiObject } from '../api/meta.js';
import type { ListOptions } from '../registry/list-options.js';
import type { ResourceStore } from '../registry/store.js';
import { watchObjects } from '../registry/watch.js';
import type { RequestInfo } from './request-info.js';
import { longRunningGauge, streamedBytes } from './request-metrics.js';
import type { RestDeps } from './rest.js';
import type { WatchTermination } from './watch-termination.js';
import type { AnswerForm } from './wire-alias.js';
import { buildTable, tableRequested } from './table.js';
import type { Output } from './output-media-type.js';
import { partialObject } from './partial-metadata.js';

const BOOKMARK_INTERVAL_MS = 60_000;
const PRE_TIMEOUT_BOOKMARK_MS = 2000;
/** setTimeout's ceiling (about 24.8 days): a longer delay would fire after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

// Objects of watch events are shared, frozen, by every watcher of the resource (and the write's
// answer): each is serialised once, however many write it. Escaped as Go's Encoder escapes the
// event's embedded object, which it compacts.
const serialized = goJsonCompact;

export async function serveWatch(ctx: Context, store: ResourceStore, info: RequestInfo, o: ListOptions, deps: RestDeps,
  form: AnswerForm): Promise<void> {
  const query = new URLSearchParams(ctx.querystring);
  const table = tableRequested(ctx.get('accept'), query);
  // The request's context (request-deadline.ts): for a watch it ends only when its client goes away.
  const context = (ctx.state as { signal?: AbortSignal }).signal;
  const stream = await watchObjects(store, info.namespace, o, context);
  // Gone while the initial state was read: nothing listens to the 'close' events that came then, so
  // the watch would otherwise hold its objects until its timeout.
  if (context?.aborted) {
    stream.close();
    ctx.respond = false;
    return;
  }
  // As ListResource: only an unset or zero timeoutSeconds is randomised; a negative one has expired
  // already (the watch ends at once), not "unset".
  const timeoutSeconds = o.timeoutSeconds
    ? Math.max(0, o.timeoutSeconds)
    : deps.minRequestTimeoutSeconds * (1 + Math.random());

  ctx.respond = false;
  const res = ctx.res;
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Cache-Control', 'no-cache, private');
  if (ctx.req.httpVersionMajor < 2) res.setHeader('Transfer-Encoding', 'chunked');
  res.flushHeaders();

  let first = true;
  // Events committed together arrive in one burst of microtasks: corked until the burst is over,
  // they leave in one write (one TLS record, one syscall) instead of one each.
  let corked = false;
  const uncork = () => { corked = false; res.uncork(); };
  // Every event written (bookmarks and errors too) is counted, and its object's size observed, as
  // upstream's handler does for each event of its channel; the lines' bytes are the answer's size.
  const metrics = deps.watchMetrics;
  const series = metrics?.events(store.def.group, store.def.version, store.def.kind);
  let sent = 0;
  const write = (type: string, object: unknown): boolean => {
    if (!corked) { corked = true; res.cork(); process.nextTick(uncork); }
    const embedded = serialized(object);
    const line = `{"type":${JSON.stringify(type)},"object":${embedded}}\n`;
    if (series) {
      const bytes = Buffer.byteLength(embedded);
      series.events.inc();
      // The object as upstream's JSON serializer encodes it (json.Encoder: a trailing newline).
      series.sizes.observe(bytes + 1);
      // The rest of the line is ASCII: its length is its bytes.
      sent += bytes + line.length - embedded.length;
    }
    return res.write(line);
  };
  // A client that does not read holds the next event back here, so the events it has not taken
  // wait in the storage watch, which ends a watcher that falls too far behind (its bound, as the
  // watch cache's on a blocked watcher), instead of piling up in this response without bound.
  // Stopping (timeout, client gone, shutdown) ends the wait too: a HEAD watch's response never drains.
  const stopping = new AbortController();
  const drained = () => new Promise<void>((resolve) => {
    const done = () => { res.off('drain', done); stopping.signal.removeEventListener('abort', done); resolve(); };
    res.on('drain', done);
    stopping.signal.addEventListener('abort', done);
  });
  const partial = (ctx.state as { watchOutput?: Output }).watchOutput?.partial;
  // Each event's object as the embedded encoder transforms it (a bookmark's too; an ERROR's
  // Status never). A PartialObjectMetadataList cannot be made of one object: upstream's encoder
  // fails on the first event and the watch ends there.
  const metadataOnly = (obj: ApiObject): unknown => (partial ? partialObject(store.def, partial, obj) : obj);
  const render = (stored: ApiObject): unknown => {
    const obj = form(stored);
    if (!table) return metadataOnly(obj);
    const t = buildTable(store.def, [obj], table, { resourceVersion: obj.metadata.resourceVersion ?? '' }, deps.now(), first);
    first = false;
    return t;
  };

  const stop = () => { stopping.abort(); stream.close(); };
  const timeoutMs = timeoutSeconds * 1000;
  const deadline = Date.now() + timeoutMs;
  const timer = setTimeout(stop, Math.min(timeoutMs, MAX_TIMER_MS));
  // As the cache watcher's process(): a bookmark goes out once the store has come further than the
  // revision the watch started from, and from then on at every interval, even when it carries the
  // revision the last one did. That repetition is what tells a client of a quiet watch that its
  // connection is alive (plat's client presumes a watch dead after 150 s of silence, as client-go's
  // HTTP/2 pings would find it); only a watch of a store that has not moved at all since it began
  // gets none.
  let seen = stream.from;
  const bookmark = () => {
    const revision = stream.revision;
    if (revision === undefined || revision <= stream.from || revision < seen) return;
    seen = revision;
    const object = form({ kind: store.def.kind, apiVersion: store.apiVersion, metadata: { resourceVersion: String(revision) } });
    if (partial?.kind === 'PartialObjectMetadataList') return stop();
    write('BOOKMARK', metadataOnly(object));
  };
  // The cache watcher's nextBookmarkTime: every interval, but never later than 2 s before the
  // deadline, so a watch that times out leaves its client as close to now as it can.
  let bookmarks: NodeJS.Timeout | undefined;
  const scheduleBookmark = () => {
    const now = Date.now();
    const last = deadline - PRE_TIMEOUT_BOOKMARK_MS;
    const at = Math.min(now + (deps.bookmarkIntervalMs ?? BOOKMARK_INTERVAL_MS), last);
    if (at < now) return;
    // The one before the deadline is the last: a timer that fires a little early must not find
    // room for another (it would repeat the revision just sent).
    bookmarks = setTimeout(() => { bookmark(); if (at < last) scheduleBookmark(); }, at - now);
  };
  if (o.allowWatchBookmarks) scheduleBookmark();
  ctx.req.on('close', stop);
  res.on('close', stop);
  deps.shutdown.addEventListener('abort', stop, { once: true });
  // --shutdown-watch-termination-grace-period: the watch ends when the server stops accepting requests.
  const termination = (ctx.state as { watchTermination?: WatchTermination }).watchTermination;
  termination?.shuttingDown.addEventListener('abort', stop, { once: true });
  // A signal that aborted while the watch was being authorized or set up calls no listener added now.
  if (deps.shutdown.aborted || termination?.shuttingDown.aborted) stop();
  const longRunning = metrics ? longRunningGauge(ctx, info, query, metrics) : undefined;
  longRunning?.inc();
  try {
    for await (const ev of stream) {
      // A client gone, or a stop, between events: the rest of the initial state is not serialised
      // for nobody (its events follow one another without a turn of the event loop).
      if (res.destroyed || stopping.signal.aborted) break;
      if (ev.revision > seen) seen = ev.revision;
      let room: boolean;
      try {
        room = ev.type === 'ERROR' ? write('ERROR', (ev.object as StatusError).status)
          : ev.type === 'BOOKMARK' ? write('BOOKMARK', metadataOnly(form(ev.object as ApiObject)))
            : write(ev.type, render(ev.object as ApiObject));
      } catch (e) {
        // The encoder's failure (HandleError), and the watch ends.
        if (!isStatusError(e)) throw e;
        deps.logger.error(e.message);
        break;
      }
      if (!room && !res.destroyed && !stopping.signal.aborted) await drained();
    }
    // Upstream's words (cacheWatcher, V(1)): the client resumes by watching again.
    if (stream.unresponsive) {
      const group = store.def.group ? `${store.def.plural}.${store.def.group}` : store.def.plural;
      deps.logger.v(1).info(`Forcing ${group} watcher close due to unresponsiveness`, { path: ctx.path, reason: stream.unresponsive });
    }
  } finally {
    longRunning?.dec();
    if (metrics) streamedBytes(ctx, sent);
    clearTimeout(timer);
    clearTimeout(bookmarks);
    deps.shutdown.removeEventListener('abort', stop);
    termination?.shuttingDown.removeEventListener('abort', stop);
    // Its end is paced with the other watches' (watch-termination.ts) before the client sees it.
    await termination?.done();
    if (!res.writableEnded) res.end();
  }
}
