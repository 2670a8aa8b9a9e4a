// The endpoint's start tap reads extension-apiserver-authentication with the
// --authentication-kubeconfig credentials. Against an API server that accepts and never answers,
// a SIGTERM then ended start-up but left that read running (its connection open until the 30 s
// idle limit) and, with --authentication-tolerate-lookup-failure, the tap went on afterwards and
// opened the port of a controller manager that was stopping. It stops on the start signal: the
// read is abandoned at once, start-up is said as stopped in that tap, and the port stays closed.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, describe, it } from 'node:test';
import { boot } from '../../core/boot.js';
import { silentLogger } from '../../core/log.js';
import { profiles } from '../../host/profiles.js';
import { writeServerKubeconfig } from '../helpers/loopback-kubeconfig.js';
import { connectError, freePort, tempDir } from '../helpers/plat.js';

/** Accepts connections and says nothing (no TLS handshake either): a partitioned API server. */
async function silentServer(): Promise<{ port: number; open: () => number; accepted: Promise<void>; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let accepted!: () => void;
  const first = new Promise<void>((r) => { accepted = r; });
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
    accepted();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    open: () => sockets.size,
    accepted: first,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('controller manager: a stop while the endpoint looks its authentication up', () => {
  const servers: { close: () => Promise<void> }[] = [];
  after(async () => { for (const s of servers) await s.close(); });

  for (const tolerate of [false, true]) {
    it(`abandons the lookup and stops start-up at once${tolerate ? ', --authentication-tolerate-lookup-failure too, without opening the port' : ''}`, async () => {
      const silent = await silentServer();
      servers.push(silent);
      const kubeconfig = writeServerKubeconfig(`https://127.0.0.1:${silent.port}`);
      const port = await freePort();
      const stop = new AbortController();
      const booting = boot({
        profile: profiles['controller-manager']!, cwd: tempDir(), logger: silentLogger, version: '0.0.0-test', signal: stop.signal,
        argv: ['--platconfig', kubeconfig, '--authentication-kubeconfig', kubeconfig, '--leader-elect=false',
          '--bind-address=127.0.0.1', `--secure-port=${port}`, `--cert-dir=${tempDir()}`, ...(tolerate ? ['--authentication-tolerate-lookup-failure'] : [])],
      });
      await silent.accepted;
      stop.abort('received SIGTERM');
      await assert.rejects(booting, { message: 'start-up stopped: received SIGTERM while the start tap of plugin "ControllerManagerServing" had not settled' });
      // Bounded: the old code held the read open until the client's 30 s idle limit.
      for (let i = 0; i < 50 && silent.open() > 0; i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(silent.open(), 0, 'the lookup request was abandoned with start-up');
      assert.match(await connectError(port) ?? 'connected', /ECONNREFUSED/, 'nothing listens on --secure-port');
    });
  }
});
