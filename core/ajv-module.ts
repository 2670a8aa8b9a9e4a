// The ajv package, required on first use rather than imported: it is ~60 CommonJS modules, and
// most runs of a command (--help, a flag error, a role that checks no object or file) compile no schema.
import { createRequire } from 'node:module';

type AjvModule = typeof import('ajv');

let loaded: AjvModule | undefined;

export const ajvModule = (): AjvModule => loaded ??= createRequire(import.meta.url)('ajv') as AjvModule;
