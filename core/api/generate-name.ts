// A name made from a prefix as the API server makes one for metadata.generateName
// (names.SimpleNameGenerator): five characters from utilrand's alphabet, which leaves out vowels
// and easily confused characters so that no word or look-alike comes out.
const NAME_CHARS = 'bcdfghjklmnpqrstvwxz2456789';
const SUFFIX_LENGTH = 5;

export function randomNameSuffix(n = SUFFIX_LENGTH): string {
  let s = '';
  for (let i = 0; i < n; i++) s += NAME_CHARS[Math.floor(Math.random() * NAME_CHARS.length)];
  return s;
}

export const generatedName = (prefix: string): string => prefix + randomNameSuffix();
