// process.exit once stdout and stderr have handed over what they hold. To a pipe (`plat all --help
// | less`, `plat csr get -o yaml | grep`) Node writes asynchronously, and exit then cut the output
// at the pipe's buffer, 64 KiB: `plat all --help` lost its last 200 lines.

export function exitAfterOutput(code: number): void {
  let pending = 2;
  const done = (): void => { if (--pending === 0) process.exit(code); };
  for (const stream of [process.stdout, process.stderr]) {
    // A reader gone (`| head -1`) fails the write with EPIPE: nothing more to wait for.
    let settled = false;
    const once = (): void => { if (!settled) { settled = true; done(); } };
    stream.once('error', once);
    stream.write('', once);
  }
}
