// The reads of Go's golang.org/x/crypto/cryptobyte that crypto/x509's certificate parser makes:
// each one succeeds or fails (no error text of its own: the caller names the failure, as Go does),
// and a tag is looked at by its first octet only (PeekASN1Tag), so an optional field whose header is
// broken counts as absent when its first octet is another tag. High tag numbers never read.
import { identifierOf, readTlv, type Tlv } from './der.js';

export class CryptobyteString {
  constructor(
    readonly buf: Uint8Array,
    private pos: number,
    readonly end: number,
  ) {}

  static of(buf: Uint8Array): CryptobyteString {
    return new CryptobyteString(buf, 0, buf.length);
  }

  get empty(): boolean {
    return this.pos >= this.end;
  }

  /** PeekASN1Tag. */
  peek(identifier: number): boolean {
    return !this.empty && this.buf[this.pos] === identifier;
  }

  /** ReadAnyASN1: the next element whatever its (low-number) tag. */
  readAny(): Tlv | undefined {
    if (this.empty) return undefined;
    let t: Tlv;
    try {
      t = readTlv(this.buf, this.pos, this.end);
    } catch {
      return undefined;
    }
    if (identifierOf(t) === -1) return undefined;
    this.pos = t.end;
    return t;
  }

  /** ReadASN1: the next element, which must carry `identifier`. */
  read(identifier: number): Tlv | undefined {
    return this.peek(identifier) ? this.readAny() : undefined;
  }

  /** ReadOptionalASN1: 'absent' when the next tag is another one (or none), undefined when it does not read. */
  readOptional(identifier: number): Tlv | 'absent' | undefined {
    return this.peek(identifier) ? this.readAny() : 'absent';
  }

  inner(t: Tlv): CryptobyteString {
    return new CryptobyteString(this.buf, t.contentStart, t.end);
  }

  content(t: Tlv): Uint8Array {
    return this.buf.subarray(t.contentStart, t.end);
  }
}
