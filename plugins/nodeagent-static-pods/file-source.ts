// staticPodPath, read as upstream's file source lists it (pkg/kubelet/config/file.go): a directory
// gives one pod per file, in name order, dot-files ignored, subdirectories not entered, files that
// fail logged with their error and skipped; a single file gives its pod, and a failure leaves the
// previous set in place; a path that does not exist gives no pods. Pods with the same namespace and
// name collapse into the last one, as upstream's store keyed by namespace/name does.
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../core/log.js';
import type { FeatureGates } from '../../core/nodeagent/feature-gates.js';
import { tryDecodeSinglePod } from './decode-pod.js';
import type { Obj } from './pod-defaults.js';

/** Upstream's maxConfigLength. */
export const MAX_CONFIG_LENGTH = 10 * (1 << 20);

async function readAtMost(file: string): Promise<string> {
  const fh = await open(file, 'r');
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      const { bytesRead } = await fh.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > MAX_CONFIG_LENGTH) throw new Error('the read limit is reached');
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks).toString('utf8');
  } finally {
    await fh.close();
  }
}

/** extractFromFile: the pod of one manifest file, or the error upstream logs for it. */
export async function podFromFile(file: string, nodeName: string, gates: FeatureGates, log: Logger): Promise<Obj> {
  log.v(3).info('Reading config file', { path: file });
  const data = await readAtMost(file);
  const r = tryDecodeSinglePod(data, { source: file, isFile: true, nodeName }, gates);
  if (!r.parsed) throw new Error(`${file}: couldn't parse as pod(${r.error}), please check config file`);
  if ('error' in r) throw new Error(r.error);
  return r.value;
}

function keyed(pods: readonly Obj[], log: Logger): Obj[] {
  const byKey = new Map<string, Obj>();
  for (const p of pods) {
    const key = `${p['metadata']['namespace']}/${p['metadata']['name']}`;
    if (byKey.has(key)) log.info('Two manifests define the same pod; the later one is used', { pod: key });
    byKey.delete(key);
    byKey.set(key, p);
  }
  return [...byKey.values()];
}

/** One listing of the path: the pods to set, or undefined to keep the previous set (the failure is logged). */
export async function readFileSource(dir: string, nodeName: string, gates: FeatureGates, log: Logger): Promise<Obj[] | undefined> {
  const p = dir.replace(/\/+$/, '') || '/';
  let info;
  try {
    info = await stat(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      log.error('Unable to read config path', { err: 'path does not exist, ignoring', path: p });
      return [];
    }
    log.error('Unable to read config path', { err: (e as Error).message, path: p });
    return undefined;
  }
  if (info.isFile()) {
    try {
      return [await podFromFile(p, nodeName, gates, log)];
    } catch (e) {
      log.error('Unable to read config path', { err: (e as Error).message, path: p });
      return undefined;
    }
  }
  if (!info.isDirectory()) {
    log.error('Unable to read config path', { err: 'path is not a directory or file', path: p });
    return undefined;
  }
  let names: string[];
  try {
    names = (await readdir(p)).filter((n) => !n.startsWith('.')).sort();
  } catch (e) {
    log.error('Unable to read config path', { err: (e as Error).message, path: p });
    return undefined;
  }
  const pods: Obj[] = [];
  for (const name of names) {
    const file = path.join(p, name);
    let st;
    try {
      st = await stat(file);
    } catch (e) {
      log.error('Could not get metadata', { err: (e as Error).message, path: file });
      continue;
    }
    if (st.isDirectory()) {
      log.error('Provided manifest path is a directory, not recursing into manifest path', { path: file });
    } else if (st.isFile()) {
      try {
        pods.push(await podFromFile(file, nodeName, gates, log));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') log.error('Could not process manifest file', { err: (e as Error).message, path: file });
      }
    } else {
      log.error('Manifest path is not a directory or file', { path: file });
    }
  }
  return keyed(pods, log);
}
