// The desired static pods of every source, merged as upstream's PodConfig storage keeps them: each
// source (file, http) replaces its own set wholesale; a pod is known by its UID, carries
// config.source and the time it was first seen (config.seen, kept while its UID stays); within one
// source a second pod with a namespace/name already taken is dropped and logged, as
// filterInvalidPods does. `snapshot` is what the agent publishes: file pods, then http pods.
import type { Logger } from '../../core/log.js';
import { rfc3339NanoOf } from '../../core/api/go-time.js';
import { CONFIG_SEEN_ANNOTATION, CONFIG_SOURCE_ANNOTATION, type Obj } from './pod-defaults.js';

export type SourceName = 'file' | 'http';
const SOURCES: readonly SourceName[] = ['file', 'http'];

/** Go's time.RFC3339Nano in UTC: fractional seconds without trailing zeros. */
export const rfc3339Nano = (d: Date): string => rfc3339NanoOf(d.toISOString());

export class PodConfig {
  readonly #sets = new Map<SourceName, Obj[]>();

  constructor(private readonly log: Logger, private readonly now: () => Date = () => new Date()) {}

  /** Replaces `source`'s pods; true when the published set changed. */
  set(source: SourceName, pods: readonly Obj[]): boolean {
    const previous = new Map((this.#sets.get(source) ?? []).map((p) => [p['metadata']['uid'] as string, p]));
    const names = new Set<string>();
    const next: Obj[] = [];
    pods.forEach((pod, index) => {
      const meta = pod['metadata'];
      const full = `${meta['name']}_${meta['namespace']}`;
      if (names.has(full)) {
        this.log.info('Pod failed validation due to duplicate pod name, ignoring', { index, pod: `${meta['namespace']}/${meta['name']}`, source });
        return;
      }
      names.add(full);
      const before = previous.get(meta['uid']);
      const seen = before?.['metadata']['annotations']?.[CONFIG_SEEN_ANNOTATION] ?? rfc3339Nano(this.now());
      next.push({ ...pod, metadata: { ...meta, annotations: { ...meta['annotations'], [CONFIG_SOURCE_ANNOTATION]: source, [CONFIG_SEEN_ANNOTATION]: seen } } });
    });
    const kept = new Set(next.map((p) => p['metadata']['uid'] as string));
    for (const p of next) if (!previous.has(p['metadata']['uid'])) this.log.info('static pod added', { pod: `${p['metadata']['namespace']}/${p['metadata']['name']}`, source });
    for (const [uid, p] of previous) if (!kept.has(uid)) this.log.info('static pod removed', { pod: `${p['metadata']['namespace']}/${p['metadata']['name']}`, source });
    const changed = !this.#sets.has(source) || JSON.stringify(next) !== JSON.stringify(this.#sets.get(source));
    this.#sets.set(source, next);
    return changed;
  }

  snapshot(): Obj[] {
    return SOURCES.flatMap((s) => this.#sets.get(s) ?? []);
  }
}
