/**
 * The editor's view of text files, where the host has one of its own (an ACP client's `fs/*`
 * methods): a read returns what the editor holds (an unsaved buffer included), a write lands in
 * the editor (which saves it). Either half may be missing: then that half uses the disk. Paths are
 * absolute, and already checked to be the workspace's (or readable) by the tool: the port only
 * carries text. The stat checks (exists, is a file, its size, its freshness) stay on the disk.
 */
export interface EditorFilesPort {
  readText?(path: string): Promise<string>;
  writeText?(path: string, text: string): Promise<void>;
}
