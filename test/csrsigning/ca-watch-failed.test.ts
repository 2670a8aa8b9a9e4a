// How often a CA file that cannot be watched is logged. Upstream's DynamicCertKeyPairContent logs
// 'Failed to watch cert and key file, will retry later' when its watch loop ends (a watched file
// removed) and again at each run of that loop (wait.Until, once a minute) while the file stays
// missing, naming the file as its flag gave it. Plat re-reads (and re-watches) the files at every
// event on them, so the line is tied to the watch going down and to the periodic re-read, not to
// every reload.
import assert from 'node:assert/strict';
import { unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { CaProvider } from '../../plugins/csrsigning/index.js';
import { makeCa } from '../helpers/certs.js';
import { tempDir } from '../helpers/plat.js';
import { Logs, until } from './support.js';

const HOUR = 3_600_000;
const LINE = 'Failed to watch cert and key file, will retry later';

describe('CA file that cannot be watched', () => {
  const ca = makeCa({ commonName: 'ca-watch-failed' });
  let provider: CaProvider | undefined;
  afterEach(() => provider?.stop());

  function files(): { certFile: string; keyFile: string } {
    const dir = tempDir();
    const certFile = path.join(dir, 'ca.crt');
    const keyFile = path.join(dir, 'ca.key');
    writeFileSync(certFile, ca.certificatePem);
    writeFileSync(keyFile, ca.privateKeyPem, { mode: 0o600 });
    return { certFile, keyFile };
  }

  it('is logged once when its watch goes down, not at every reload an event on the other file brings', async () => {
    const { certFile, keyFile } = files();
    const logs = new Logs();
    provider = new CaProvider(certFile, keyFile, logs.logger, { reloadIntervalMs: HOUR });
    provider.start();
    await provider.reload();
    unlinkSync(certFile);
    for (let i = 0; i < 5; i++) {
      writeFileSync(keyFile, ca.privateKeyPem);
      await provider.reload();
    }
    await until(() => logs.count(`open ${certFile}: no such file or directory`) >= 5, 'the reloads');
    assert.equal(logs.count(LINE), 1, logs.lines.join('\n'));
  });

  it('is logged again at the periodic re-read while the file stays missing, naming the file as given', async () => {
    const { certFile, keyFile } = files();
    const relative = path.relative(process.cwd(), certFile);
    const logs = new Logs();
    provider = new CaProvider(relative, keyFile, logs.logger, { reloadIntervalMs: 50 });
    provider.start();
    unlinkSync(certFile);
    await until(() => logs.count(LINE) >= 2, 'the line at two periodic re-reads');
    const line = `${LINE} err="error adding watch for file ${relative}: no such file or directory"`;
    assert.ok(logs.has(line), logs.lines.join('\n'));
  });
});
