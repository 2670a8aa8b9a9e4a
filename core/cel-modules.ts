// @bufbuild/cel, @bufbuild/protobuf and @bufbuild/re2, required on first use rather than imported:
// together ~130 modules that --help, a flag error or a configuration without CEL never needs.
// Every value of these packages is taken from here (elsewhere only `import type`), so one copy of
// each loads: their CommonJS builds, which require each other; an ES module copy beside them would
// split their registries and instanceof checks.
import { createRequire } from 'node:module';

type Cel = typeof import('@bufbuild/cel');
type CelExt = typeof import('@bufbuild/cel/ext');
type Protobuf = typeof import('@bufbuild/protobuf');
type ProtobufWkt = typeof import('@bufbuild/protobuf/wkt');
type Re2 = typeof import('@bufbuild/re2');

const require = createRequire(import.meta.url);

let celLoaded: Cel | undefined;
let celExtLoaded: CelExt | undefined;
let protobufLoaded: Protobuf | undefined;
let protobufWktLoaded: ProtobufWkt | undefined;
let re2Loaded: Re2 | undefined;

export const cel = (): Cel => celLoaded ??= require('@bufbuild/cel') as Cel;
export const celExt = (): CelExt => celExtLoaded ??= require('@bufbuild/cel/ext') as CelExt;
export const protobuf = (): Protobuf => protobufLoaded ??= require('@bufbuild/protobuf') as Protobuf;
export const protobufWkt = (): ProtobufWkt => protobufWktLoaded ??= require('@bufbuild/protobuf/wkt') as ProtobufWkt;
export const re2 = (): Re2 => re2Loaded ??= require('@bufbuild/re2') as Re2;
