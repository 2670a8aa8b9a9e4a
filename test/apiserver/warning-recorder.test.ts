// The Warning headers as apiserver's warning recorder writes them (endpoints/filters/warning.go):
// dedup, refused texts dropped, and the 4096-rune total past which every warning is cut to 256.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { warningHeaders } from '../../core/server/warning-recorder.js';

const q = (text: string) => `299 - "${text}"`;

describe('warning recorder', () => {
  const cases: { name: string; warnings: string[]; headers: string[]; truncated?: boolean }[] = [
    { name: 'empty and repeated texts skipped', warnings: ['a', '', 'b', 'a'], headers: [q('a'), q('b')] },
    { name: 'quotes and backslashes escaped', warnings: ['say "hi" \\ bye'], headers: [q('say \\"hi\\" \\\\ bye')] },
    { name: 'UTF-8 kept as it is', warnings: ['Iñtërnâtiônàlizætiøn ✓'], headers: [q('Iñtërnâtiônàlizætiøn ✓')] },
    { name: 'control characters dropped: C0, tab, DEL, C1', warnings: ['a\u0001', 'b\tc', 'd\u007f', 'e\u0085', 'ok'], headers: [q('ok')] },
    { name: 'a lone surrogate is U+FFFD, as Go decoded it', warnings: ['x\ud800y', 'x\ufffdy'], headers: [q('x\ufffdy')] },
    { name: 'exactly 4096 runes in all: not truncated', warnings: ['a'.repeat(4000), 'é'.repeat(96)], headers: [q('a'.repeat(4000)), q('é'.repeat(96))] },
    { name: 'past 4096 runes: every warning, earlier ones too, cut to 256 runes', warnings: ['a'.repeat(4000), 'é'.repeat(97), 'c'],
      headers: [q('a'.repeat(256)), q('é'.repeat(97)), q('c')], truncated: true },
    { name: 'a refused text still counts as recorded, and is dropped on replay', warnings: ['bad\n', 'a'.repeat(4097), 'bad\n'],
      headers: [q('a'.repeat(256))], truncated: true },
    { name: 'once truncating and at the total again, later warnings dropped',
      warnings: [...Array.from({ length: 17 }, (_, i) => `${String.fromCharCode(97 + i)}`.repeat(300)), 'late'],
      headers: Array.from({ length: 16 }, (_, i) => q(`${String.fromCharCode(97 + i)}`.repeat(256))), truncated: true },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(warningHeaders(c.warnings), { headers: c.headers, truncated: c.truncated ?? false });
    });
  }
});
