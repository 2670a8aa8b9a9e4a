// The controller manager's serving and request-header options where upstream's options code decides
// more than a flag's type: half a --tls-cert-file/--tls-private-key-file pair is
// SecureServingOptions.ApplyTo's "missing filename for serving cert", and only with a port (ApplyTo
// returns at once without one); non-standard --requestheader-* names are warned of by
// RequestHeaderAuthenticationOptions.Validate, which runs whatever the port or the CA file; a port
// taken is ApplyTo's "failed to create listener: ..." with Go's net.OpError text; a wildcard inside
// an --authorization-always-allow-paths entry is path.NewAuthorizer's error, also only with a port.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { freePort, startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { runPlat } from '../helpers/run-plat.js';
import { adminKubeconfig, startControllerManager } from './support.js';

const NON_STANDARD = [
  '--requestheader-username-headers is set without specifying the standard X-Remote-User header - API aggregation will not work',
  '--requestheader-group-headers is set without specifying the standard X-Remote-Group header - API aggregation will not work',
  '--requestheader-extra-headers-prefix is set without specifying the standard X-Remote-Extra- header prefix - API aggregation will not work',
];

describe('plat controller-manager serving options, as upstream\'s options code', () => {
  let plat: RunningPlat;
  let admin: string;
  before(async () => {
    plat = await startInProcess({ args: ['--controllers='] });
    admin = adminKubeconfig(plat);
  });
  after(async () => { await plat?.stop(); });

  it('refuses half a serving pair with a port, in ApplyTo\'s words', async () => {
    for (const half of [['--tls-cert-file=/nonexistent/x.crt'], ['--tls-private-key-file=/nonexistent/x.key']]) {
      const out = runPlat(['controller-manager', '--platconfig', admin, `--secure-port=${await freePort()}`, '--bind-address=127.0.0.1', ...half], { cwd: tempDir() });
      assert.equal(out.code, 2, out.stderr);
      assert.match(out.stderr, /(^|\n)plat controller-manager: missing filename for serving cert\n$/);
    }
  });

  it('says a port taken in Go\'s words', async () => {
    const taken = net.createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
    try {
      const out = runPlat(['controller-manager', '--platconfig', admin, `--secure-port=${port}`, '--bind-address=127.0.0.1', '--leader-elect=false'], { cwd: tempDir() });
      assert.equal(out.code, 1, out.stderr);
      const addr = `127.0.0.1:${port}`;
      assert.match(out.stderr, new RegExp(`\\nplat controller-manager: failed to create listener: failed to listen on ${addr}: listen tcp ${addr}: bind: address already in use\\n$`));
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('starts with half a serving pair or a wildcard inside an always-allowed path and --secure-port=0: nothing reads them', async () => {
    for (const arg of ['--tls-cert-file=/nonexistent/x.crt', '--authorization-always-allow-paths=/a*b']) {
      const cm = await startControllerManager(['--platconfig', admin, '--leader-elect=false', '--secure-port=0', arg]);
      await cm.stop();
    }
  });

  it('warns of non-standard request-header names without a CA file or a port', async () => {
    const cm = await startControllerManager(['--platconfig', admin, '--leader-elect=false', '--secure-port=0',
      '--requestheader-username-headers=X-User', '--requestheader-group-headers=X-Group', '--requestheader-extra-headers-prefix=X-Extra-']);
    try {
      for (const warning of NON_STANDARD) assert.ok(cm.logs.some((l) => l.startsWith('W') && l.includes(warning)), `${warning}\n${cm.logs.join('\n')}`);
    } finally {
      await cm.stop();
    }
  });

  it('does not warn of the standard names, in any case', async () => {
    const cm = await startControllerManager(['--platconfig', admin, '--leader-elect=false', '--secure-port=0',
      '--requestheader-username-headers=X-Remote-User,X-User', '--requestheader-group-headers=x-remote-group']);
    try {
      assert.ok(!cm.logs.some((l) => l.includes('API aggregation will not work')), cm.logs.join('\n'));
    } finally {
      await cm.stop();
    }
  });
});
