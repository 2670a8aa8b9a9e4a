// --strict-transport-security-directives, as upstream's WithHSTS: every answer from inside the
// chain (a 401, a 404, a 504 included) carries `Strict-Transport-Security` with the directives
// joined by "; ", unless its handler set its own. It sits inside WithRetryAfter, so the shutdown 429
// goes without it. The header is set before the handler runs, as upstream's is.
import type Koa from 'koa';

export const HSTS_FLAG = 'strict-transport-security-directives';
const HEADER = 'Strict-Transport-Security';

/** ServerRunOptions.Validate's validateHSTSDirectives (RFC 6797 6.1): its problems, in its words. */
export function hstsDirectivesProblems(directives: readonly string[]): string[] {
  const problems: string[] = [];
  for (const directive of directives) {
    if (directive.trim() === '') {
      problems.push('empty value in strict-transport-security-directives');
      continue;
    }
    if (directive === 'includeSubDomains' || directive === 'preload') continue;
    // strings.Split on "=": `max-age=` passes, as any value after it does.
    const parts = directive.split('=');
    if (parts.length !== 2 || parts[0] !== 'max-age') {
      problems.push('--strict-transport-security-directives invalid, allowed values: max-age=expireTime, includeSubDomains, preload. see https://tools.ietf.org/html/rfc6797#section-6.1 for more information');
    }
  }
  return problems;
}

/** The filter, or undefined when no directives are given (upstream installs none then). */
export function withHsts(directives: readonly string[]): Koa.Middleware | undefined {
  if (directives.length === 0) return undefined;
  const value = directives.join('; ');
  return async (ctx, next) => {
    if (!ctx.res.hasHeader(HEADER)) ctx.set(HEADER, value);
    await next();
  };
}
