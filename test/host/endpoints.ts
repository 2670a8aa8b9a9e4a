// The two endpoints that share plat's serving options (--profiling, --tls-*): the API server
// (`plat all` in this process) and the controller manager (in this process, against a plat API
// server for its delegated authentication and authorization), as one table for tests.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { makeClientCert, type TestCredential } from '../helpers/certs.js';
import { freePort, startInProcess, type Client, type RunningPlat } from '../helpers/plat.js';
import { platCa, recordingLogger, startControllerManager, writeKubeconfig } from '../controller-manager/support.js';

export interface StartedEndpoint {
  /** The admin (system:masters), by client certificate. */
  readonly admin: Client;
  /** A user without rights, by client certificate. */
  readonly nobody: Client;
  /** host and port of the endpoint. */
  readonly address: { host: string; port: number };
  readonly logs: readonly string[];
  stop(): Promise<void>;
}

export interface Endpoint {
  readonly name: string;
  start(args: string[]): Promise<StartedEndpoint>;
  /** What a path nothing serves answers. */
  readonly notFound: RegExp;
}

const pair = (c: TestCredential) => ({ cert: c.certificatePem, key: c.privateKeyPem });
const addressOf = (url: string) => ({ host: new URL(url).hostname, port: Number(new URL(url).port) });

/** The table; `plat` is the API server the controller manager delegates to (RBAC on), `running` collects what to stop. */
export function endpoints(plat: () => RunningPlat, running: { stop(): Promise<void> }[]): Endpoint[] {
  return [
    {
      name: 'the API server',
      notFound: /"reason":"NotFound"/,
      async start(args) {
        // A logger whose verbosity /debug/flags/v can set, as the command's is.
        const { logger, lines } = recordingLogger();
        const p = await startInProcess({ args: ['--authorization-mode=RBAC', ...args], logger });
        running.push(p);
        return { admin: p.admin, nobody: p.admin.with(pair(makeClientCert(platCa(p), 'nobody'))), address: addressOf(p.url), logs: lines, stop: () => p.stop() };
      },
    },
    {
      name: 'the controller manager',
      notFound: /^404 page not found\n$/,
      async start(args) {
        const api = plat();
        const platconfig = writeKubeconfig(api, path.join(api.dataDir, 'cm.conf'), 'admin');
        const cm = await startControllerManager(['--platconfig', platconfig, '--leader-elect=false', '--bind-address', '127.0.0.1',
          '--secure-port', String(await freePort()), '--client-ca-file', path.join(api.dataDir, 'pki', 'ca.crt'),
          '--authentication-kubeconfig', platconfig, '--authorization-kubeconfig', platconfig, ...args]);
        running.push(cm);
        const admin = { cert: readFileSync(path.join(api.dataDir, 'pki', 'admin.crt'), 'utf8'), key: readFileSync(path.join(api.dataDir, 'pki', 'admin.key'), 'utf8') };
        return {
          admin: cm.anonymous.with(admin), nobody: cm.anonymous.with(pair(makeClientCert(platCa(api), 'nobody'))),
          address: addressOf(cm.url), logs: cm.logs, stop: () => cm.stop(),
        };
      },
    },
  ];
}
