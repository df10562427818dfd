import * as z from 'zod';

/**
 * What the user chose for the OS sandbox commands run in (settings `sandbox.*`, VS Code
 * `opendev.sandbox.*`). A project may only make it stricter until the folder is trusted
 * (config/untrusted-project.ts): turn it on, narrow the network list.
 */
export interface SandboxSettings {
  /** Run commands inside the sandbox where one can run. Default on. */
  enabled: boolean;
  /** Hosts commands may reach: `example.com`, `*.example.com`, `host:port`, `127.0.0.1:8080`. */
  networkAllow: string[];
  /** Folders commands may write besides the workspace, the session's temp folder and the tool caches (`~` allowed). */
  writeAllow: string[];
  /** The project's MCP stdio servers run in the sandbox too. Default on. */
  mcp: boolean;
}

/**
 * The package registries and git hosts a day of ordinary work reaches: installs, fetches and
 * pushes work inside the sandbox, and nothing else is reachable until the user says so.
 */
export const DEFAULT_NETWORK_ALLOW: readonly string[] = [
  // JavaScript
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'repo.yarnpkg.com',
  // Python
  'pypi.org',
  'files.pythonhosted.org',
  // Rust
  'crates.io',
  'index.crates.io',
  'static.crates.io',
  // Go
  'proxy.golang.org',
  'sum.golang.org',
  // Ruby, Java, .NET
  'rubygems.org',
  'index.rubygems.org',
  'repo.maven.apache.org',
  'repo1.maven.org',
  'plugins.gradle.org',
  'services.gradle.org',
  'api.nuget.org',
  // git hosts
  'github.com',
  'codeload.github.com',
  'objects.githubusercontent.com',
  'raw.githubusercontent.com',
  'gitlab.com',
  'bitbucket.org',
];

export const DEFAULT_SANDBOX_SETTINGS: Readonly<SandboxSettings> = {
  enabled: true,
  networkAllow: [...DEFAULT_NETWORK_ALLOW],
  writeAllow: [],
  mcp: true,
};

/**
 * One entry of `sandbox.network.allow`: a host name (a leading `*.` for its subdomains), an IPv4
 * address or a bracketed IPv6 one, and an optional `:port`. No scheme, path or bare `*`: a list
 * that allows everything is `sandbox.enabled: false`, said plainly.
 */
export const NETWORK_HOST_ENTRY = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::\d{1,5})?$|^\[[0-9a-f:.]+\](?::\d{1,5})?$/, 'a host such as example.com, *.example.com or 127.0.0.1:8080');

/** The sandbox settings of the merged setting values (flat keys `sandbox.*`), defaults filling the rest. */
export function sandboxSettingsOf(values: {
  'sandbox.enabled'?: boolean;
  'sandbox.network.allow'?: string[];
  'sandbox.write.allow'?: string[];
  'sandbox.mcp'?: boolean;
}): SandboxSettings {
  return {
    enabled: values['sandbox.enabled'] ?? DEFAULT_SANDBOX_SETTINGS.enabled,
    networkAllow: [...(values['sandbox.network.allow'] ?? DEFAULT_SANDBOX_SETTINGS.networkAllow)],
    writeAllow: [...(values['sandbox.write.allow'] ?? DEFAULT_SANDBOX_SETTINGS.writeAllow)],
    mcp: values['sandbox.mcp'] ?? DEFAULT_SANDBOX_SETTINGS.mcp,
  };
}
