// Parameter blocks passed in from JS carry (offset, length) pairs relative to the block; field()
// reads one, bounds-checks it against the block, and leaves it in fPtr/fLen.
export let fPtr: usize = 0;
export let fLen: usize = 0;

export function field(params: usize, paramsLen: usize, at: usize): bool {
  const off = <usize>load<u32>(params + at);
  const len = <usize>load<u32>(params + at + 4);
  if (off > paramsLen || len > paramsLen - off) return false;
  fPtr = params + off;
  fLen = len;
  return true;
}
