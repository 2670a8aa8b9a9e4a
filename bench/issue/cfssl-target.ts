// cfssl serve as the peer: the same CA, a default signing profile with the same usages and
// lifetime, on 127.0.0.1 over plain HTTP (cfssl serve's usual mode; it has no client
// authentication, authorization or storage unless given -mutual-tls-* and -db-config), driven
// through /api/v1/cfssl/sign. Started with -loglevel 2 so that, like plat at -v 0, it logs nothing
// per certificate.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ChildServer } from './child.js';
import { JsonClient } from './https-json.js';
import type { BenchCa, BenchCsr } from './inputs.js';
import { LIFETIME_HOURS, USAGES } from './options.js';

export const CFSSL_INSTALL = 'apt-get update && apt-get install -y golang-cfssl';
const SIGN = '/api/v1/cfssl/sign';

/** cfssl runs but cannot sign with this CA (cfssl 1.2.0 has no Ed25519 CA keys): reported, not fatal. */
export class CfsslCannotSign extends Error {}

export type CfsslProbe = { readonly found: true; readonly version: string } | { readonly found: false; readonly reason: string };

export function probeCfssl(bin: string): CfsslProbe {
  if (!bin) return { found: false, reason: 'skipped (--cfssl "")' };
  const r = spawnSync(bin, ['version'], { encoding: 'utf8', timeout: 30_000 });
  if (r.error) {
    const missing = (r.error as NodeJS.ErrnoException).code === 'ENOENT';
    return { found: false, reason: missing ? `${bin} not found; install it with: ${CFSSL_INSTALL}` : `${bin} version: ${r.error.message}` };
  }
  const version = /Version:\s*(\S+)/.exec(r.stdout)?.[1];
  const runtime = /Runtime:\s*(\S+)/.exec(r.stdout)?.[1];
  if (r.status !== 0 || !version) return { found: false, reason: `${bin} version did not answer as cfssl does: ${(r.stdout + r.stderr).trim().slice(0, 200)}` };
  return { found: true, version: `cfssl ${version}${runtime ? ` (${runtime})` : ''}` };
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export interface CfsslTarget {
  readonly url: string;
  pid(): number | undefined;
  /** Signs `csr`; resolves with the certificate PEM. */
  sign(csr: BenchCsr): Promise<string>;
  stop(): Promise<void>;
}

export async function startCfssl(o: { bin: string; dir: string; ca: BenchCa; concurrency: number; probeCsr: BenchCsr }): Promise<CfsslTarget> {
  mkdirSync(o.dir, { recursive: true, mode: 0o700 });
  const ca = path.join(o.dir, 'ca.pem');
  const caKey = path.join(o.dir, 'ca-key.pem');
  const config = path.join(o.dir, 'config.json');
  writeFileSync(ca, o.ca.certificatePem);
  writeFileSync(caKey, o.ca.privateKeyPem, { mode: 0o600 });
  writeFileSync(config, JSON.stringify({ signing: { default: { expiry: `${LIFETIME_HOURS}h`, usages: [...USAGES] } } }));
  const port = await freePort();
  const server = new ChildServer('cfssl serve', o.bin,
    ['serve', '-address', '127.0.0.1', '-port', String(port), '-ca', ca, '-ca-key', caKey, '-config', config, '-loglevel', '2'], { cwd: o.dir });
  const url = `http://127.0.0.1:${port}`;
  const client = new JsonClient(new URL(url), { sockets: o.concurrency });
  const sign = async (csr: BenchCsr): Promise<string> => {
    const r = await client.request('POST', SIGN, { certificate_request: csr.pem });
    const cert = r.json?.result?.certificate;
    if (r.status !== 200 || r.json?.success !== true || typeof cert !== 'string') {
      if (r.status === 404) throw new CfsslCannotSign(`its sign endpoint is disabled: ${/couldn't initialize signer: .*/.exec(server.output)?.[0] ?? 'signer not initialized'}`);
      throw new Error(`cfssl sign ${csr.name}: HTTP ${r.status}: ${r.text.slice(0, 300)}`);
    }
    return cert;
  };
  const stop = async () => { client.close(); await server.stop(); };
  try {
    // Ready when it answers a signature request (it prints nothing at -loglevel 2); bounded.
    for (let attempt = 0; ; attempt++) {
      if (!server.running) throw new Error(`cfssl serve exited:\n${server.output}`);
      try {
        await sign(o.probeCsr);
        break;
      } catch (e) {
        const refused = (e as NodeJS.ErrnoException).code === 'ECONNREFUSED';
        if (!refused || attempt >= 300) throw e;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, pid: () => server.pid, sign, stop };
}
