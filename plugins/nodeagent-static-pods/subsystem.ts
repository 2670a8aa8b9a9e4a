// The `static-pods` subsystem: the node's desired pods from staticPodPath (re-read every
// fileCheckFrequency) and staticPodURL (fetched every httpCheckFrequency), merged and published
// through ctx.staticPods once every source has been read and again whenever the set changes.
// Upstream also watches the path with inotify; plat polls only, so a change shows within one
// fileCheckFrequency. ctx.staticPods is the runtime plug point: a container runtime subsystem
// would subscribe with onChange and make the node's containers match.
import { parseDuration } from '../../core/flags/duration.js';
import type { Runnable } from '../../core/lifecycle.js';
import type { NodeAgentContext } from '../../core/nodeagent/context.js';
import { stripPassword } from '../../core/go-strip-password.js';
import { StartupError } from '../../core/plugin.js';
import { sleep, whenAborted } from '../../core/abort-wait.js';
import { readFileSource } from './file-source.js';
import { HttpSource } from './http-source.js';
import { PodConfig, type SourceName } from './pod-config.js';
import type { Obj } from './pod-defaults.js';

export interface StaticPodsOptions {
  /** The clock config.seen is read from. */
  readonly now?: () => Date;
}

function period(field: string, value: string): number {
  let ms: number;
  try {
    ms = parseDuration(value);
  } catch (e) {
    throw new StartupError(`${field}: ${(e as Error).message}`);
  }
  if (ms <= 0) throw new StartupError(`${field}: must be greater than 0 when its source is set (got ${JSON.stringify(value)})`);
  return ms;
}

export function createStaticPodsSubsystem(ctx: NodeAgentContext, o: StaticPodsOptions = {}): Runnable {
  const c = ctx.config;
  const log = ctx.logger.child('static-pods');
  type Source = { name: SourceName; every: number; poll: (signal: AbortSignal) => Promise<Obj[] | undefined> };
  const sources: Source[] = [];
  if (c.staticPodPath) {
    const every = period('fileCheckFrequency', c.fileCheckFrequency);
    sources.push({ name: 'file', every, poll: () => readFileSource(c.staticPodPath, ctx.nodeName, ctx.gates, log) });
  }
  if (c.staticPodURL) {
    const every = period('httpCheckFrequency', c.httpCheckFrequency);
    let url: URL;
    try {
      url = new URL(c.staticPodURL);
    } catch {
      throw new StartupError(`staticPodURL: ${JSON.stringify(stripPassword(c.staticPodURL))} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new StartupError(`staticPodURL: unsupported protocol scheme ${JSON.stringify(url.protocol.replace(/:$/, ''))}`);
    const http = new HttpSource(c.staticPodURL, c.staticPodURLHeader ?? {}, ctx.nodeName, ctx.gates, log);
    sources.push({ name: 'http', every, poll: (signal) => http.poll(signal) });
  }

  return {
    async run(signal: AbortSignal): Promise<void> {
      const config = new PodConfig(log, o.now);
      const publish = () => ctx.staticPods.set(config.snapshot());
      if (c.staticPodPath) {
        log.info('Adding static pod path', { path: c.staticPodPath });
        log.v(1).info('Watching path', { path: c.staticPodPath });
      }
      if (c.staticPodURL) log.v(1).info('Watching URL', { URL: stripPassword(c.staticPodURL) });
      // Every source read once before the first publication, so readers never see a partial set.
      for (const s of sources) config.set(s.name, (await s.poll(signal)) ?? []);
      publish();
      await Promise.all(sources.map(async (s) => {
        for (;;) {
          await sleep(s.every, signal);
          if (signal.aborted) return;
          const pods = await s.poll(signal);
          if (pods && config.set(s.name, pods)) publish();
        }
      }));
      if (sources.length === 0) await whenAborted(signal);
    },
  };
}
