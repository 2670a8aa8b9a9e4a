// --plat-api-content-type: plat's client speaks JSON, so the controller manager takes what
// client-go's clientset encodes in (upstream's default, the protobuf type; application/json;
// application/yaml), sends JSON for each, and refuses any other
// type at start-up in client-go's words (runtime.NegotiateError); the node agent checks its
// contentType the same way.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Host } from '../../core/host.js';
import { declareFlags } from '../../core/boot.js';
import { FlagError, Flags } from '../../core/flags/flag-set.js';
import { profiles } from '../../host/profiles.js';
import { runPlat } from '../helpers/run-plat.js';

function controllerManagerFlags(): Flags {
  const profile = profiles['controller-manager']!;
  const host = new Host({ role: profile.role });
  for (const p of profile.plugins) p.apply(host, undefined);
  const flags = new Flags();
  declareFlags(host, profile, flags);
  return flags;
}

const refusal = (v: string) => `invalid argument ${JSON.stringify(v)} for "--plat-api-content-type" flag: no serializers registered for ${v} (plat's client takes application/vnd.platform.protobuf, application/json or application/yaml and sends JSON for each)`;

describe('--plat-api-content-type', () => {
  it('the controller manager takes the protobuf default, JSON, YAML and empty (client-go: JSON), and nothing else', () => {
    // client-go's codecs (newSerializersForScheme) encode JSON, YAML and protobuf bodies.
    for (const v of ['application/vnd.platform.protobuf', 'application/json', 'application/yaml', '']) {
      const flags = controllerManagerFlags();
      flags.parse([`--plat-api-content-type=${v}`]);
      assert.equal(flags.get('plat-api-content-type'), v);
      assert.deepEqual(flags.usedUnsupported(), [], v);
    }
    for (const v of ['text/plain', 'application/x-yaml', 'application/json; charset=utf-8', 'application/vnd.kubernetes.protobuf', 'json']) {
      assert.throws(() => controllerManagerFlags().parse([`--plat-api-content-type=${v}`]), (e: unknown) => {
        assert.ok(e instanceof FlagError);
        assert.equal(e.message, refusal(v));
        return true;
      }, v);
    }
  });

  it('plat controller-manager stops at start-up, exit 2, on a type it cannot send', () => {
    const r = runPlat(['controller-manager', '--plat-api-content-type=text/plain']);
    assert.deepEqual([r.code, r.stderr], [2, `plat controller-manager: ${refusal('text/plain')}\n`]);
  });

  it('plat controller-manager gets past its flags with application/json', () => {
    const r = runPlat(['controller-manager', '--plat-api-content-type=application/json']);
    assert.match(r.stderr, /no API server to talk to: set --platconfig/);
    assert.doesNotMatch(r.stderr, /content-type/);
  });

  it('plat nodeagent refuses such a contentType too, from the flag', () => {
    const r = runPlat(['nodeagent', '--plat-api-content-type=text/plain']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /contentType: Invalid value: "text\/plain": no serializers registered for text\/plain \(plat's client takes application\/vnd\.platform\.protobuf, application\/json or application\/yaml and sends JSON for each\)/);
  });
});
