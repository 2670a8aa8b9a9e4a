// The worker behind yaml-off-thread.ts: parses one YAML body with the very functions the request
// path uses inline for small bodies, so both give the same value, the same error text and the
// same duplicate keys.
import { parentPort } from 'node:worker_threads';
import { BodySyntaxError, parseDocument } from './body.js';
import { yamlDuplicateKeys } from './yaml-strict.js';
import type { YamlJob, YamlParsed } from './yaml-off-thread.js';

parentPort!.on('message', (job: YamlJob) => {
  const body = Buffer.from(job.body.buffer, job.body.byteOffset, job.body.byteLength);
  let answer: YamlParsed;
  try {
    const { value } = parseDocument(body, job.type);
    // Apply patches and whole YAML objects are checked for repeated keys (apply.ts, rest.ts' readObject).
    answer = { value, duplicates: job.type === 'application/apply-patch+yaml' || job.type === 'application/yaml' ? yamlDuplicateKeys(body) : [] };
  } catch (e) {
    if (!(e instanceof BodySyntaxError)) throw e;
    answer = { syntaxError: e.message };
  }
  parentPort!.postMessage(answer);
});
