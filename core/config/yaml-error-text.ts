// The yaml package's pretty error (`... at line 3, column 1:` then the source quoted below it) as
// one line for a start-up message: the quoted source cannot be shown there, and a line ending in
// a colon that introduces nothing reads as cut off.

export function yamlErrorText(e: unknown): string {
  const first = (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
  return first.replace(/:\s*$/, '');
}
