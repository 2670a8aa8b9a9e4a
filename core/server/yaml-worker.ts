// The worker behind yaml-off-thread.ts: parses one YAML body with the very functions the request
// path uses inline for small bodies, so both give the same value, the same error text and the
// same duplicate keys.
import { parentPort } from 'node:worker_threads';
import { BodySyntaxError, parseDocument } from './body.js';
import { yamlDuplicateKeys } from './yaml-strict.js';
import type { YamlAnswer, YamlJob } from './yaml-off-thread.js';
import { depthOf, FLAT_FROM_DEPTH, flatten } from './flat-value.js';

parentPort!.on('message', (job: YamlJob) => {
  const body = Buffer.from(job.body.buffer, job.body.byteOffset, job.body.byteLength);
  let answer: YamlAnswer;
  try {
    const { value } = parseDocument(body, job.type);
    // Apply patches and whole YAML objects are checked for repeated keys (apply.ts, rest.ts' readObject).
    const duplicates = job.type === 'application/apply-patch+yaml' || job.type === 'application/yaml' ? yamlDuplicateKeys(body) : [];
    answer = depthOf(value, FLAT_FROM_DEPTH) > FLAT_FROM_DEPTH ? { flat: flatten(value), duplicates } : { value, duplicates };
  } catch (e) {
    if (!(e instanceof BodySyntaxError)) throw e;
    answer = { syntaxError: e.message, yaml: e.yaml };
  }
  parentPort!.postMessage(answer);
});
