// The first TLS record a client sends, read as far as Go's server judges it before OpenSSL does:
// whether it looks like TLS at all (conn.go readRecordOrCCS), whether it looks like plain HTTP
// (net/http's tlsRecordHeaderLooksLikeHTTP), and in a ClientHello the versions offered (for Go's
// "client offered only unsupported versions" text) and an SNI name ending in a dot, which Go's
// clientHelloMsg.unmarshal refuses.

export const RECORD_HEADER_LENGTH = 5;
const RECORD_HANDSHAKE = 22;
const RECORD_ALERT = 21;
const SSLV2 = 0x80;
const CLIENT_HELLO = 1;
const EXT_SERVER_NAME = 0;
const EXT_SUPPORTED_VERSIONS = 43;
/** Go's supportedVersions, newest first: what a client without the supported_versions extension is taken to offer up to its legacy version. */
const GO_VERSIONS = [0x0304, 0x0303, 0x0302, 0x0301];

/** The bytes of `GET /` and the like (net/http server.go tlsRecordHeaderLooksLikeHTTP). */
export function looksLikeHttp(header: Buffer): boolean {
  return ['GET /', 'HEAD ', 'POST ', 'PUT /', 'OPTIO'].includes(header.subarray(0, RECORD_HEADER_LENGTH).toString('latin1'));
}

/** Go's test on a first record: neither a handshake nor an alert, or a version no TLS has (SSLv2's 0x80 is left to OpenSSL, which refuses it too). */
export function looksLikeTls(header: Buffer): boolean {
  const type = header[0]!;
  if (type === SSLV2) return true;
  return (type === RECORD_HANDSHAKE || type === RECORD_ALERT) && header.readUInt16BE(1) < 0x1000;
}

/** The record's full length, header included. */
export const recordLength = (header: Buffer) => RECORD_HEADER_LENGTH + header.readUInt16BE(3);

export interface ClientHello {
  /** The versions offered, as Go lists them: the supported_versions extension, else derived from the legacy version. */
  readonly versions: readonly number[];
  /** An SNI host_name ending in '.'. */
  readonly trailingDotName: boolean;
}

/** The ClientHello in `record` (one whole record); undefined when it is not one, or spans records (OpenSSL then judges it alone). */
export function parseClientHello(record: Buffer): ClientHello | undefined {
  if (record[0] !== RECORD_HANDSHAKE || record.length < RECORD_HEADER_LENGTH + 4) return undefined;
  const body = record.subarray(RECORD_HEADER_LENGTH);
  if (body[0] !== CLIENT_HELLO) return undefined;
  const length = body.readUIntBE(1, 3);
  if (body.length < 4 + length) return undefined;
  const r = new Reader(body.subarray(4, 4 + length));
  const legacy = r.u16();
  r.skip(32);
  r.skip(r.u8());
  r.skip(r.u16());
  r.skip(r.u8());
  let versions = GO_VERSIONS.filter((v) => v <= legacy);
  let trailingDotName = false;
  if (r.ok && r.left > 0) {
    const extensions = r.sub(r.u16());
    while (extensions.ok && extensions.left > 0) {
      const type = extensions.u16();
      const data = extensions.sub(extensions.u16());
      if (type === EXT_SUPPORTED_VERSIONS) {
        const list = data.sub(data.u8());
        const offered: number[] = [];
        while (list.ok && list.left >= 2) offered.push(list.u16());
        versions = offered;
      } else if (type === EXT_SERVER_NAME) {
        const names = data.sub(data.u16());
        while (names.ok && names.left > 0) {
          const kind = names.u8();
          const name = names.bytes(names.u16());
          if (kind === 0 && name.toString('latin1').endsWith('.')) trailingDotName = true;
        }
      }
    }
  }
  return r.ok ? { versions, trailingDotName } : undefined;
}

/** Go's %x of a []uint16: `[302 301]`. */
export const formatVersions = (versions: readonly number[]) => `[${versions.map((v) => v.toString(16)).join(' ')}]`;

class Reader {
  #at = 0;
  ok = true;
  constructor(private readonly buf: Buffer) {}
  get left(): number { return this.buf.length - this.#at; }
  #take(n: number): Buffer {
    if (!this.ok || n > this.left) { this.ok = false; return Buffer.alloc(0); }
    const b = this.buf.subarray(this.#at, this.#at + n);
    this.#at += n;
    return b;
  }
  u8(): number { return this.#take(1)[0] ?? 0; }
  u16(): number { const b = this.#take(2); return b.length === 2 ? b.readUInt16BE(0) : 0; }
  skip(n: number): void { this.#take(n); }
  bytes(n: number): Buffer { return this.#take(n); }
  sub(n: number): Reader {
    const r = new Reader(this.#take(n));
    r.ok = this.ok;
    return r;
  }
}
