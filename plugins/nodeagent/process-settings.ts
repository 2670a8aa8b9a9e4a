// What upstream's kubelet does to its own process at start-up: run() writes --oom-score-adj to
// /proc/self/oom_score_adj (pkg/util/oom: two tries 100ms apart; a failure is only logged), and
// RunKubelet sets the open-file limit, soft and hard, to --max-open-files (rlimit.SetNumFiles; a
// failure is only logged). Node has no setrlimit, so the limit is set on this process by
// util-linux's `prlimit`, which makes the same setrlimit call from outside.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../core/log.js';
import { osErrorText } from '../../core/go-os-error.js';

const OOM_SCORE_ADJ = '/proc/self/oom_score_adj';
const OOM_TRIES = 2;
const OOM_RETRY_MS = 100;
const PRLIMIT_TIMEOUT_MS = 10_000;

/** Upstream's applyOOMScoreAdj(0, value): undefined, or the error text Go would give. */
export async function applyOomScoreAdj(value: number): Promise<string | undefined> {
  let err = '';
  for (let i = 0; i < OOM_TRIES; i++) {
    try {
      await writeFile(OOM_SCORE_ADJ, String(value));
      return undefined;
    } catch (e) {
      // os.ErrNotExist, returned at once: no /proc to retry against.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'file does not exist';
      err = osErrorText((e as NodeJS.ErrnoException).syscall ?? 'open', OOM_SCORE_ADJ, e);
      await sleep(OOM_RETRY_MS);
    }
  }
  return err;
}

/** Upstream's rlimit.SetNumFiles(value) on this process: undefined, or the error text. */
export function setNumFiles(value: number, pid = process.pid): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('prlimit', ['--pid', String(pid), `--nofile=${value}:${value}`], { timeout: PRLIMIT_TIMEOUT_MS }, (e, _stdout, stderr) => {
      if (!e) return resolve(undefined);
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return resolve('exec: "prlimit": executable file not found in $PATH');
      // `prlimit: failed to set the NOFILE resource limit: Operation not permitted`: the strerror
      // text, which Go's errno strings give in lower case.
      const reason = /: ([^:\n]+)\n?$/.exec(stderr)?.[1];
      resolve(reason ? reason.charAt(0).toLowerCase() + reason.slice(1) : (stderr.trim() || e.message));
    });
  });
}

/** Both, in upstream's order, each failure logged as upstream logs it. */
export async function applyProcessSettings(o: { oomScoreAdj: number; maxOpenFiles: number; logger: Logger }): Promise<void> {
  const oom = await applyOomScoreAdj(o.oomScoreAdj);
  if (oom !== undefined) o.logger.info('Failed to ApplyOOMScoreAdj', { err: oom });
  const files = await setNumFiles(o.maxOpenFiles);
  if (files !== undefined) o.logger.error('Failed to set rlimit on max file handles', { err: files });
}
