// Request bodies that are not JSON get Go's words, as upstream's decoders give them: the scanner's
// syntax errors, Interpret's version/kind sniff, and the patch handler's []jsonPatchOp decode.
// The expected messages are Go's own (go-json-vectors.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { interpretError, summarizeData } from '../../core/api/go-decode-errors.js';
import { goJsonSyntaxError } from '../../core/api/go-json-syntax.js';
import { decodePatch } from '../../core/server/patch-decode.js';
import { BYTE_VECTORS, INTERPRET_VECTORS, JSON_PATCH_OP_VECTORS, SYNTAX_VECTORS } from './go-json-vectors.js';

const patchError = (type: string, body: string, validation: 'Strict' | 'Warn' | 'Ignore' = 'Warn'): string | undefined => {
  try {
    decodePatch(type, Buffer.from(body), validation);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
};

describe("Go's JSON decoding errors", () => {
  it('reports the syntax error encoding/json reports, input by input', () => {
    for (const [input, want] of SYNTAX_VECTORS) assert.equal(goJsonSyntaxError(Buffer.from(input)), want, JSON.stringify(input));
    for (const [hex, want] of BYTE_VECTORS) assert.equal(goJsonSyntaxError(Buffer.from(hex, 'hex')), want, hex);
  });

  it('accepts what encoding/json accepts', () => {
    for (const [input] of INTERPRET_VECTORS) assert.equal(goJsonSyntaxError(Buffer.from(input)), undefined, input);
  });

  it('refuses nesting deeper than 10000, as Go does', () => {
    assert.equal(goJsonSyntaxError(Buffer.from('['.repeat(10000) + ']'.repeat(10000))), undefined);
    assert.equal(goJsonSyntaxError(Buffer.from('['.repeat(10001))), "invalid character '[' exceeded max depth");
  });

  it("sniffs version and kind as Interpret does", () => {
    for (const [input, want] of INTERPRET_VECTORS) assert.equal(interpretError(JSON.parse(input)) ?? null, want, input);
  });

  it('decodes a JSON patch into []jsonPatchOp first (fieldValidation Strict and Warn)', () => {
    for (const [input, want] of JSON_PATCH_OP_VECTORS) {
      for (const v of ['Strict', 'Warn'] as const) {
        assert.equal(patchError('application/json-patch+json', input, v), want === null ? undefined : `error decoding patch: ${want}`, `${v} ${input}`);
      }
    }
  });

  it('words a broken patch as each patch type and validation directive does', () => {
    const cases: Array<[string, string, 'Strict' | 'Warn' | 'Ignore', string | undefined]> = [
      ['application/json-patch+json', '[{', 'Warn', 'error decoding patch: unexpected end of JSON input'],
      ['application/json-patch+json', '[{', 'Ignore', 'unexpected end of JSON input'],
      ['application/merge-patch+json', 'x', 'Strict', "error decoding patch: invalid character 'x' looking for beginning of value"],
      ['application/merge-patch+json', 'x', 'Ignore', 'Invalid JSON Patch'],
      ['application/merge-patch+json', '[]', 'Warn', 'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}'],
      ['application/merge-patch+json', 'null', 'Warn', 'Invalid JSON Patch'],
      ['application/merge-patch+json', '"s"', 'Ignore', 'Invalid JSON Patch'],
      ['application/strategic-merge-patch+json', '{"a":tru}', 'Warn', "invalid character '}' in literal true (expecting 'e')"],
      ['application/strategic-merge-patch+json', '5', 'Ignore', 'json: cannot unmarshal number into Go value of type map[string]interface {}'],
      ['application/strategic-merge-patch+json', 'null', 'Warn', undefined],
      ['application/apply-patch+yaml', 'x', 'Warn', 'error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go value of type map[string]interface {}'],
      ['application/apply-patch+yaml', '- a\n- b', 'Strict', 'error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ];
    for (const [type, body, v, want] of cases) assert.equal(patchError(type, body, v), want, `${type} ${v} ${body}`);
    assert.match(patchError('application/apply-patch+yaml', '{a: [', 'Warn') ?? '', /^error decoding YAML: error converting YAML to JSON: yaml: line 1: /);
  });

  it('summarizes a body as summarizeData: an object as text, anything else in hex, 30 bytes at most', () => {
    assert.equal(summarizeData(Buffer.from('')), '<empty>');
    assert.equal(summarizeData(Buffer.from('{"a":')), '{"a":');
    assert.equal(summarizeData(Buffer.from(`{"metadata":{"name":"${'x'.repeat(40)}"}}`)), '{"metadata":{"name":"xxxxxxxxx ...');
    assert.equal(summarizeData(Buffer.from('[1]')), '5b315d');
    assert.equal(summarizeData(Buffer.from('x'.repeat(31))), `${'78'.repeat(30)} ...`);
  });
});
