// Which platform and CPU a native binary is built for, from its header: ELF (Linux), Mach-O
// (macOS) or PE (Windows). Packaging for another platform cannot load its binaries, but it can
// read what they are.
import { closeSync, openSync, readSync } from 'node:fs';

const ELF_MACHINES = { 0x3e: 'x64', 0xb7: 'arm64', 0x28: 'arm', 0x03: 'ia32' };
const MACHO_CPUS = { 0x01000007: 'x64', 0x0100000c: 'arm64' };
const PE_MACHINES = { 0x8664: 'x64', 0xaa64: 'arm64', 0x014c: 'ia32' };

/** `{ platform, arch }` of a native binary, or undefined when the file is not one. */
export function binaryFormat(file) {
  const head = Buffer.alloc(4096);
  const fd = openSync(file, 'r');
  let size;
  try {
    size = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (size >= 20 && head.readUInt32BE(0) === 0x7f454c46) return { platform: 'linux', arch: ELF_MACHINES[head.readUInt16LE(18)] ?? 'unknown' };
  if (size >= 8 && head.readUInt32LE(0) === 0xfeedfacf) return { platform: 'darwin', arch: MACHO_CPUS[head.readUInt32LE(4)] ?? 'unknown' };
  if (size >= 8 && head.readUInt32BE(0) === 0xcafebabe) return { platform: 'darwin', arch: 'universal' };
  if (size >= 0x40 && head.toString('latin1', 0, 2) === 'MZ') {
    const pe = head.readUInt32LE(0x3c);
    if (pe + 6 <= size && head.toString('latin1', pe, pe + 4) === 'PE\0\0') return { platform: 'win32', arch: PE_MACHINES[head.readUInt16LE(pe + 4)] ?? 'unknown' };
  }
  return undefined;
}
