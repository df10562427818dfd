// The user's answers "Always" to "Start MCP server <name> from <project file>?", kept in
// OPENDEV_HOME/mcp-trust.json (the user's, never the project's: a repository cannot trust itself).
// A record names the workspace, the server and a hash of what would run (command, arguments, the
// names of its environment variables, working folder; or URL and header names), so a definition
// that changes asks again. A broken file is reported, trusts nothing and is never overwritten.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import * as z from 'zod';
import { readRecordFile, updateRecordFile } from '../trust/json-record-file';
import { trustedWorkspaceKey } from '../trust/trust-store';
import type { McpServerConfig } from './mcp-types';

// This file's schemas are built on their first parse (z.lazy): a start-up that reads none of its records does not pay for them.
const TrustRecordSchema = z.lazy(() => z.object({
  /** The workspace folder (resolved, symbolic links followed). */
  workspace: z.string().min(1),
  server: z.string().min(1),
  /** sha256 of serverDefinition(config). */
  hash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 in hex'),
  /** What was trusted, for a person reading the file. */
  definition: z.string().optional(),
  trustedAt: z.string().optional(),
}));
const TrustFileSchema = z.lazy(() => z.object({ version: z.literal(1), trusted: z.array(TrustRecordSchema) }));

export type TrustRecord = z.infer<typeof TrustRecordSchema>;
export type TrustFileRead = { status: 'ok'; records: TrustRecord[] } | { status: 'broken'; problem: string };
export interface TrustKey {
  workspace: string;
  server: string;
  hash: string;
}

export function trustFile(home: string): string {
  return join(home, 'mcp-trust.json');
}

/** The workspace as records name it: absolute, symbolic links followed (the CLI and VS Code may reach it by different paths). */
export function trustWorkspace(workspaceRoot: string): string {
  return trustedWorkspaceKey(workspaceRoot);
}

/** What a server runs, as hashed and as shown in the question: secrets (environment and header values) are left out. */
export function serverDefinition(config: McpServerConfig): Record<string, unknown> {
  if ('command' in config) {
    return { command: config.command, args: config.args ?? [], env: Object.keys(config.env ?? {}).sort(), ...(config.cwd ? { cwd: config.cwd } : {}) };
  }
  return { type: config.type ?? 'http', url: config.url, headers: Object.keys(config.headers ?? {}).sort() };
}

export function definitionHash(config: McpServerConfig): string {
  return createHash('sha256').update(JSON.stringify(serverDefinition(config))).digest('hex');
}

/** `node server.js --port 3000` (words with spaces or quotes quoted), or the URL. */
export function commandLine(config: McpServerConfig): string {
  if (!('command' in config)) return config.url;
  const quote = (word: string) => (/^[\w@%+=:,./~-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
  return [config.command, ...(config.args ?? [])].map(quote).join(' ');
}

export function readTrustFile(file: string): TrustFileRead {
  const read = readRecordFile(file, TrustFileSchema, () => ({ version: 1 as const, trusted: [] }));
  return read.status === 'ok' ? { status: 'ok', records: read.data.trusted } : read;
}

export function isTrusted(records: readonly TrustRecord[], key: TrustKey): boolean {
  return records.some((r) => r.workspace === key.workspace && r.server === key.server && r.hash === key.hash);
}

/**
 * Adds a record (replacing the server's older ones in that workspace): re-read under a lock, written
 * atomically. Resolves to the problem in words when it could not be saved; the file is then as it was.
 */
export function rememberTrust(file: string, key: TrustKey, definition: string): Promise<string | undefined> {
  return update(file, (records) => [
    ...records.filter((r) => !(r.workspace === key.workspace && r.server === key.server)),
    { ...key, definition, trustedAt: new Date().toISOString() },
  ]);
}

/** Removes every record of the server in the workspace; resolves to the problem in words, if any. */
export function forgetTrust(file: string, workspace: string, server: string): Promise<string | undefined> {
  return update(file, (records) => records.filter((r) => !(r.workspace === workspace && r.server === server)));
}

function update(file: string, change: (records: TrustRecord[]) => TrustRecord[]): Promise<string | undefined> {
  return updateRecordFile(file, TrustFileSchema, () => ({ version: 1 as const, trusted: [] }), (data) => ({ version: 1 as const, trusted: change(data.trusted) }));
}
