// --bind-address: blank or unspecified means all interfaces and families (spec 02), as Go's
// dual-stack listener on "0.0.0.0" or "::"; a host without IPv6 falls back to 0.0.0.0. Checked
// without listening (tests bind to 127.0.0.1 only).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Flags } from '../../core/flags/flag-set.js';
import { listenHosts, listenOnBindAddress } from '../../core/server/bind-address.js';
import { apiserverFlags } from '../../plugins/apiserver/flags.js';
import { servingFlags } from '../../plugins/controller-manager-serving/flags.js';

const failing = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

describe('--bind-address', () => {
  it('listens on both families for blank, 0.0.0.0 and ::; on the address itself otherwise', () => {
    for (const bind of ['', '0.0.0.0', '::']) assert.deepEqual(listenHosts(bind), ['::', '0.0.0.0'], bind);
    for (const bind of ['127.0.0.1', '::1', '10.0.0.1']) assert.deepEqual(listenHosts(bind), [bind]);
  });

  it('falls back to 0.0.0.0 only when the host has no IPv6', async () => {
    const tried: string[] = [];
    const open = (refuse: string) => async (host: string) => {
      tried.push(host);
      if (host === '::') throw failing(refuse);
      return host;
    };
    assert.equal(await listenOnBindAddress('0.0.0.0', open('EAFNOSUPPORT')), '0.0.0.0');
    assert.deepEqual(tried.splice(0), ['::', '0.0.0.0']);
    await assert.rejects(listenOnBindAddress('', open('EADDRINUSE')), /EADDRINUSE/);
    assert.deepEqual(tried.splice(0), ['::']);
    await assert.rejects(listenOnBindAddress('127.0.0.1', async () => { throw failing('EAFNOSUPPORT'); }), /EAFNOSUPPORT/);
  });
});

describe('--bind-address and --advertise-address take an IP, as pflag\'s IP flags', () => {
  it('refuses a host name with pflag\'s words, on both servers', () => {
    for (const [specs, name] of [[apiserverFlags, 'bind-address'], [apiserverFlags, 'advertise-address'], [servingFlags, 'bind-address']] as const) {
      const f = new Flags();
      for (const spec of specs) f.define(spec);
      assert.throws(() => f.parse([`--${name}=localhost`]), { message: `invalid argument "localhost" for "--${name}" flag: failed to parse IP: "localhost"` });
      for (const ok of ['', '0.0.0.0', '::', '10.0.0.1', 'fd00::1']) {
        const g = new Flags();
        for (const spec of specs) g.define(spec);
        g.parse([`--${name}=${ok}`]);
        assert.equal(g.get<string>(name), ok);
      }
    }
  });
});
