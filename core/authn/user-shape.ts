// What an authenticator's answer must be. Go's types keep upstream's authenticators from answering
// anything but a user.Info; a plugin's JavaScript can answer anything, and a user without groups
// or with a number for a name failed every later step as a 500 "panic" that named no plugin, while
// groups given as one string were split into a group per character.
import type { UserInfo } from './user.js';

const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** Why `answer` is not a user (its values are not quoted: they may hold credentials), or undefined. */
export function userInfoProblem(answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return `answered ${kind(answer)}, not a user ({ name, uid?, groups?, extra? })`;
  const u = answer as Record<string, unknown>;
  if (typeof u['name'] !== 'string' || u['name'] === '') return `answered a user whose name is ${typeof u['name'] === 'string' ? 'empty' : kind(u['name'])}, not a non-empty string`;
  if (u['uid'] !== undefined && typeof u['uid'] !== 'string') return `answered a user whose uid is ${kind(u['uid'])}, not a string`;
  if (u['groups'] !== undefined && !isStrings(u['groups'])) return `answered a user whose groups are ${kind(u['groups'])}, not a list of strings`;
  const extra = u['extra'];
  if (extra !== undefined) {
    if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) return `answered a user whose extra is ${kind(extra)}, not an object of string lists`;
    for (const [k, v] of Object.entries(extra)) if (!isStrings(v)) return `answered a user whose extra ${JSON.stringify(k)} is ${kind(v)}, not a list of strings`;
  }
  return undefined;
}

/** A well-formed answer as plat's later steps read it: groups default to none. */
export const asUserInfo = (answer: Record<string, unknown>): UserInfo =>
  (answer['groups'] === undefined ? { ...answer, groups: [] } : answer) as unknown as UserInfo;
