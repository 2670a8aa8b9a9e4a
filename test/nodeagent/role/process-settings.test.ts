// `plat nodeagent` sets its own process's OOM score (--oom-score-adj) and open-file limit, soft
// and hard (--max-open-files), as upstream's kubelet does at start-up; a limit it cannot set is
// logged as upstream logs a failed SetNumFiles and the agent runs on.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { startAgentInProcess } from '../../helpers/nodeagent-inprocess.js';
import { tempDir } from '../../helpers/plat.js';
import { startPlat, type Background } from '../../helpers/run-plat.js';

const STANDALONE = 'apiVersion: nodeagent.config.platform/v1beta1\nkind: NodeAgentConfiguration\nauthentication:\n  webhook:\n    enabled: false\nauthorization:\n  mode: AlwaysAllow\nenableServer: false\nhealthzPort: 0\n';
const RUNNING = /Node agent running/;

const openFiles = (pid: number): string[] => {
  const line = readFileSync(`/proc/${pid}/limits`, 'utf8').split('\n').find((l) => l.startsWith('Max open files'))!;
  return line.split(/\s{2,}/).slice(1, 3);
};

describe('plat nodeagent process settings', () => {
  const procs: Background[] = [];
  after(() => {
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  });
  const configIn = (dir: string): string => {
    const file = path.join(dir, 'config.yaml');
    writeFileSync(file, STANDALONE);
    return file;
  };
  const start = async (args: string[], env: Record<string, string> = {}) => {
    const dir = tempDir();
    const p = await startPlat(['nodeagent', `--config=${configIn(dir)}`, ...args], RUNNING, { cwd: dir, env });
    procs.push(p);
    return p;
  };

  // A raised score needs no privilege, so this holds whoever runs the tests.
  it('writes --oom-score-adj to its oom_score_adj and sets --max-open-files as both limits', async () => {
    const p = await start(['--oom-score-adj=500', '--max-open-files=4096']);
    const pid = p.child.pid!;
    assert.equal(readFileSync(`/proc/${pid}/oom_score_adj`, 'utf8').trim(), '500');
    assert.deepEqual(openFiles(pid), ['4096', '4096']);
    assert.doesNotMatch(p.output(), /Failed to set rlimit|Failed to ApplyOOMScoreAdj/);
    await p.stop();
  });

  it('logs a limit it cannot set, in upstream\'s words, and runs on', async () => {
    const empty = tempDir();
    const p = await start(['--oom-score-adj=500', '--max-open-files=4096'], { PATH: empty });
    assert.match(p.output(), /^E.*\] Failed to set rlimit on max file handles err="exec: \\"prlimit\\": executable file not found in \$PATH"$/m);
    assert.equal(readFileSync(`/proc/${p.child.pid!}/oom_score_adj`, 'utf8').trim(), '500');
    await p.stop();
    assert.equal(p.child.exitCode, 0);
  });

  it('leaves the process alone when booted inside another (here the test runner)', async () => {
    const before = [readFileSync('/proc/self/oom_score_adj', 'utf8'), openFiles(process.pid)];
    const dir = tempDir();
    const agent = await startAgentInProcess([`--config=${configIn(dir)}`, '--oom-score-adj=700', '--max-open-files=64'], { cwd: dir });
    try {
      assert.deepEqual([readFileSync('/proc/self/oom_score_adj', 'utf8'), openFiles(process.pid)], before);
    } finally {
      await agent.stop();
    }
  });
});
