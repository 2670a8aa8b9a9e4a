// encoding/json's isEmptyValue, what an `omitempty` field leaves out and what reflect.DeepEqual
// finds equal to a zero struct field: false, 0, "", nil, and empty lists and maps.
export function isGoEmptyValue(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}
