// YAML read as Kubernetes reads it. sigs.k8s.io/yaml converts YAML to JSON through its fork of
// go-yaml v2, which resolves plain scalars by YAML 1.1 (yes/no/on/off and y/n are booleans, 0777 is
// octal; a key `n:` becomes "false") but never as base-60 numbers (`12:30` stays text), and leaves
// timestamps and !!binary as their text. The yaml package's own default is YAML 1.2, where `yes`
// is a string and `0777` is 777: the same manifest would mean something else here than upstream.
import type { DocumentOptions, ParseOptions, SchemaOptions } from 'yaml';

const TEXT_TAGS = new Set(['tag:yaml.org,2002:timestamp', 'tag:yaml.org,2002:binary']);

/** Options for the yaml package's parse, parseDocument and parseAllDocuments. */
export const GO_YAML: ParseOptions & DocumentOptions & SchemaOptions = {
  version: '1.1',
  customTags: (tags) => tags.filter((t) => typeof t === 'string' || !(TEXT_TAGS.has(t.tag) || ('format' in t && t.format === 'TIME'))),
};
