// Start-up of the cluster signer: the flag combinations upstream refuses (generic and per-signer
// pairs together, half a pair), CA files that are not a usable CA, and the logs of signers that
// do not run. A flag refusal is a StartupError naming the flags and the problem; CA files are read
// (and refused, naming the file and the problem) when the csrsigning controller is built.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MapRegistry, type ControllerContext, type Runnable } from '../../core/lifecycle.js';
import { StartupError } from '../../core/plugin.js';
import { makeCa } from '../helpers/certs.js';
import { tempDir } from '../helpers/plat.js';
import { bootSigning, buildClusterCas, clusterCaRefusal, writeCaFiles } from './support.js';

const dir = tempDir();
const ca = makeCa({ commonName: 'flags-ca' });
const other = makeCa({ commonName: 'other-ca' });
const good = writeCaFiles(dir, ca, 'good');
const twoCerts = writeCaFiles(dir, { certificatePem: ca.certificatePem + other.certificatePem, privateKeyPem: ca.privateKeyPem }, 'two');
const mismatched = writeCaFiles(dir, { certificatePem: ca.certificatePem, privateKeyPem: other.privateKeyPem }, 'mismatched');
const missing = `${dir}/missing.crt`;

async function refusal(args: string[]): Promise<StartupError> {
  try {
    const { host } = await bootSigning(args);
    await host.hooks.shutdown.promise();
  } catch (e) {
    assert.ok(e instanceof StartupError, String(e));
    return e;
  }
  throw new Error(`boot with ${args.join(' ')} did not fail`);
}

describe('cluster signer flags', () => {
  const refused: { name: string; args: string[]; exitCode: number; message: string }[] = [
    { name: 'generic and per-signer pairs together',
      args: ['--cluster-signing-cert-file', good.certFile, '--cluster-signing-key-file', good.keyFile, '--cluster-signing-nodeagent-serving-cert-file', good.certFile, '--cluster-signing-nodeagent-serving-key-file', good.keyFile],
      exitCode: 2, message: 'cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time' },
    { name: 'a per-signer cert without its key', args: ['--cluster-signing-nodeagent-serving-cert-file', good.certFile],
      exitCode: 2, message: '"cluster-signing-nodeagent-serving": cannot specify cert without key' },
    { name: 'a per-signer key without its cert', args: ['--cluster-signing-plat-apiserver-client-key-file', good.keyFile],
      exitCode: 2, message: '"cluster-signing-plat-apiserver-client": cannot specify key without cert' },
    { name: 'the generic cert without its key', args: ['--cluster-signing-cert-file', good.certFile],
      exitCode: 2, message: '"cluster-signing": cannot specify cert without key' },
    // utilerrors.NewAggregate's one line, as upstream's CSRSigningControllerOptions.Validate.
    { name: 'half a pair and the generic pair: every problem at once',
      args: ['--cluster-signing-cert-file', good.certFile, '--cluster-signing-key-file', good.keyFile, '--cluster-signing-legacy-unknown-key-file', good.keyFile],
      exitCode: 2, message: '["cluster-signing-legacy-unknown": cannot specify key without cert, cannot specify --cluster-signing-{cert,key}-file and other --cluster-signing-*-file flags at the same time]' },
  ];
  for (const c of refused) {
    it(`refuses ${c.name}`, async () => {
      const e = await refusal(c.args);
      assert.equal(e.message, c.message);
      assert.equal(e.exitCode, c.exitCode);
    });
  }

  // Upstream's csrsigning init function reads the files once the process leads and builds its
  // controllers; an error there ends the process (exit 1, "Error initializing a controller").
  const unusable: { name: string; args: string[]; message: string }[] = [
    { name: 'a CA cert file with two certificates', args: ['--cluster-signing-cert-file', twoCerts.certFile, '--cluster-signing-key-file', twoCerts.keyFile],
      message: `failed to start platform/nodeagent-serving certificate controller: error reading CA cert file "csr-controller::${twoCerts.certFile}::${twoCerts.keyFile}": expected 1 certificate, found 2` },
    { name: 'a key that is not the certificate\'s', args: ['--cluster-signing-nodeagent-client-cert-file', mismatched.certFile, '--cluster-signing-nodeagent-client-key-file', mismatched.keyFile],
      message: `failed to start platform/apiserver-client-nodeagent certificate controller: error reading CA cert file "${mismatched.certFile}": tls: private key does not match public key` },
    { name: 'a missing CA file', args: ['--cluster-signing-cert-file', missing, '--cluster-signing-key-file', good.keyFile],
      message: `failed to start platform/nodeagent-serving certificate controller: error reading CA cert file "${missing}": open ${missing}: no such file or directory` },
    { name: 'a directory as the CA key file (Go opens it, then fails to read; upstream names the cert file)', args: ['--cluster-signing-cert-file', good.certFile, '--cluster-signing-key-file', dir],
      message: `failed to start platform/nodeagent-serving certificate controller: error reading CA cert file "${good.certFile}": read ${dir}: is a directory` },
  ];
  for (const c of unusable) {
    it(`boots, then refuses ${c.name} when the controller is built`, async () => {
      const e = await clusterCaRefusal(c.args);
      assert.equal(e.message, c.message);
    });
  }

  it('refuses a --cluster-signing-duration that is not positive', async () => {
    const e = await refusal(['--cluster-signing-duration', '0s']);
    assert.equal(e.exitCode, 2);
    assert.match(e.message, /--cluster-signing-duration.*must be greater than 0/);
  });

  it('signs for all four well-known signers with the generic pair, one CA shared', async () => {
    const booted = await bootSigning(['--cluster-signing-cert-file', good.certFile, '--cluster-signing-key-file', good.keyFile]);
    const { host, logs } = booted;
    try {
      for (const s of ['platform/apiserver-client', 'platform/apiserver-client-nodeagent', 'platform/nodeagent-serving', 'platform/legacy-unknown']) {
        assert.equal(host.hooks.sign.get(s)?.isUsed(), true, s);
      }
      assert.equal(logs.count('signing with the cluster CA'), 0, 'read when the controller is built, not at boot');
      buildClusterCas(booted);
      assert.equal(logs.count('signing with the cluster CA'), 4);
      assert.ok(!logs.has('Skipping'));
    } finally {
      await host.hooks.shutdown.promise();
    }
  });

  it('signs nothing without CA files, and says so', async () => {
    const { host, logs, flags } = await bootSigning([]);
    try {
      for (const s of ['platform/apiserver-client', 'platform/apiserver-client-nodeagent', 'platform/nodeagent-serving', 'platform/legacy-unknown']) {
        assert.ok(!host.hooks.sign.get(s)?.isUsed(), s);
      }
      // Said when the controller is built (upstream's init function, once leading), not at boot.
      const skipping = 'Skipping CSR signer controller because no csr cert/key was specified';
      assert.ok(!logs.has(skipping), logs.lines.join('\n'));
      const registry = new MapRegistry<(ctx: ControllerContext) => Runnable | undefined>();
      host.hooks.controllers.call(registry);
      const log = logs.logger.child('certificatesigningrequest-signing-controller');
      const controller = registry.get('certificatesigningrequest-signing-controller')!({ client: undefined as never, informers: undefined as never, logger: log, flags, hooks: host.hooks });
      assert.equal(controller, undefined);
      assert.equal(logs.count(skipping), 1, logs.lines.join('\n'));
    } finally {
      await host.hooks.shutdown.promise();
    }
  });

  it('lists the flags under "Certificate signing" with the spec\'s defaults', async () => {
    const { flags, host } = await bootSigning([]);
    await host.hooks.shutdown.promise();
    const names = flags.specs().filter((s) => s.section === 'Certificate signing').map((s) => s.name).sort();
    assert.deepEqual(names, [
      'cluster-signing-cert-file', 'cluster-signing-duration', 'cluster-signing-key-file',
      'cluster-signing-legacy-unknown-cert-file', 'cluster-signing-legacy-unknown-key-file',
      'cluster-signing-nodeagent-client-cert-file', 'cluster-signing-nodeagent-client-key-file',
      'cluster-signing-nodeagent-serving-cert-file', 'cluster-signing-nodeagent-serving-key-file',
      'cluster-signing-plat-apiserver-client-cert-file', 'cluster-signing-plat-apiserver-client-key-file',
    ]);
    assert.equal(flags.get('cluster-signing-duration'), 8760 * 3600_000);
  });
});
