// A minimal reader of Kubernetes' protobuf wire encoding for request bodies: kubectl's typed
// clients send built-in core types (`kubectl create secret`, `create namespace`) as
// `application/vnd.kubernetes.protobuf`. Only decoding is needed: responses stay JSON, which the
// same clients also accept. The envelope is "k8s\0" + runtime.Unknown{typeMeta, raw}.
import { errors } from './errors.js';
import type { ApiObject, ObjectMeta } from './meta.js';
import { putEntry } from './own-entry.js';

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

export interface Field { readonly no: number; readonly wire: number; readonly varint?: bigint; readonly bytes?: Buffer }

/** A varint is at most ten bytes (64 bits), as gogo-protobuf's generated readers allow. */
const MAX_VARINT_BYTES = 10;

/**
 * The fields of one message, in order (repeated fields appear several times), read one at a time:
 * a decoder keeps what it knows and the rest costs nothing, as gogo-protobuf's readers skip unknown
 * fields (a body is untrusted, and 3 MB of tiny fields made into objects at once is ~140 MB).
 * Every length is checked against what is left, and a varint longer than 64 bits is refused as
 * upstream's readers refuse it (reading one bit by bit without a bound would cost time quadratic
 * in the body's size). `buf` undefined is a message field sent with another wire type.
 */
export function* eachField(buf: Buffer | undefined): Generator<Field, void, undefined> {
  if (buf === undefined) throw new Error('proto: wrong wireType for a message field');
  let i = 0;
  // Numbers while exact (keys and lengths always are, in a body that fits in memory): a BigInt
  // per byte would make a body of tiny fields slow to read.
  const varint = (): number => {
    let v = 0; let scale = 1;
    for (let n = 0; n < MAX_VARINT_BYTES; n++) {
      if (i >= buf.length) throw new Error('truncated varint');
      const b = buf[i++]!;
      v += (b & 0x7f) * scale;
      if (!(b & 0x80)) return v;
      scale *= 128;
    }
    throw new Error('proto: integer overflow');
  };
  // A value past 2^53 is read again, exactly.
  const exact = (start: number, approx: number): bigint => {
    if (approx <= Number.MAX_SAFE_INTEGER) return BigInt(approx);
    let v = 0n;
    for (let n = 0; ; n++) {
      const b = buf[start + n]!;
      v |= BigInt(b & 0x7f) << BigInt(7 * n);
      if (!(b & 0x80)) return v;
    }
  };
  const skip = (n: number): void => {
    if (i + n > buf.length) throw new Error('truncated field');
    i += n;
  };
  while (i < buf.length) {
    const key = varint();
    const wire = key % 8;
    const no = Math.floor(key / 8);
    if (no === 0 || no > 0x1fffffff) throw new Error(`proto: illegal tag ${no} (wire type ${wire})`);
    if (wire === 0) {
      const start = i;
      yield { no, wire, varint: exact(start, varint()) };
    } else if (wire === 2) {
      const len = varint();
      if (len > buf.length - i) throw new Error('truncated field');
      const start = i;
      i += len;
      yield { no, wire, bytes: buf.subarray(start, i) };
    } else if (wire === 1) skip(8);
    else if (wire === 5) skip(4);
    else throw new Error(`unsupported wire type ${wire}`);
  }
}

/** All the fields of one message at once, for a small nested message read whole. */
export const fields = (buf: Buffer | undefined): Field[] => [...eachField(buf)];

export const str = (f: Field): string => (f.bytes ?? Buffer.alloc(0)).toString('utf8');

/** A string or message field of an untrusted body: it must come length-delimited, as gogo's readers insist. */
export function stringField(f: Field): string {
  if (f.bytes === undefined) throw new Error(`proto: wrong wireType = ${f.wire} for field ${f.no}`);
  return str(f);
}

/** A map<string, V> entry: key field 1, value field 2. */
export function mapEntry(f: Field): [string, Buffer] {
  let k = ''; let v: Buffer = Buffer.alloc(0);
  for (const e of eachField(f.bytes ?? Buffer.alloc(0))) {
    if (e.no === 1) k = str(e);
    else if (e.no === 2) v = e.bytes ?? Buffer.alloc(0);
  }
  return [k, v];
}

/** The parts of ObjectMeta a client may set on create or update. */
export function objectMeta(buf: Buffer): ObjectMeta {
  const m: Record<string, unknown> = {};
  const labels: Record<string, string> = {}; const annotations: Record<string, string> = {}; const finalizers: string[] = [];
  for (const f of eachField(buf)) {
    switch (f.no) {
      case 1: m['name'] = str(f); break;
      case 2: m['generateName'] = str(f); break;
      case 3: m['namespace'] = str(f); break;
      case 5: m['uid'] = str(f); break;
      case 6: m['resourceVersion'] = str(f); break;
      case 11: { const [k, v] = mapEntry(f); putEntry(labels, k, v.toString('utf8')); break; }
      case 12: { const [k, v] = mapEntry(f); putEntry(annotations, k, v.toString('utf8')); break; }
      case 14: finalizers.push(str(f)); break;
      default: break;
    }
  }
  for (const k of Object.keys(m)) if (m[k] === '') delete m[k];
  if (Object.keys(labels).length) m['labels'] = labels;
  if (Object.keys(annotations).length) m['annotations'] = annotations;
  if (finalizers.length) m['finalizers'] = finalizers;
  return m as ObjectMeta;
}

/** Unwraps the envelope: the object's apiVersion/kind and its raw message. */
export function unwrap(body: Buffer, what: string): { apiVersion: string; kind: string; raw: Buffer } {
  if (body.length < 4 || !body.subarray(0, 4).equals(MAGIC)) throw errors.badRequest(`${what}: provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]`);
  try {
    let apiVersion = ''; let kind = ''; let raw: Buffer = Buffer.alloc(0);
    for (const f of eachField(body.subarray(4))) {
      if (f.no === 1) for (const t of eachField(f.bytes!)) { if (t.no === 1) apiVersion = str(t); else if (t.no === 2) kind = str(t); }
      else if (f.no === 2) raw = f.bytes!;
    }
    return { apiVersion, kind, raw };
  } catch (e) {
    throw errors.badRequest(`${what}: ${(e as Error).message}`);
  }
}

export type ProtobufDecoder = (raw: Buffer) => ApiObject;
