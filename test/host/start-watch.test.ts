// A config-file plugin whose start tap never settles (it awaits a Promise nobody resolves, with
// nothing else keeping the event loop alive): the process ended, exit 0 and not a word, as if it
// had been told to stop. It now stays up and names the plugin it is waiting on. A factory that
// never resolves, found only when nothing is left to wait on, stops start-up with exit 1. One
// SIGTERM while a start tap hangs stops start-up (it was only recorded: a second one was needed).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { writeServerKubeconfig } from '../helpers/loopback-kubeconfig.js';
import { freePort, tempDir } from '../helpers/plat.js';
import { runPlatAsync, startPlat } from '../helpers/run-plat.js';

it('names the plugin whose start tap has not settled, and keeps the process up', async () => {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'plat.config.mjs'), "export default { plugins: ['./hang.mjs'] };\n");
  writeFileSync(path.join(dir, 'hang.mjs'), "export default { name: 'HangingStart', apply(host) { host.hooks.start.tapPromise('HangingStart', () => new Promise(() => {})); } };\n");
  const kubeconfig = writeServerKubeconfig(`https://127.0.0.1:${await freePort()}`);
  const plat = await startPlat(['controller-manager', '--platconfig', kubeconfig, '--secure-port', '0', '--leader-elect=false'],
    /start-up is waiting on a start tap that has not settled plugin="HangingStart" waited="10s"/, { cwd: dir });
  try {
    assert.equal(plat.child.exitCode, null, plat.output());
    assert.match(plat.output(), /^W\S+ \S+ plat\] start-up is waiting/m);
  } finally {
    const exited = new Promise((r) => plat.child.once('exit', r));
    plat.child.kill('SIGKILL');
    await exited;
  }
});

it('names the config-file entry whose factory has not settled while something else keeps the process up', async () => {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'plat.config.mjs'), "export default { plugins: ['./slow-factory.mjs'] };\n");
  // Its own interval keeps the event loop alive, so the empty-loop check never fires: before, not a word.
  writeFileSync(path.join(dir, 'slow-factory.mjs'), 'export default async () => { setInterval(() => {}, 1000); await new Promise(() => {}); };\n');
  const kubeconfig = writeServerKubeconfig(`https://127.0.0.1:${await freePort()}`);
  const plat = await startPlat(['controller-manager', '--platconfig', kubeconfig, '--secure-port', '0', '--leader-elect=false'],
    /start-up is waiting on a plugin module or factory that has not settled entry=".*slow-factory\.mjs.*" waited="10s"/, { cwd: dir });
  try {
    assert.equal(plat.child.exitCode, null, plat.output());
  } finally {
    const exited = new Promise((r) => plat.child.once('exit', r));
    plat.child.kill('SIGKILL');
    await exited;
  }
});

it('one SIGTERM while a start tap hangs stops start-up: what started is shut down, exit 1, the tap named', async () => {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'plat.config.mjs'), "export default { plugins: ['./started.mjs', './hang.mjs'] };\n");
  writeFileSync(path.join(dir, 'started.mjs'), "export default { name: 'Started', apply(host) { host.hooks.start.tapPromise('Started', async () => {}); host.hooks.shutdown.tap('Started', () => process.stderr.write('Started: shut down\\n')); } };\n");
  writeFileSync(path.join(dir, 'hang.mjs'), "export default { name: 'HangingStart', apply(host) { host.hooks.start.tapPromise('HangingStart', () => { process.stderr.write('HangingStart: start tap entered\\n'); return new Promise(() => {}); }); } };\n");
  const kubeconfig = writeServerKubeconfig(`https://127.0.0.1:${await freePort()}`);
  const plat = await startPlat(['controller-manager', '--platconfig', kubeconfig, '--secure-port', '0', '--leader-elect=false'],
    /HangingStart: start tap entered/, { cwd: dir });
  try {
    const exited = new Promise<number | null>((resolve) => plat.child.once('exit', (code) => resolve(code)));
    plat.child.kill('SIGTERM');
    // Bounded: the old code only recorded the first SIGTERM and the process stayed up for good.
    const code = await Promise.race([exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), 20_000).unref())]);
    assert.equal(code, 1, plat.output());
    assert.match(plat.output(), /^plat controller-manager: start-up stopped: received SIGTERM while the start tap of plugin "HangingStart" had not settled$/m);
    assert.match(plat.output(), /^Started: shut down$/m);
  } finally {
    if (plat.child.exitCode === null && plat.child.signalCode === null) {
      const gone = new Promise((r) => plat.child.once('exit', r));
      plat.child.kill('SIGKILL');
      await gone;
    }
  }
});

it('stops start-up with exit 1 when a plugin factory awaits a Promise nothing settles', async () => {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'plat.config.mjs'), "export default { plugins: ['./never.mjs'] };\n");
  writeFileSync(path.join(dir, 'never.mjs'), 'export default () => new Promise(() => {});\n');
  const kubeconfig = writeServerKubeconfig(`https://127.0.0.1:${await freePort()}`);
  const r = await runPlatAsync(['controller-manager', '--platconfig', kubeconfig, '--secure-port', '0', '--leader-elect=false'], { cwd: dir });
  assert.equal(r.code, 1, r.stderr);
  // The entry is named: with several plugins its author could not tell which one it is.
  assert.match(r.stderr, /^plat controller-manager: start-up could not finish: it waits on a Promise that nothing is left to settle \(\S+plat\.config\.mjs: \/plugins\/0: plugin "\.\/never\.mjs": its module or factory never resolves\)$/m);
});

// Start taps were handed nothing: on the signal start-up stopped waiting, and a tap waiting on
// something outside (a peer, a lock) went on waiting behind the shutdown. They now get a signal.
it('a start tap gets an AbortSignal that the first SIGTERM aborts, and fails in its own words', async () => {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'plat.config.mjs'), "export default { plugins: ['./wait.mjs'] };\n");
  writeFileSync(path.join(dir, 'wait.mjs'), [
    "export default { name: 'WaitsForPeer', apply(host) { host.hooks.start.tapPromise('WaitsForPeer', (ctx) => {",
    '  process.stderr.write(`WaitsForPeer: waiting, signal given: ${ctx?.signal instanceof AbortSignal}\\n`);',
    '  return new Promise((resolve, reject) => ctx.signal.addEventListener(\'abort\', () => {',
    '    process.stderr.write(`WaitsForPeer: stopped waiting (${ctx.signal.reason})\\n`);',
    '    reject(new Error(`no peer before ${ctx.signal.reason}`));',
    '  }));',
    '}); } };',
  ].join('\n'));
  const kubeconfig = writeServerKubeconfig(`https://127.0.0.1:${await freePort()}`);
  const plat = await startPlat(['controller-manager', '--platconfig', kubeconfig, '--secure-port', '0', '--leader-elect=false'],
    /WaitsForPeer: waiting/, { cwd: dir });
  try {
    assert.match(plat.output(), /^WaitsForPeer: waiting, signal given: true$/m);
    const exited = new Promise<number | null>((resolve) => plat.child.once('exit', (code) => resolve(code)));
    plat.child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), 20_000).unref())]);
    assert.equal(code, 1, plat.output());
    assert.match(plat.output(), /^WaitsForPeer: stopped waiting \(received SIGTERM\)$/m);
    assert.match(plat.output(), /^plat controller-manager: \S+plat\.config\.mjs: \/plugins\/0: plugin "\.\/wait\.mjs": WaitsForPeer failed to start: no peer before received SIGTERM$/m);
  } finally {
    if (plat.child.exitCode === null && plat.child.signalCode === null) {
      const gone = new Promise((r) => plat.child.once('exit', r));
      plat.child.kill('SIGKILL');
      await gone;
    }
  }
});

// A ready tap that never settled held start-up without a word (plat all never printed where it
// serves), and a SIGTERM then waited out the stop's 10 s and exited 1 saying start-up did not stop.
it('names the plugin whose ready tap has not settled; one SIGTERM then stops start-up, naming it', async () => {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'plat.config.mjs'), "export default { plugins: ['./ready.mjs', './hang.mjs'] };\n");
  writeFileSync(path.join(dir, 'ready.mjs'), "export default { name: 'Ready', apply(host) { host.hooks.ready.tapPromise('Ready', async () => {}); host.hooks.shutdown.tap('Ready', () => process.stderr.write('Ready: shut down\\n')); } };\n");
  writeFileSync(path.join(dir, 'hang.mjs'), "export default { name: 'HangingReady', apply(host) { host.hooks.ready.tapPromise('wait-for-hsm', () => new Promise(() => {})); } };\n");
  const kubeconfig = writeServerKubeconfig(`https://127.0.0.1:${await freePort()}`);
  const plat = await startPlat(['controller-manager', '--platconfig', kubeconfig, '--secure-port', '0', '--leader-elect=false'],
    /start-up is waiting on a ready tap that has not settled plugin="HangingReady" tap="wait-for-hsm" waited="10s"/, { cwd: dir });
  try {
    const exited = new Promise<number | null>((resolve) => plat.child.once('exit', (code) => resolve(code)));
    plat.child.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), 20_000).unref())]);
    assert.equal(code, 1, plat.output());
    assert.match(plat.output(), /^plat controller-manager: start-up stopped: received SIGTERM while the ready tap "wait-for-hsm" of plugin "HangingReady" had not settled$/m);
    assert.match(plat.output(), /^Ready: shut down$/m);
  } finally {
    if (plat.child.exitCode === null && plat.child.signalCode === null) {
      const gone = new Promise((r) => plat.child.once('exit', r));
      plat.child.kill('SIGKILL');
      await gone;
    }
  }
});
