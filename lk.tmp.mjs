import { openLmdbStorage } from './dist/core/storage/lmdb.js';
import { mkdtempSync } from 'node:fs';
const s = await openLmdbStorage({ path: mkdtempSync('/tmp/lk-') }).catch(async (e) => { console.log('open err', e.message); process.exit(1); });
for (const n of [1975, 1976, 1977, 1978, 1979, 3000, 5000]) {
  const k = '/' + 'a'.repeat(n - 1);
  try { await s.create(k, { a: 1 }); console.log(n, 'ok'); } catch (e) { console.log(n, 'ERR', e.message.slice(0, 80)); }
  try { const g = await s.get(k); console.log(n, 'get', !!g); } catch (e) { console.log(n, 'get ERR', e.message.slice(0, 80)); }
}
const k2 = '/' + 'é'.repeat(1000);
try { await s.create(k2, { a: 1 }); console.log('utf8 2001 bytes ok'); } catch (e) { console.log('utf8 ERR', e.message.slice(0, 80)); }
await s.close();
