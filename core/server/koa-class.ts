// Koa, required when an app is made rather than imported: koa and its dependencies are ~100
// CommonJS modules that `plat <role> --help`, a flag error or a refused config never needs.
import { createRequire } from 'node:module';
import type Koa from 'koa';

let loaded: typeof Koa | undefined;

export const koaClass = (): typeof Koa => loaded ??= createRequire(import.meta.url)('koa') as typeof Koa;
