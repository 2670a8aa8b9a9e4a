// The node's addresses as upstream finds them: --node-ip parsed and checked (ParseNodeIPArgument,
// validateNodeIP), the default-route address (ChooseHostInterface, route files included), and the
// NodeAddress setter's order of choices, on a host the test describes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Node } from '../../../core/nodes/node-object.js';
import { setNodeAddresses, type AddressInputs } from '../../../plugins/nodeagent-node/addresses.js';
import { chooseHostInterface, parseDefaultRoutes } from '../../../plugins/nodeagent-node/host-network.js';
import { formatIp, parseIp } from '../../../core/go-ip.js';
import { parseNodeIpArgument, validateNodeIp } from '../../../plugins/nodeagent-node/node-ip.js';
import { fakeNetwork } from './support.js';

const ip = (s: string) => parseIp(s)!;

describe('IP text as Go reads and prints it', () => {
  const cases: Array<[string, string | undefined]> = [
    ['192.0.2.1', '192.0.2.1'], ['010.001.2.3', '10.1.2.3'], ['256.1.1.1', undefined], ['::ffff:10.0.0.1', '10.0.0.1'],
    ['FD00:0:0:0:0:0:0:1', 'fd00::1'], ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'], ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['::', '::'], ['fe80::1%eth0', undefined], ['node-1', undefined], ['', undefined],
  ];
  for (const [text, want] of cases) it(`${JSON.stringify(text)}`, () => assert.equal(parseIp(text) && formatIp(parseIp(text)!), want));
});

describe('--node-ip (ParseNodeIPArgument)', () => {
  it('takes one IP or a dual-stack pair, trims, ignores what is not an IP', () => {
    assert.deepEqual(parseNodeIpArgument('', '').ips, []);
    assert.deepEqual(parseNodeIpArgument(' 192.0.2.20 , fd00::20', '').ips.map(formatIp), ['192.0.2.20', 'fd00::20']);
    const r = parseNodeIpArgument('192.0.2.20,not-an-ip', '');
    assert.deepEqual([r.ips.map(formatIp), r.invalid], [['192.0.2.20'], ['not-an-ip']]);
    assert.deepEqual(parseNodeIpArgument('::', '').ips.map(formatIp), ['::']);
  });
  const bad: Array<[string, string, string]> = [
    ['10.0.0.1,10.0.0.2', '', 'must contain either a single IP or a dual-stack pair of IPs'],
    ['10.0.0.1,fd00::1,fd00::2', '', 'must contain either a single IP or a dual-stack pair of IPs'],
    ['0.0.0.0,fd00::1', '', "dual-stack node IP cannot include '0.0.0.0' or '::'"],
    ['10.0.0.1,fd00::1', 'gce', 'dual-stack not supported in this configuration'],
  ];
  for (const [value, cloud, why] of bad) {
    it(`refuses ${value}${cloud ? ` with --cloud-provider=${cloud}` : ''}`, () => {
      assert.throws(() => parseNodeIpArgument(value, cloud), { message: `bad --node-ip ${JSON.stringify(value)}: ${why}` });
    });
  }
  it('allows the pair with the external cloud provider', () => assert.equal(parseNodeIpArgument('10.0.0.1,fd00::1', 'external').ips.length, 2));
});

describe('validateNodeIP', () => {
  const net = fakeNetwork();
  const cases: Array<[string, string | undefined]> = [
    ['192.0.2.20', undefined], ['fd00::20', undefined],
    ['127.0.0.1', "nodeIP can't be loopback address"], ['::1', "nodeIP can't be loopback address"],
    ['224.0.0.1', "nodeIP can't be a multicast address"], ['169.254.1.1', "nodeIP can't be a link-local unicast address"],
    ['fe80::1', "nodeIP can't be a link-local unicast address"], ['0.0.0.0', "nodeIP can't be an all zeros address"],
    ['192.0.2.99', 'node IP: "192.0.2.99" not found in the host\'s network interfaces'],
  ];
  for (const [text, err] of cases) {
    it(`${text}: ${err ?? 'fine'}`, () => {
      if (err === undefined) validateNodeIp(ip(text), net);
      else assert.throws(() => validateNodeIp(ip(text), net), { message: err });
    });
  }
});

describe('the default-route address (ChooseHostInterface)', () => {
  it('reads default routes from the route files', () => {
    const v4 = 'Iface\tDestination\tGateway\tFlags\nwlan0\t000200C0\t00000000\t0001\neth0\t00000000\t010200C0\t0003\n';
    const v6 = `${'0'.repeat(32)} 00 ${'0'.repeat(32)} 00 fd000000000000000000000000000001 00000400 00000002 00000000 00000003 eth1\n` +
      `fd000000000000000000000000000000 40 ${'0'.repeat(32)} 00 ${'0'.repeat(32)} 00000100 00000001 00000000 00000001 eth1\n`;
    assert.deepEqual(parseDefaultRoutes(v4, v6), [{ interface: 'eth0', family: 4 }, { interface: 'eth1', family: 6 }]);
  });
  it('prefers IPv4 unless asked for IPv6, skipping link-local addresses', async () => {
    assert.equal(formatIp(await chooseHostInterface(fakeNetwork(), true)), '192.0.2.20');
    assert.equal(formatIp(await chooseHostInterface(fakeNetwork(), false)), 'fd00::20');
  });
  it('falls back to a global address on the loopback interface, and says when there is nothing', async () => {
    const onLoopback = fakeNetwork({ interfaces: { lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true }, { address: '198.51.100.1', family: 'IPv4', internal: true }], eth0: [{ address: 'fe80::2', family: 'IPv6', internal: false }] } });
    assert.equal(formatIp(await chooseHostInterface(onLoopback, true)), '198.51.100.1');
    await assert.rejects(chooseHostInterface(fakeNetwork({ routes: [] }), true), { message: 'no default routes found in "/proc/net/route" or "/proc/net/ipv6_route"' });
    await assert.rejects(chooseHostInterface(fakeNetwork({ interfaces: {} }), true), { message: 'unable to select an IP from default routes.' });
    // Without route files (not Linux) the first interface with a global address.
    assert.equal(formatIp(await chooseHostInterface(fakeNetwork({ routes: undefined }), false)), 'fd00::20');
  });
});

describe('the NodeAddress setter', () => {
  const node = (): Node => ({ metadata: { name: 'node-a' }, status: {} });
  const inputs = (over: Partial<AddressInputs> = {}): AddressInputs => ({ nodeIps: [], hostname: 'node-a.example', externalCloudProvider: false, net: fakeNetwork(), ...over });
  const addresses = async (over: Partial<AddressInputs> = {}, n = node()) => { await setNodeAddresses(n, inputs(over)); return n; };

  it('uses --node-ip, then the hostname address', async () => {
    assert.deepEqual((await addresses({ nodeIps: [ip('fd00::20')] })).status?.addresses, [{ type: 'InternalIP', address: 'fd00::20' }, { type: 'Hostname', address: 'node-a.example' }]);
  });
  it('gives a dual-stack pair two InternalIPs', async () => {
    assert.deepEqual((await addresses({ nodeIps: [ip('192.0.2.20'), ip('fd00::20')] })).status?.addresses,
      [{ type: 'InternalIP', address: '192.0.2.20' }, { type: 'InternalIP', address: 'fd00::20' }, { type: 'Hostname', address: 'node-a.example' }]);
  });
  it('refuses a --node-ip that is not on the host', async () => {
    await assert.rejects(addresses({ nodeIps: [ip('192.0.2.99')] }), { message: 'failed to validate nodeIP: node IP: "192.0.2.99" not found in the host\'s network interfaces' });
    await assert.rejects(addresses({ nodeIps: [ip('192.0.2.20'), ip('fd00::99')] }), { message: 'failed to validate secondaryNodeIP: node IP: "fd00::99" not found in the host\'s network interfaces' });
  });
  it('without --node-ip: a hostname that is an IP', async () => {
    assert.equal((await addresses({ hostname: '192.0.2.77' })).status?.addresses?.[0]?.address, '192.0.2.77');
  });
  it("without --node-ip: the node name's DNS addresses, valid ones of the preferred family first", async () => {
    const net = fakeNetwork({ lookup: { 'node-a': ['127.0.0.1', 'fd00::20', '192.0.2.20'] } });
    assert.equal((await addresses({ net })).status?.addresses?.[0]?.address, '192.0.2.20');
    assert.equal((await addresses({ net, nodeIps: [ip('::')] })).status?.addresses?.[0]?.address, 'fd00::20');
    assert.deepEqual(net.lookups, ['node-a', 'node-a']);
  });
  it("without --node-ip and DNS: the default route's address; `::` prefers IPv6", async () => {
    assert.equal((await addresses()).status?.addresses?.[0]?.address, '192.0.2.20');
    assert.equal((await addresses({ nodeIps: [ip('::')] })).status?.addresses?.[0]?.address, 'fd00::20');
    assert.equal((await addresses({ nodeIps: [ip('0.0.0.0')] })).status?.addresses?.[0]?.address, '192.0.2.20');
  });
  it('says why when there is no address at all', async () => {
    await assert.rejects(addresses({ net: fakeNetwork({ routes: [] }) }),
      { message: 'can\'t get ip address of node node-a. error: no default routes found in "/proc/net/route" or "/proc/net/ipv6_route"' });
  });
  it('with --cloud-provider=external: annotates the given IPs and leaves the addresses to the cloud controller', async () => {
    const n = await addresses({ externalCloudProvider: true, nodeIps: [ip('192.0.2.20'), ip('fd00::20')] });
    assert.equal(n.metadata.annotations?.['alpha.platform/provided-node-ip'], '192.0.2.20,fd00::20');
    assert.equal(n.status?.addresses?.length, 3);
    const set = node();
    set.status!.addresses = [{ type: 'ExternalIP', address: '203.0.113.5' }];
    assert.deepEqual((await addresses({ externalCloudProvider: true, nodeIps: [ip('192.0.2.20')] }, set)).status?.addresses, [{ type: 'ExternalIP', address: '203.0.113.5' }]);
    assert.equal((await addresses({ externalCloudProvider: true })).status?.addresses, undefined);
    const stale = node();
    stale.metadata.annotations = { 'alpha.platform/provided-node-ip': '1.2.3.4', keep: 'x' };
    assert.deepEqual((await addresses({}, stale)).metadata.annotations, { keep: 'x' });
  });
});
