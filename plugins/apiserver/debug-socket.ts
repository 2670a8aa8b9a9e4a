// --debug-socket-path for the API server (core/server/debug/debug-socket.ts): opened as the server
// starts to run, before the secure port; a path it cannot serve on refuses start-up.
import type { FlagSet } from '../../core/flags/types.js';
import type { Logger } from '../../core/log.js';
import { StartupError } from '../../core/plugin.js';
import { DEBUG_SOCKET_FLAG, DebugSocketError, listenDebugSocket, type DebugSocket } from '../../core/server/debug/index.js';

export async function startDebugSocket(flags: FlagSet, log: Logger): Promise<DebugSocket | undefined> {
  const socketPath = flags.get<string>(DEBUG_SOCKET_FLAG);
  if (!socketPath) return undefined;
  try {
    return await listenDebugSocket(socketPath, log);
  } catch (e) {
    if (e instanceof DebugSocketError) throw new StartupError(`--${DEBUG_SOCKET_FLAG}: ${e.message}`);
    throw e;
  }
}
