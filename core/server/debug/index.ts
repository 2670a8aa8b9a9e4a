export { DEFAULT_PROFILE_SECONDS, MAX_PROFILE_SECONDS, PPROF_PREFIX, profileSeconds, servePprof } from './pprof.js';
export { ProfilerBusyError, v8Profiler } from './v8-profiler.js';
export { parseInt32, serveDebugFlagV } from './debug-flags.js';
export { PROFILING_FLAG, profilingFlags, serveDebug } from './routes.js';
export { DEBUG_SOCKET_FLAG, DebugSocketError, listenDebugSocket, type DebugSocket } from './debug-socket.js';
