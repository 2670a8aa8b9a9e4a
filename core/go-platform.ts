// Go's runtime.GOOS and runtime.GOARCH names for Node's process.platform and process.arch: what
// version.Info's Platform, the User-Agent, the node's platform labels and nodeInfo carry.
const GOARCH: Readonly<Record<string, string>> = { x64: 'amd64', ia32: '386', arm: 'arm', arm64: 'arm64', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64', loong64: 'loong64', mips: 'mips', mipsel: 'mipsle' };
const GOOS: Readonly<Record<string, string>> = { win32: 'windows', sunos: 'solaris' };

export const goOs = (platform: string): string => GOOS[platform] ?? platform;
export const goArch = (arch: string): string => GOARCH[arch] ?? arch;

/** `<GOOS>/<GOARCH>` of this process. */
export const goPlatform = (): string => `${goOs(process.platform)}/${goArch(process.arch)}`;
