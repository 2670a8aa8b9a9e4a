// pflag's IP flags (--bind-address, --advertise-address): net.ParseIP of the trimmed text, or
// pflag's error. Blank stays allowed: it means the flag's "unset" (all interfaces, or derived).
import { isIP } from 'node:net';

export const ipFlagProblem = (v: unknown): string | undefined =>
  (v === '' || isIP(String(v).trim()) ? undefined : `failed to parse IP: ${JSON.stringify(v)}`);
