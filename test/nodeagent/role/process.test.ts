// `plat nodeagent` as a real process: --help, start-up errors (invalid configuration with every
// problem and the file, exit 1; refused options, exit 2; deprecation notices on stderr), a valid
// standalone configuration that runs until SIGTERM (exit 0), subsystems registered by a plugin
// run with the built context and are stopped cleanly, a failing subsystem ends the process with
// exit 1 naming it, and --lock-file with --exit-on-lock-contention hands over between processes.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { repoRoot, tempDir } from '../../helpers/plat.js';
import { bootRefusal } from '../../helpers/boot-refusal.js';
import { runPlat, startPlat, type Background } from '../../helpers/run-plat.js';

const FIXTURE = path.join(repoRoot, 'dist/test/nodeagent/role/fixtures/test-subsystems.js');
const HEADER = 'apiVersion: nodeagent.config.platform/v1beta1\nkind: NodeAgentConfiguration\n';
/**
 * What a standalone agent needs from its file: no API server to ask about tokens and access; and
 * for these role tests no server on the default ports.
 */
const STANDALONE = `${HEADER}authentication:\n  webhook:\n    enabled: false\nauthorization:\n  mode: AlwaysAllow\nenableServer: false\nhealthzPort: 0\n`;
const RUNNING = /Node agent running/;

function writeConfig(dir: string, body: string, name = 'config.yaml'): string {
  const file = path.join(dir, name);
  writeFileSync(file, body);
  return file;
}

function withSubsystems(dir: string, mode: 'ok' | 'fail' | 'throw'): { env: Record<string, string>; journal: string } {
  const journal = path.join(dir, 'journal');
  const config = path.join(dir, 'plat.config.json');
  writeFileSync(config, JSON.stringify({ plugins: [[FIXTURE, { journal, mode }]] }));
  return { env: { PLAT_CONFIG: config }, journal };
}

const exited = (p: Background) => new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve({ code: p.child.exitCode, signal: p.child.signalCode });
  p.child.once('exit', (code, signal) => resolve({ code, signal }));
});

describe('plat nodeagent', () => {
  const procs: Background[] = [];
  after(() => {
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  });
  const start = async (args: string[], ready: RegExp, opts: { cwd?: string; env?: Record<string, string> } = {}) => {
    const p = await startPlat(['nodeagent', ...args], ready, opts);
    procs.push(p);
    return p;
  };

  it('--help lists every section and option, deprecated ones marked', () => {
    const r = runPlat(['nodeagent', '--help']);
    assert.equal(r.code, 0, r.stderr);
    for (const section of ['Identity, files and registration', 'Serving, authentication, authorization', 'Pods, static sources and runtime', 'Resources, eviction, managers']) {
      assert.ok(r.stdout.includes(`\n${section}:\n`), section);
    }
    for (const flag of ['--config string', '--config-dir string', '--platconfig string', '--rotate-server-certificates', '--eviction-hard strings', '-v, --v Level']) {
      assert.ok(r.stdout.includes(flag), flag);
    }
    assert.match(r.stdout, /\(DEPRECATED: This parameter should be set via the config file specified by the NodeAgent's --config/);
  });

  it('refuses an invalid configuration with every problem, the file, and exit 1', () => {
    const dir = tempDir();
    const file = writeConfig(dir, `${HEADER}port: 70000\nnodeLeaseDurationSeconds: -5\ncontainerLogMaxFiles: 1\n`);
    const r = runPlat(['nodeagent', `--config=${file}`], { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    assert.ok(r.stderr.includes('plat nodeagent: failed to validate nodeagent configuration, error: ['), r.stderr);
    for (const part of ['port (--port) 70000 must be between 1 and 65535, inclusive', 'nodeLeaseDurationSeconds must be greater than 0', 'containerLogMaxFiles must be greater than 1']) {
      assert.ok(r.stderr.includes(part), part);
    }
    assert.ok(r.stderr.includes(`], path: ${file}`), r.stderr);
  });

  it('refuses a file of another kind, naming the file, with exit 1', () => {
    const dir = tempDir();
    const file = writeConfig(dir, 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n');
    const r = runPlat(['nodeagent', '--config', file], { cwd: dir });
    assert.equal(r.code, 1);
    assert.ok(r.stderr.includes(`failed to load nodeagent config file, path: ${file}, error: failed to load NodeAgent config file ${file}, error failed to decode: no kind "KubeletConfiguration" is registered`), r.stderr);
  });

  // The option refusals below boot the role in this process (boot refuses before anything starts);
  // the two above and the webhook one run the real process.
  it('prints the deprecation notice of each deprecated flag used', async () => {
    const r = await bootRefusal('nodeagent', ['--max-pods=-1', '--register-node=false'], { cwd: tempDir() });
    assert.equal(r.code, 1);
    for (const name of ['max-pods', 'register-node']) {
      assert.ok(r.stderr.includes(`Flag --${name} has been deprecated, This parameter should be set via the config file specified by the NodeAgent's --config flag. See https://kubernetes.io/docs/tasks/administer-cluster/kubelet-config-file/ for more information.`), name);
    }
    assert.ok(r.stderr.includes('maxPods (--max-pods) -1 must not be a negative number'), r.stderr);
    assert.ok(!r.stderr.includes('Flag --config has been deprecated'));
  });

  it('refuses options plat does not implement with exit 2, and bad flag values with exit 2', async () => {
    const refused = await bootRefusal('nodeagent', ['--cloud-provider=external'], { cwd: tempDir() });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--cloud-provider is not supported: plat has no cloud-provider integration/);
    const bad = await bootRefusal('nodeagent', ['--register-with-taints=a=b:Sometimes'], { cwd: tempDir() });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /invalid argument "a=b:Sometimes" for "--register-with-taints" flag: invalid taint effect: Sometimes, unsupported taint effect/);
  });

  it('refuses --runonce and --exit-on-lock-contention without --lock-file, with exit 1', async () => {
    const runonce = await bootRefusal('nodeagent', ['--runonce'], { cwd: tempDir() });
    assert.equal(runonce.code, 1);
    assert.match(runonce.stderr, /runOnce \(--runOnce\) true, Runonce mode has been deprecated and should not be set/);
    const lock = await bootRefusal('nodeagent', ['--exit-on-lock-contention'], { cwd: tempDir() });
    assert.equal(lock.code, 1);
    assert.match(lock.stderr, /cannot exit on lock file contention: no lock file specified/);
  });

  it('refuses webhook authentication or authorization in standalone mode, as upstream\'s BuildAuth', () => {
    const dir = tempDir();
    const authn = runPlat(['nodeagent', `--config=${writeConfig(dir, HEADER)}`], { cwd: dir });
    assert.equal(authn.code, 1);
    assert.match(authn.stderr, /plat nodeagent: no client provided, cannot use webhook authentication/);
    const authz = runPlat(['nodeagent', `--config=${writeConfig(dir, `${HEADER}authentication:\n  webhook:\n    enabled: false\n`, 'authz.yaml')}`], { cwd: dir });
    assert.equal(authz.code, 1);
    assert.match(authz.stderr, /plat nodeagent: no client provided, cannot use webhook authorization/);
  });

  it('runs standalone with a valid file until SIGTERM, then exits 0', async () => {
    const dir = tempDir();
    const file = writeConfig(dir, STANDALONE);
    const p = await start([`--config=${file}`, '--hostname-override=  Edge-01 '], RUNNING, { cwd: dir });
    assert.match(p.output(), /Standalone mode, no API client/);
    assert.match(p.output(), /Node agent running node="edge-01" subsystems=\["identity","node","server","static-pods"\]/);
    assert.match(p.output(), /Effective NodeAgentConfiguration config=/);
    p.child.kill('SIGTERM');
    assert.deepEqual(await exited(p), { code: 0, signal: null });
  });

  it('runs the subsystems plugins register with the built context and stops them on SIGTERM', async () => {
    const dir = tempDir();
    const file = writeConfig(dir, `${STANDALONE}maxPods: 42\nstaticPodURL: https://agent:s3cret@manifests.example/pods\nstaticPodURLHeader:\n  Authorization: [Bearer t0ken]\n`);
    const { env, journal } = withSubsystems(dir, 'ok');
    const p = await start([`--config=${file}`, '--hostname-override=node-a', `--cert-dir=${dir}/pki`], RUNNING, { cwd: dir, env });
    assert.match(p.output(), /subsystems=\["identity","node","server","static-pods","recorder"\]/);
    assert.match(p.output(), /Warning: subsystem is disabled subsystem="disabled"/);
    assert.match(p.output(), /Effective NodeAgentConfiguration .*staticPodURLHeader.*<masked>/);
    assert.ok(!/s3cret|t0ken/.test(p.output()), 'no credentials in the logs');
    p.child.kill('SIGTERM');
    assert.deepEqual(await exited(p), { code: 0, signal: null });
    assert.deepEqual(readFileSync(journal, 'utf8').trim().split('\n'), [`built node=node-a standalone=true maxPods=42 certDir=${dir}/pki`, 'started', 'stopped']);
  });

  it('exits 1 naming the subsystem whose run fails, after stopping the others', async () => {
    const dir = tempDir();
    const file = writeConfig(dir, STANDALONE);
    const { env } = withSubsystems(dir, 'fail');
    const p = await start([`--config=${file}`], RUNNING, { cwd: dir, env });
    assert.deepEqual(await exited(p), { code: 1, signal: null });
    assert.match(p.output(), /Subsystem failed subsystem="recorder" error="lost its way on purpose"/);
    assert.match(p.output(), /subsystem "recorder" failed: lost its way on purpose, shutting down/);
  });

  it('exits 1 at start-up when a subsystem cannot be built', () => {
    const dir = tempDir();
    const file = writeConfig(dir, STANDALONE);
    const { env } = withSubsystems(dir, 'throw');
    const r = runPlat(['nodeagent', `--config=${file}`], { cwd: dir, env });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /plat nodeagent: error initializing subsystem "recorder": cannot be built on purpose/);
  });

  it('logs in JSON with logging.format json', async () => {
    const dir = tempDir();
    const file = writeConfig(dir, `${STANDALONE}logging:\n  format: json\n`);
    const p = await start([`--config=${file}`], RUNNING, { cwd: dir });
    const line = p.output().split('\n').find((l) => l.includes('Node agent running'))!;
    const entry = JSON.parse(line) as Record<string, unknown>;
    assert.equal(entry['msg'], 'Node agent running');
    assert.equal(entry['v'], 0);
    assert.equal(typeof entry['ts'], 'number');
    p.child.kill('SIGTERM');
    assert.equal((await exited(p)).code, 0);
  });

  it('--vmodule raises the level of the loggers it names (here the agent\'s own, for its V(1) lines)', async () => {
    for (const [vmodule, logged] of [['nodeagent=1', true], ['csrsigning=1', false]] as const) {
      const dir = tempDir();
      const p = await start([`--config=${writeConfig(dir, STANDALONE)}`, `--vmodule=${vmodule}`], RUNNING, { cwd: dir });
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(/plat\/nodeagent\] Subsystem starting subsystem=/.test(p.output()), logged, `${vmodule}:\n${p.output()}`);
      p.child.kill('SIGTERM');
      assert.equal((await exited(p)).code, 0);
    }
  });

  it('--lock-file: a second agent waits; with --exit-on-lock-contention the holder hands over and exits 0', async () => {
    const dir = tempDir();
    const file = writeConfig(dir, STANDALONE);
    const lock = path.join(dir, 'nodeagent.lock');
    const first = await start([`--config=${file}`, `--lock-file=${lock}`, '--exit-on-lock-contention'], /Watching for inotify events/, { cwd: dir });
    assert.equal(statSync(lock).mode & 0o777, 0o600);
    assert.equal(readFileSync(lock, 'utf8').split('\n')[0], String(first.child.pid));
    const second = await start([`--config=${file}`, `--lock-file=${lock}`], /Waiting for the lock file held by another process/, { cwd: dir });
    assert.deepEqual(await exited(first), { code: 0, signal: null });
    assert.match(first.output(), /file lock contention, shutting down/);
    await waitFor(() => RUNNING.test(second.output()));
    assert.equal(readFileSync(lock, 'utf8').split('\n')[0], String(second.child.pid));
    second.child.kill('SIGTERM');
    assert.equal((await exited(second)).code, 0);
    assert.equal(existsSync(lock), false, 'released on exit');
  });

  it('--lock-file: one SIGTERM while waiting for the lock stops start-up in the wait\'s own words, exit 1', async () => {
    const dir = tempDir();
    const lock = path.join(dir, 'nodeagent.lock');
    writeFileSync(lock, `${process.pid}\n`, { mode: 0o600 }); // held by a live process: this test's
    const p = await start([`--config=${writeConfig(dir, STANDALONE)}`, `--lock-file=${lock}`], /Waiting for the lock file held by another process/, { cwd: dir });
    p.child.kill('SIGTERM');
    assert.equal((await exited(p)).code, 1, p.output());
    assert.match(p.output(), /^plat nodeagent: unable to acquire file lock on "\S+nodeagent\.lock": interrupted$/m);
  });

  it('--lock-file: a lock left by a dead process is taken over', async () => {
    const dir = tempDir();
    const file = writeConfig(dir, STANDALONE);
    const lock = path.join(dir, 'nodeagent.lock');
    writeFileSync(lock, '2147483646\n', { mode: 0o600 });
    const p = await start([`--config=${file}`, `--lock-file=${lock}`], RUNNING, { cwd: dir });
    assert.match(p.output(), /Removing a stale lock file/);
    p.child.kill('SIGTERM');
    assert.equal((await exited(p)).code, 0);
  });
});

async function waitFor(cond: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
