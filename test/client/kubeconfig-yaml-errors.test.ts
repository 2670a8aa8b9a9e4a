// A kubeconfig with a YAML syntax error is refused in go-yaml v2's words and with its line, as
// kubectl 1.32 says them for the same file (each row checked against `kubectl --kubeconfig F
// config view`): the scanner's 1-based line, the parser's 0-based one, none on the first line.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { loadKubeconfig } from '../../core/client/kubeconfig.js';
import { tempDir } from '../helpers/plat.js';

const ROWS: [name: string, text: string, words: string][] = [
  ['unclosed flow sequence after an entry', 'apiVersion: v1\nclusters:\n- [a\n', "yaml: line 3: did not find expected ',' or ']'"],
  ['unclosed flow sequence after its opener', 'apiVersion: v1\nkind: Config\nclusters:\n- name: a\n  cluster: [\n', 'yaml: line 5: did not find expected node content'],
  ['unclosed flow sequence after a comma', 'clusters: [a,\n', 'yaml: line 1: did not find expected node content'],
  ['unclosed flow mapping after an entry', 'clusters: {a: b\n', "yaml: line 1: did not find expected ',' or '}'"],
  ['unclosed flow mapping after its opener', 'clusters: {\n', 'yaml: line 1: did not find expected node content'],
  ['unclosed nested flow, no final newline', 'clusters: [a, {b: [c]}', "yaml: line 1: did not find expected ',' or ']'"],
  ['flow sequence running into a less indented key', 'clusters: [a\nusers: []\n', "yaml: line 1: did not find expected ',' or ']'"],
  ['flow sequence continued on a less indented line', 'a: [b\n, c\n', "yaml: line 2: did not find expected ',' or ']'"],
  ['unterminated double quote', 'apiVersion: v1\ncurrent-context: "abc\n', 'yaml: line 3: found unexpected end of stream'],
  ['unterminated single quote on the only line', "kind: 'Config", 'yaml: found unexpected end of stream'],
  ['unterminated quote meeting a document marker', 'a:\n- "x\n---\nb\n', 'yaml: line 3: found unexpected document indicator'],
  ['tab indenting a sequence', 'apiVersion: v1\nclusters:\n\t- name: a\n', 'yaml: line 3: found character that cannot start any token'],
  ['tab after a plain scalar', 'apiVersion: v1\nkind: Config\n\tclusters: []\n', 'yaml: line 3: found a tab character that violates indentation'],
  ['tab after a plain scalar in a sequence entry', 'clusters:\n- name: a\n\tcluster: {}\n', 'yaml: line 3: found a tab character that violates indentation'],
  ['tab after a comment', 'a: b # c\n\tx: 1\n', 'yaml: line 2: found character that cannot start any token'],
  ['tab on the first line', '\tclusters: []\n', 'yaml: found character that cannot start any token'],
];

test('YAML syntax errors in a kubeconfig are go-yaml\'s words and lines', () => {
  const dir = tempDir();
  ROWS.forEach(([name, text, words], i) => {
    const file = path.join(dir, `k${i}.conf`);
    writeFileSync(file, text);
    assert.throws(() => loadKubeconfig(file), { message: `error loading config file "${file}": ${words}` }, name);
  });
});
