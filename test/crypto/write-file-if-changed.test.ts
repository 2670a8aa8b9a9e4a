// writeFileIfChanged: plat all's start-up rewrites admin.conf and sa.pub only when they change, so
// a start on a full disk, or one refused because another process owns the data dir, writes nothing.
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, statSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { writeFileIfChanged } from '../../core/pki/index.js';
import { tempDir } from '../helpers/plat.js';

test('writes only what differs: content, mode, or a symlink in its place', async () => {
  const dir = tempDir();
  const file = path.join(dir, 'admin.conf');
  await writeFileIfChanged(file, 'one', 0o600);
  const first = statSync(file);
  assert.equal(first.mode & 0o777, 0o600);

  await writeFileIfChanged(file, 'one', 0o600);
  assert.equal(statSync(file).ino, first.ino, 'the same bytes and mode: not written again');

  await writeFileIfChanged(file, 'two', 0o600);
  const second = statSync(file);
  assert.notEqual(second.ino, first.ino, 'new content is written (atomically: a new inode)');
  assert.equal(readFileSync(file, 'utf8'), 'two');

  chmodSync(file, 0o644);
  await writeFileIfChanged(file, 'two', 0o600);
  assert.equal(statSync(file).mode & 0o777, 0o600, 'a widened mode is put back');

  const target = path.join(dir, 'elsewhere');
  writeFileSync(target, 'two', { mode: 0o600 });
  const link = path.join(dir, 'linked');
  symlinkSync(target, link);
  await writeFileIfChanged(link, 'two', 0o600);
  assert.ok(lstatSync(link).isFile(), 'a symlink is replaced, never written through');
});
