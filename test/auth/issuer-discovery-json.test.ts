// The service-account issuer's discovery document and key set are openidmetadata.go's json.Marshal
// bytes: HTML-safe escapes (an issuer's path may hold '&'), no newline.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { renderIssuerDiscovery } from '../../plugins/serviceaccounts/issuer-discovery.js';
import { goJsonMarshalText } from '../helpers/go-json-text.js';

const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });

const cases = [
  { issuer: 'https://issuer.example', jwksUri: 'https://issuer.example/openid/v1/jwks', escaped: '"issuer":"https://issuer.example"' },
  { issuer: 'https://issuer.example/a&b', jwksUri: 'https://keys.example/<k>', escaped: '"issuer":"https://issuer.example/a\\u0026b","jwks_uri":"https://keys.example/\\u003ck\\u003e"' },
];

describe('issuer discovery bytes', () => {
  for (const c of cases) {
    it(c.issuer, () => {
      const d = renderIssuerDiscovery({ issuer: c.issuer, jwksUri: c.jwksUri, keys: [publicKey] });
      assert.equal(d.configuration, goJsonMarshalText(JSON.parse(d.configuration)));
      assert.ok(d.configuration.includes(c.escaped), d.configuration);
      assert.equal(d.jwks, goJsonMarshalText(JSON.parse(d.jwks)));
    });
  }
});
