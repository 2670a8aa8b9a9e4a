// The moment an answer's status line and headers go out: what must happen then (the audit's
// response code and ResponseStarted, the goaway filter's GOAWAY) wraps the response's writeHead,
// which Node calls once per response (a second call throws), and unwraps it on that call.
import type { ServerResponse } from 'node:http';

/** Runs `fn` with the status, once, just before `res` writes its status line and headers. */
export function beforeHead(res: ServerResponse, fn: (status: number) => void): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    res.writeHead = writeHead;
    fn(args[0]);
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
}
