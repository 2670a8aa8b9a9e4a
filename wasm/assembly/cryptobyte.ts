// The reads of Go's cryptobyte that crypto/x509's certificate parser makes, ported from
// core/crypto/cryptobyte.ts: each succeeds or fails (the caller records Go's text), a tag is looked
// at by its first octet only (PeekASN1Tag), and high tag numbers never read. A successful read
// leaves the element in der.ts's tStart/tContent/tEnd.
import { identifier, readTlv, tContent, tEnd } from './der';

export class Cb {
  constructor(public pos: usize, public end: usize) {}

  /** Over the content of the element read last. */
  static inner(): Cb {
    return new Cb(tContent, tEnd);
  }

  get empty(): bool {
    return this.pos >= this.end;
  }

  /** PeekASN1Tag. */
  peek(id: u32): bool {
    return this.pos < this.end && <u32>load<u8>(this.pos) == id;
  }

  /** ReadAnyASN1. */
  readAny(): bool {
    if (this.pos >= this.end || !readTlv(this.pos, this.end) || identifier() == 0xffffffff) return false;
    this.pos = tEnd;
    return true;
  }

  /** ReadASN1 with a tag. */
  read(id: u32): bool {
    return this.peek(id) && this.readAny();
  }

  /** ReadOptionalASN1: 1 read, 0 absent (another tag or none), -1 does not read. */
  readOptional(id: u32): i32 {
    if (!this.peek(id)) return 0;
    return this.readAny() ? 1 : -1;
  }
}
