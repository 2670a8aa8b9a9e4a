// A cluster's `socks5://` proxy-url is used as Go's http.Transport uses it (client-go passes it on):
// SOCKS5 CONNECT to the server's host:port, a name sent unresolved and an IP as its address, the
// URL's user info as RFC 1929 username/password, then TLS to the server inside the tunnel. Every
// failure reads as Go's (and kubectl's) text; kubectl v1.32 goes through the same proxy alongside.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import { loadKubeconfig } from '../../core/client/kubeconfig.js';
import { RestClient } from '../../core/client/rest-client.js';
import { askBothClients, echoServer, proxiedKubeconfig } from '../helpers/echo-behind-proxy.js';
import { Kubectl } from '../helpers/kubectl.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { runPlatAsync } from '../helpers/run-plat.js';
import { socksProxy, type SocksProxy, type SocksProxyOptions } from '../helpers/socks-proxy.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

/** What the proxy was asked since `from`, each distinct request once. */
const asked = (p: SocksProxy, from = 0) => [...new Set(p.seen.slice(from).map((r) => JSON.stringify(r)))].map((r) => JSON.parse(r) as unknown);

describe('socks5 proxy-url', () => {
  let plat: RunningPlat;
  let port: string;
  const proxies: SocksProxy[] = [];
  before(async () => { plat = await startInProcess(); port = new URL(plat.url).port; });
  after(async () => { for (const p of proxies) await p.close(); await plat?.stop(); });

  const proxy = async (o: SocksProxyOptions = {}) => { const p = await socksProxy(o); proxies.push(p); return p; };
  /** The running server's admin kubeconfig, naming the server by `host` and going through `proxyUrl`. */
  const kubeconfig = (host: string, proxyUrl: string) => {
    const file = path.join(tempDir(), 'k.conf');
    writeFileSync(file, readFileSync(plat.kubeconfig, 'utf8').replace(/server: .*/, `server: https://${host}:${port}\n    proxy-url: ${proxyUrl}`));
    return file;
  };
  const platCsr = (file: string, ...args: string[]) =>
    runPlatAsync(['csr', 'list', '--kubeconfig', file, ...args], { env: { PLATCONFIG: '', KUBECONFIG: '' } });
  const kubectl = (file: string, ...args: string[]) => new Kubectl(file).run(['get', '--raw', CSRS, ...args]);

  it('plat csr, plat auth and kubectl reach the server through it: a name as a name (remote DNS), an IP as its address', async () => {
    const p = await proxy();
    for (const [host, addressType] of [['localhost', 3], ['127.0.0.1', 1]] as const) {
      const file = kubeconfig(host, p.url);
      const expected = [{ methods: [0], addressType, host, port: Number(port) }];
      const listed = await platCsr(file);
      assert.deepEqual([listed.code, listed.stderr], [0, 'No resources found\n'], host);
      assert.deepEqual(asked(p, 0), expected, `plat csr to ${host}`);
      const from = p.seen.length;
      const canI = await runPlatAsync(['auth', 'can-i', 'list', 'csr', '--platconfig', file]);
      assert.deepEqual([canI.code, canI.stdout], [0, 'yes\n'], canI.stderr);
      assert.deepEqual(asked(p, from), expected, `plat auth can-i to ${host}`);
      const at = p.seen.length;
      const k = await kubectl(file);
      assert.equal(k.code, 0, k.stderr);
      assert.equal(JSON.parse(k.stdout).kind, 'CertificateSigningRequestList');
      assert.deepEqual(asked(p, at), expected, `kubectl to ${host}`);
      p.seen.length = 0;
    }
  });

  it('the URL\'s user info is offered as RFC 1929 username/password; wrong ones fail as Go says', async () => {
    const p = await proxy({ credentials: { username: 'who', password: 'pa ss' } });
    const good = kubeconfig('localhost', `socks5://who:pa%20ss@127.0.0.1:${p.port}`);
    const listed = await platCsr(good);
    assert.deepEqual([listed.code, listed.stderr], [0, 'No resources found\n']);
    assert.deepEqual(asked(p, 0), [{ methods: [0, 2], username: 'who', password: 'pa ss', addressType: 3, host: 'localhost', port: Number(port) }]);

    const wrong = kubeconfig('localhost', `socks5://who:nope@127.0.0.1:${p.port}`);
    const refused = await platCsr(wrong);
    const text = `Unable to connect to the server: socks connect tcp 127.0.0.1:${p.port}->localhost:${port}: username/password authentication failed`;
    assert.deepEqual([refused.code, refused.stderr], [1, `plat csr list: ${text}\n`]);
    const k = await kubectl(wrong);
    assert.deepEqual([k.code, k.stderr.trimEnd().split('\n').at(-1)], [1, text]);

    // A username alone goes with an empty password, as Go sends it; the proxy decides.
    const userOnly = kubeconfig('localhost', `socks5://who@127.0.0.1:${p.port}`);
    p.seen.length = 0;
    const alone = await platCsr(userOnly);
    assert.deepEqual([alone.code, alone.stderr], [1, `plat csr list: ${text}\n`]);
    assert.deepEqual(asked(p, 0), [{ methods: [0, 2], username: 'who', password: '' }]);
  });

  it('a failure reply is Go\'s reply text; `connection refused` reads as kubectl\'s refused sentence', async () => {
    const cases: [number, string][] = [
      [1, 'Unable to connect to the server: socks connect tcp 127.0.0.1:P->127.0.0.1:S: unknown error general SOCKS server failure'],
      [4, 'Unable to connect to the server: socks connect tcp 127.0.0.1:P->127.0.0.1:S: unknown error host unreachable'],
      [5, 'The connection to the server 127.0.0.1:S was refused - did you specify the right host or port?'],
    ];
    for (const [code, message] of cases) {
      const p = await proxy({ failWith: code });
      const text = message.replace(':P', `:${p.port}`).replaceAll(':S', `:${port}`);
      const file = kubeconfig('127.0.0.1', p.url);
      const failed = await platCsr(file);
      assert.deepEqual([failed.code, failed.stderr], [1, `plat csr list: ${text}\n`], `reply ${code}`);
      const k = await kubectl(file);
      assert.deepEqual([k.code, k.stderr.trimEnd().split('\n').at(-1)], [1, text], `kubectl, reply ${code}`);
    }
  });

  // Go's SOCKS handshake has no deadline of its own (the dial context is detached from the
  // request's): the request's timeout ends it. Before, Node kept such a request waiting for its
  // socket past its timeout.
  it('a proxy that never answers fails the request at its --request-timeout', async () => {
    const p = await proxy({ silent: true });
    const file = kubeconfig('localhost', p.url);
    const failed = await platCsr(file, '--request-timeout', '1s');
    assert.deepEqual([failed.code, failed.stderr], [1, 'plat csr list: Unable to connect to the server: context deadline exceeded\n']);
    // kubectl's words race between its context and its http.Client timeout; it gives up as well.
    const k = await kubectl(file, '--request-timeout', '1s');
    assert.equal(k.code, 1);
    assert.match(k.stderr, /Unable to connect to the server: (context deadline exceeded|net\/http: request canceled while waiting for connection)/);
  });
});

// The controller manager's and node agent's RestClient and the webhook client share the tunnel.
test('the REST and webhook clients of a loaded kubeconfig tunnel through it, TLS checked against the server\'s name', async () => {
  const server = await echoServer([]);
  const p = await socksProxy();
  try {
    const conn = loadKubeconfig(proxiedKubeconfig(`https://localhost:${server.port}`, p.url, server.caPem));
    assert.deepEqual(await askBothClients(conn), [{ path: '/api', authorization: 'Bearer secret-t' }, { path: '/?timeout=30s', authorization: 'Bearer secret-t' }]);
    assert.deepEqual(asked(p), [{ methods: [0], addressType: 3, host: 'localhost', port: server.port }]);
    // The certificate names localhost only: through the tunnel an IP server must still fail its check.
    const byIp = new RestClient(loadKubeconfig(proxiedKubeconfig(`https://127.0.0.1:${server.port}`, p.url, server.caPem)));
    try {
      await assert.rejects(byIp.request('GET', '/api'), { message: 'tls: failed to verify certificate: x509: cannot validate certificate for 127.0.0.1 because it doesn\'t contain any IP SANs' });
    } finally {
      byIp.close();
    }
  } finally {
    server.close();
    await p.close();
  }
});
