// --cors-allowed-origins, as upstream's WithCORS with DefaultBuildHandlerChain's arguments (default
// methods, headers and exposed headers; credentials allowed): a request whose Origin matches one of
// the expressions gets the Access-Control-* headers, and a preflight (OPTIONS) from it is answered
// 204 here, before authentication. Others pass through untouched. The expressions are Go's regexp
// syntax, searched unanchored as Go's MatchString does, so RE2 (core/cel-modules.ts) runs them.
import type Koa from 'koa';
import { goHeaderText } from '../authn/identity-headers.js';
import { re2 } from '../cel-modules.js';

export const CORS_FLAG = 'cors-allowed-origins';

const HELP_TEXT = 'List of allowed origins for CORS, comma separated. '
  + 'An allowed origin can be a regular expression to support subdomain matching. '
  + 'If this list is empty CORS will not be enabled. '
  + 'Please ensure each expression matches the entire hostname by anchoring '
  + "to the start with '^' or including the '//' prefix, and by anchoring to the "
  + "end with '$' or including the ':' port separator suffix. "
  + "Examples of valid expressions are '//example\\.com(:|$)' and '^https://example\\.com(:|$)'";

const ALLOW_METHODS = ['POST', 'GET', 'OPTIONS', 'PUT', 'DELETE', 'PATCH'].join(', ');
const ALLOW_HEADERS = ['Content-Type', 'Content-Length', 'Accept-Encoding', 'X-CSRF-Token', 'Authorization', 'X-Requested-With', 'If-Modified-Since'].join(', ');
const EXPOSE_HEADERS = 'Date';

/** regexp.Compile's error text (Go's words: RE2's port keeps them), or undefined. */
function compileProblem(expression: string): string | undefined {
  try {
    re2().RE2JS.compile(expression);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * ServerRunOptions.Validate's validateCorsAllowedOriginList: each expression compiles and holds
 * a marker pinning it to the host's start (`^`, `//`) and end (`$`, `:`) anywhere in it, as
 * upstream checks since CVE-2022-1996 (no more than that: `(^foo.com$)` passes).
 */
export function corsAllowedOriginsProblems(expressions: readonly string[]): string[] {
  const problems: string[] = [];
  for (const expression of expressions) {
    if (expression === '') {
      problems.push(`empty value in --cors-allowed-origins, help: ${HELP_TEXT}`);
      continue;
    }
    const pinned = ['^', '//'].some((p) => expression.includes(p)) && ['$', ':'].some((s) => expression.includes(s));
    const problem = compileProblem(expression) ?? (pinned ? undefined : 'regular expression does not pin to start/end of host in the origin header');
    if (problem !== undefined) problems.push(`--cors-allowed-origins has an invalid regular expression: ${problem}, help: ${HELP_TEXT}`);
  }
  return problems;
}

/** The filter, or undefined when the list is empty (upstream installs none then). Expressions are validated first. */
export function withCors(expressions: readonly string[]): Koa.Middleware | undefined {
  if (expressions.length === 0) return undefined;
  const patterns = expressions.map((e) => re2().RE2JS.compile(e));
  return async (ctx, next) => {
    // Header.Get: the first Origin line (Node's `headers` joins repeated ones with ", "); matched
    // as the UTF-8 text Go's regexp reads, echoed as the bytes that came.
    const origin = ctx.req.rawHeaders.find((_, i, raw) => i % 2 === 1 && raw[i - 1]!.toLowerCase() === 'origin') ?? '';
    if (origin === '' || !patterns.some((p) => p.test(goHeaderText(origin)))) return next();
    ctx.set('Access-Control-Allow-Origin', origin);
    ctx.set('Access-Control-Allow-Methods', ALLOW_METHODS);
    ctx.set('Access-Control-Allow-Headers', ALLOW_HEADERS);
    ctx.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    ctx.set('Access-Control-Allow-Credentials', 'true');
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      return;
    }
    await next();
  };
}
