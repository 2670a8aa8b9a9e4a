// A CSV reader with the exact behaviour of Go's encoding/csv as upstream's tokenfile uses it
// (comma ',', no comment character, FieldsPerRecord -1, strict quotes, no TrimLeadingSpace), so a
// token file means the same thing to plat as to kube-apiserver: "\r\n" ends a line like "\n",
// empty lines are skipped, a line of spaces is a record, '#' starts no comment, quoted fields may
// hold commas, doubled quotes and newlines, and a stray quote is an error. Works on a latin1
// string, one char per byte, so no byte of the file is reinterpreted before the caller decides.

export class CsvError extends Error {
  constructor(readonly startLine: number, readonly line: number, readonly column: number, readonly reason: string) {
    // Go's ParseError.Error() wording.
    super(startLine !== line
      ? `record on line ${startLine}; parse error on line ${line}, column ${column}: ${reason}`
      : `parse error on line ${line}, column ${column}: ${reason}`);
    this.name = 'CsvError';
  }
}

export interface CsvRecord {
  readonly fields: readonly string[];
  /** 1-based line on which the record starts. */
  readonly line: number;
}

const BARE_QUOTE = 'bare " in non-quoted-field';
const QUOTE = 'extraneous or missing " in quoted-field';

/** Splits into lines the way Go's readLine does: each keeps its "\n", "\r\n" becomes "\n". */
function* lines(text: string): Generator<string> {
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    let line: string;
    if (nl < 0) {
      line = text.slice(pos);
      pos = text.length;
      // Go drops a trailing \r before EOF, for backwards compatibility.
      if (line.endsWith('\r')) line = line.slice(0, -1);
    } else {
      line = text.slice(pos, nl + 1);
      pos = nl + 1;
    }
    if (line.endsWith('\r\n')) line = line.slice(0, -2) + '\n';
    yield line;
  }
}

const lengthNL = (s: string): number => (s.endsWith('\n') ? 1 : 0);

export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  const source = lines(text);
  let numLine = 0;
  const next = (): string | undefined => {
    const r = source.next();
    if (r.done) return undefined;
    numLine++;
    return r.value;
  };

  for (;;) {
    let line = next();
    while (line !== undefined && line.length === lengthNL(line) && line.length > 0) line = next();
    if (line === undefined || line.length === 0) return records;

    const recLine = numLine;
    const fields: string[] = [];
    let col = 1;
    let curLine = numLine;
    parseField: for (;;) {
      if (line.length === 0 || line[0] !== '"') {
        const i = line.indexOf(',');
        const field = i >= 0 ? line.slice(0, i) : line.slice(0, line.length - lengthNL(line));
        const q = field.indexOf('"');
        if (q >= 0) throw new CsvError(recLine, numLine, col + q, BARE_QUOTE);
        fields.push(field);
        if (i < 0) break parseField;
        line = line.slice(i + 1);
        col += i + 1;
        continue parseField;
      }
      // Quoted field: may continue over following lines until its closing quote.
      let buf = '';
      line = line.slice(1);
      col += 1;
      for (;;) {
        const i = line.indexOf('"');
        if (i >= 0) {
          buf += line.slice(0, i);
          line = line.slice(i + 1);
          col += i + 1;
          if (line[0] === '"') {
            buf += '"';
            line = line.slice(1);
            col += 1;
          } else if (line[0] === ',') {
            line = line.slice(1);
            col += 1;
            fields.push(buf);
            continue parseField;
          } else if (line.length === lengthNL(line)) {
            fields.push(buf);
            break parseField;
          } else {
            throw new CsvError(recLine, numLine, col - 1, QUOTE);
          }
        } else if (line.length > 0) {
          buf += line;
          col += line.length;
          const more = next();
          if (more === undefined) throw new CsvError(recLine, curLine, col, QUOTE);
          line = more;
          if (line.length > 0) {
            curLine = numLine;
            col = 1;
          }
        } else {
          throw new CsvError(recLine, curLine, col, QUOTE);
        }
      }
    }
    records.push({ fields, line: recLine });
  }
}
