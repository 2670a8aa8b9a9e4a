// The yaml package, required on first use rather than imported: it is ~70 CommonJS modules, and
// most runs of a command (--help, a flag error, a role with no file to read) parse no YAML.
import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');

let loaded: Yaml | undefined;

export const yaml = (): Yaml => loaded ??= createRequire(import.meta.url)('yaml') as Yaml;
