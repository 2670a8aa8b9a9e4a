// The watch wire format: one JSON WatchEvent per line ({type, object}), ADDED / MODIFIED / DELETED /
// BOOKMARK / ERROR (a Status, 410 when the version is compacted).
import type { Readable } from 'node:stream';
import type { ApiObject } from '../api/meta.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
export interface WatchEvent<T extends ApiObject = ApiObject> { type: WatchEventType; object: T }

/** Bound on one event line: far above any object the server accepts (3 MiB bodies). */
const MAX_LINE = 16 << 20;

export async function* watchEvents<T extends ApiObject>(stream: Readable): AsyncGenerator<WatchEvent<T>> {
  let buf = '';
  for await (const chunk of stream) {
    buf += (chunk as Buffer).toString('utf8');
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (line) yield JSON.parse(line) as WatchEvent<T>;
    }
    if (buf.length > MAX_LINE) throw new Error(`watch event longer than ${MAX_LINE} bytes`);
  }
  if (buf.trim()) yield JSON.parse(buf) as WatchEvent<T>;
}
