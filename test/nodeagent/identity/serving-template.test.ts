// The serving template's required addresses (upstream's newGetTemplateFn): at least one IP, or,
// with the deprecated AllowDNSOnlyNodeCSR gate, at least one IP or DNS name. The table runs the
// template; the last case runs the identity subsystem with the gate against a real API server and
// reads the DNS-only CSR it sends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadKubeconfig } from '../../../core/client/kubeconfig.js';
import { RestClient } from '../../../core/client/rest-client.js';
import { parseCsr } from '../../../core/crypto/index.js';
import { Flags } from '../../../core/flags/flag-set.js';
import type { NodeAddress } from '../../../core/nodeagent/context.js';
import { runServingIdentity } from '../../../plugins/nodeagent-identity/serving-identity.js';
import { servingTemplate } from '../../../plugins/nodeagent-identity/serving-template.js';
import { until } from '../../controller-manager/support.js';
import { nodeAgentTestContext } from '../../helpers/nodeagent-context.js';
import { startInProcess, tempDir, type RunningPlat } from '../../helpers/plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

const ip: NodeAddress = { type: 'InternalIP', address: '10.0.0.1' };
const hostname: NodeAddress = { type: 'Hostname', address: 'n1.example' };
const dns: NodeAddress = { type: 'ExternalDNS', address: 'n1.dns.example' };

describe('node agent serving template: required addresses', () => {
  const cases: [string, NodeAddress[], boolean, { dnsNames: string[]; ipAddresses: string[] } | undefined][] = [
    ['IP, gate off', [ip, hostname], false, { dnsNames: ['n1.example'], ipAddresses: ['10.0.0.1'] }],
    ['IP, gate on', [ip, hostname], true, { dnsNames: ['n1.example'], ipAddresses: ['10.0.0.1'] }],
    ['hostname only, gate off', [hostname], false, undefined],
    ['hostname only, gate on', [hostname], true, { dnsNames: ['n1.example'], ipAddresses: [] }],
    ['DNS names only, gate on', [dns, hostname], true, { dnsNames: ['n1.dns.example', 'n1.example'], ipAddresses: [] }],
    ['nothing, gate off', [], false, undefined],
    ['nothing, gate on', [], true, undefined],
  ];
  for (const [name, addresses, allowDnsOnly, want] of cases) {
    it(name, () => {
      const t = servingTemplate('n1', addresses, allowDnsOnly);
      assert.deepEqual(t, want && { commonName: 'system:node:n1', organizations: ['system:nodes'], ...want });
    });
  }
});

describe('node agent serving certificate with AllowDNSOnlyNodeCSR', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  it('a node with only a hostname sends a DNS-only serving CSR', { timeout: 60_000 }, async () => {
    const flags = new Flags();
    flags.define({ name: 'cert-dir', type: 'string', section: '', help: '' });
    flags.parse(['--cert-dir', tempDir('plat-serving-dns-only-')]);
    const ctx = nodeAgentTestContext({ nodeName: 'dns-only', flags, config: { enableServer: true, serverTLSBootstrap: true, featureGates: { AllowDNSOnlyNodeCSR: true } } });
    ctx.api.set(new RestClient(loadKubeconfig(plat.kubeconfig)));
    ctx.addresses.set([{ type: 'Hostname', address: 'dns-only.example' }]);
    const stop = new AbortController();
    const running = runServingIdentity(ctx, { templateCheckMs: 20 }, stop.signal);
    try {
      const csr = await until(async () => ((await plat.admin.get(CSRS)).json.items as any[])
        .find((c) => c.spec.signerName === 'platform/nodeagent-serving'), 'a serving CSR');
      const req = parseCsr(Buffer.from(csr.spec.request, 'base64').toString());
      assert.equal(req.commonName, 'system:node:dns-only');
      assert.deepEqual([req.dnsNames, req.ipAddresses], [['dns-only.example'], []]);
    } finally {
      stop.abort();
      await running;
    }
  });
});
