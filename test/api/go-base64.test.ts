// A []byte field as Go's encoding/json decodes it (base64.StdEncoding.Decode) and writes it back.
// Every row was printed by Go 1.19.8: json.Unmarshal of {"b": <text>} into a struct with a []byte
// field, then json.Marshal of it; a number is the byte of its "illegal base64 data at input byte N".
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base64ErrorIndex, goBase64 } from '../../core/api/base64-error.js';

const CASES: Array<[string, string | number]> = [
  ["", ''],
  ["YQ==", 'YQ=='],
  ["YR==", 'YQ=='],
  ["YWI=", 'YWI='],
  ["YWJ=", 'YWI='],
  ["YWJj", 'YWJj'],
  ["YWJjZA==", 'YWJjZA=='],
  ["YWJjZA=", 7],
  ["YWJjZA==YQ==", 8],
  ["YWJjZA==\n", 'YWJjZA=='],
  ["YWJjZA==\r\n", 'YWJjZA=='],
  ["YW\nJjZA==", 'YWJjZA=='],
  ["YW\n\n\nJjZA==", 'YWJjZA=='],
  ["YWJj\nZGVm", 'YWJjZGVm'],
  ["abc", 0],
  ["abcde", 4],
  ["a===", 1],
  ["ab=c", 2],
  ["YWJj ZA==", 4],
  ["!!", 0],
  ["not*base64", 3],
  ["ab\n", 1],
  ["YWJjZA=\n=", 'YWJjZA=='],
  ["YWJjZA=\nx", 7],
  ["YWJjZA=\n", 8],
  ["YWJjZA== ", 8],
  ["YWJjZGVmZ2hpamtsbW5vcA==", 'YWJjZGVmZ2hpamtsbW5vcA=='],
  ["YWJjZGVmZ2hp\namtsbW5vcA==", 'YWJjZGVmZ2hpamtsbW5vcA=='],
  ["YWJjZGVm=2hp", 8],
  ["=", 0],
  ["==", 0],
  ["Y===", 1],
  ["YW==\n\nYQ", 6],
  ["\n", ''],
  ["\r\n\r\n", ''],
  ["YWJjZGVmZ2hpamtsbW5vcHFy\nc3R1dnd4eXo=\n", 'YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXo='],
  ["YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXo", 32],
  ["-_", 0],
  ["YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eX==", 'YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eQ=='],];

describe("Go's base64 for []byte fields", () => {
  for (const [text, want] of CASES) {
    it(`${JSON.stringify(text)} → ${JSON.stringify(want)}`, () => {
      const at = base64ErrorIndex(text);
      if (typeof want === 'number') assert.equal(at, want);
      else {
        assert.equal(at, -1);
        assert.equal(goBase64(text), want);
      }
    });
  }

  it('hands back the text itself when it is already what Go writes', () => {
    const text = Buffer.from('a certificate request, say').toString('base64');
    assert.equal(goBase64(text), text);
  });
});
