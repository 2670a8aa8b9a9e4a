// YAML read as Kubernetes reads it. sigs.k8s.io/yaml converts YAML to JSON through its fork of
// go-yaml v2, which resolves plain scalars by YAML 1.1 (yes/no/on/off and y/n are booleans, 0777 is
// octal; a key `n:` becomes "false") but never as base-60 numbers (`12:30` stays text), and leaves
// timestamps and !!binary as their text. The yaml package's own default is YAML 1.2, where `yes`
// is a string and `0777` is 777: the same manifest would mean something else here than upstream.
// Floats are go-yaml's resolve(): a scalar is one only when its first byte hints at a number and
// Go parses it; the yaml package's YAML 1.1 floats also take `e1`, `.`, `-.` and `._` (as NaN),
// which upstream keeps as text, so a Lease held by `e1` would be refused.
import type { DocumentOptions, ParseOptions, SchemaOptions, ScalarTag } from 'yaml';

const TEXT_TAGS = new Set(['tag:yaml.org,2002:timestamp', 'tag:yaml.org,2002:binary']);
const FLOAT_TAG = 'tag:yaml.org,2002:float';
const INT_TAG = 'tag:yaml.org,2002:int';

/** go-yaml's yamlStyleFloat, matched once underscores are dropped, after a sign or digit. */
const YAML_STYLE_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
/** strconv.ParseFloat of a scalar that starts with '.' (no underscores without a base prefix). */
const DOT_FLOAT = /^\.[0-9]+(?:[eE][-+]?[0-9]+)?$/;

/** Whether go-yaml v2 resolves a plain scalar (not an int, not .inf/.nan) as a float. */
export function isGoYamlFloat(s: string): boolean {
  if (s.startsWith('.')) return DOT_FLOAT.test(s);
  return /^[-+0-9]/.test(s) && YAML_STYLE_FLOAT.test(s.replace(/_/g, ''));
}

const asTest = (f: (s: string) => boolean): RegExp => ({ test: f }) as unknown as RegExp;

/** go's strconv.ParseInt(plain, 0, 64) reads 0o17 as octal too. */
const goOctal: ScalarTag = {
  identify: (v) => typeof v === 'number' && Number.isInteger(v),
  default: true,
  tag: INT_TAG,
  format: 'OCT',
  test: /^[-+]?0o[0-7_]+$/,
  resolve: (str) => {
    const sign = str.startsWith('-') ? -1 : 1;
    return sign * parseInt(str.replace(/^[-+]?0o/, '').replace(/_/g, ''), 8);
  },
};

function goFloats(tags: ScalarTag[]): ScalarTag[] {
  const out: ScalarTag[] = [];
  let replaced = false;
  for (const t of tags) {
    // The .inf/.nan forms are the same in both; the other two float tags become go-yaml's one.
    const isNumberFloat = t.tag === FLOAT_TAG && !(t.test?.test('.nan') ?? false);
    if (!isNumberFloat) { out.push(t); continue; }
    if (replaced) continue;
    replaced = true;
    const { format: _exp, ...float } = t;
    out.push({ ...float, test: asTest(isGoYamlFloat), resolve: (str: string) => parseFloat(str.replace(/_/g, '')) }, goOctal);
  }
  return out;
}

/** Options for the yaml package's parse, parseDocument and parseAllDocuments. */
export const GO_YAML: ParseOptions & DocumentOptions & SchemaOptions = {
  version: '1.1',
  customTags: (tags) => goFloats(tags.filter((t) => typeof t === 'string' || !(TEXT_TAGS.has(t.tag) || ('format' in t && t.format === 'TIME'))) as ScalarTag[]),
};
