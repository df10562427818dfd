// What the user has trusted, kept in OPENDEV_HOME/trust.json — the user's file, never the project's,
// so a repository cannot trust itself:
//   workspaces  a folder's configuration, by its real path and the exact content of each source
//   endpoints   "send my <provider> key to <url>" answers, for endpoints a trusted project chose
// MCP servers keep their own per-server answers (mcp-trust.json); a trusted folder counts for them too.
import { join } from 'node:path';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import * as z from 'zod';
import { readRecordFile, updateRecordFile, type RecordFileRead } from './json-record-file';
import type { ProjectFingerprint } from './project-files';

const WorkspaceRecordSchema = z.object({
  /** The folder, absolute with symbolic links followed. */
  workspace: z.string().min(1),
  /** Per source, sha256 of the content trusted (or "absent"). */
  sources: z.record(z.string(), z.string()),
  trustedAt: z.string().optional(),
});
const EndpointRecordSchema = z.object({
  provider: z.string().min(1),
  /** The endpoint as configured, normalised (see endpointKey). */
  baseUrl: z.string().min(1),
  confirmedAt: z.string().optional(),
});
const TrustFileSchema = z.object({
  version: z.literal(1),
  workspaces: z.array(WorkspaceRecordSchema).default([]),
  endpoints: z.array(EndpointRecordSchema).default([]),
});

export type TrustFile = z.infer<typeof TrustFileSchema>;
export type WorkspaceRecord = z.infer<typeof WorkspaceRecordSchema>;

const empty = (): TrustFile => ({ version: 1, workspaces: [], endpoints: [] });

export function trustFilePath(home: string): string {
  return join(home, 'trust.json');
}

/** The workspace as records name it (the CLI and VS Code may reach one folder by different paths). */
export function trustedWorkspaceKey(workspaceRoot: string): string {
  const absolute = resolve(workspaceRoot);
  try {
    return realpathSync.native(absolute);
  } catch {
    return absolute;
  }
}

/** `http://Host:80/v1/` and `http://host/v1` are one endpoint. */
export function endpointKey(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`.toLowerCase();
  } catch {
    return baseUrl.trim().replace(/\/+$/, '').toLowerCase();
  }
}

export function readTrust(home: string): RecordFileRead<TrustFile> {
  return readRecordFile(trustFilePath(home), TrustFileSchema, empty);
}

export function workspaceRecord(file: TrustFile, workspaceRoot: string): WorkspaceRecord | undefined {
  const key = trustedWorkspaceKey(workspaceRoot);
  return file.workspaces.find((w) => w.workspace === key);
}

export function isEndpointConfirmed(file: TrustFile, provider: string, baseUrl: string): boolean {
  const key = endpointKey(baseUrl);
  return file.endpoints.some((e) => e.provider === provider && e.baseUrl === key);
}

/** Whether the user confirmed sending `provider`'s key to `baseUrl`, as trust.json says now (a broken file confirms nothing). */
export function endpointConfirmation(home: string): (provider: string, baseUrl: string) => boolean {
  const read = readTrust(home);
  return (provider, baseUrl) => read.status === 'ok' && isEndpointConfirmed(read.data, provider, baseUrl);
}

/** Trusts the workspace's configuration as it is now (replacing an older record of the folder). */
export function rememberWorkspace(home: string, workspaceRoot: string, sources: ProjectFingerprint): Promise<string | undefined> {
  const key = trustedWorkspaceKey(workspaceRoot);
  return change(home, (file) => ({
    ...file,
    workspaces: [...file.workspaces.filter((w) => w.workspace !== key), { workspace: key, sources, trustedAt: new Date().toISOString() }],
  }));
}

export function forgetWorkspace(home: string, workspaceRoot: string): Promise<string | undefined> {
  const key = trustedWorkspaceKey(workspaceRoot);
  return change(home, (file) => ({ ...file, workspaces: file.workspaces.filter((w) => w.workspace !== key) }));
}

export function confirmEndpoint(home: string, provider: string, baseUrl: string): Promise<string | undefined> {
  const key = endpointKey(baseUrl);
  return change(home, (file) =>
    isEndpointConfirmed(file, provider, baseUrl) ? file : { ...file, endpoints: [...file.endpoints, { provider, baseUrl: key, confirmedAt: new Date().toISOString() }] },
  );
}

function change(home: string, fn: (file: TrustFile) => TrustFile): Promise<string | undefined> {
  return updateRecordFile(trustFilePath(home), TrustFileSchema, empty, fn);
}
