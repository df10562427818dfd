import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellCommand } from '../process/process-group';
import { quoteShellWord } from '../shell/shell-text';
import { SecretLocations } from '../files/secret-locations';
import { originHost, sandboxPolicy, type SandboxPolicy } from './sandbox-policy';
import { blockedConnectionsOf, sandboxRuntime, type SandboxAvailability, type SandboxRuntimeOptions } from './sandbox-runtime';
import type { SandboxSettings } from '../config/sandbox-settings';
import type { Logger } from '../logger';
import { violationsOf, type SandboxViolation } from './sandbox-violations';

/** Where commands run: `active` (sandboxed), `off` (the user turned it off), `unavailable` (no sandbox can run here). */
export type SandboxStatus =
  | { state: 'active'; policy: SandboxPolicy }
  | { state: 'off' }
  | { state: 'unavailable'; reason: string; fix: string };

/** A command ready to start inside the sandbox. */
export interface SandboxedLaunch {
  /** The line to run with the shell (the sandbox's wrapper around the command). */
  line: string;
  /** Added to the command's environment: its private temp folder. */
  env: Record<string, string>;
  /** Call once when the command has ended: releases its network list, returns what was blocked. */
  finish(output: string): SandboxViolation[];
}

/** The runtime as the sandbox uses it; tests of the fallback give one that is unavailable. */
export interface SandboxRuntimePort {
  availability(): Promise<SandboxAvailability>;
  /** `shown` is the command as the model wrote it (violations name it), `command` what runs, `shell` the program that runs it inside (default: bash). */
  wrap(command: string, policy: SandboxPolicy, id: string, shown: string, shell?: string): Promise<string>;
  violationLines(id: string): string[];
  release(id: string): void;
}

export interface CommandSandboxOptions {
  settings: SandboxSettings;
  workspaceRoot: string;
  home?: string;
  /** The folder's configuration is trusted: its `origin` remote's host is reachable. */
  projectTrusted?: boolean;
  /** The session's folders inside the OpenDev home that commands may read (scratch, skills). */
  readableDirs?: () => readonly string[];
  runtime?: SandboxRuntimePort;
  runtimeOptions?: SandboxRuntimeOptions;
  /** Saves a host to the user's `sandbox.network.allow` (the "always" answer); absent: it holds for the session. */
  rememberHost?: (host: string) => Promise<void>;
  /** Told once when a saved host could not be saved. */
  onWarning?: (message: string) => void;
  /** Availability, blocked writes, reads and hosts, allowed hosts: for the host's log. */
  log?: Logger;
}

/**
 * On Linux the library starts two relays inside the sandbox (the proxy at 127.0.0.1:3128 and SOCKS
 * at :1080) and gives them 0.3 s to listen before the command runs; on a busy machine socat takes
 * longer, and the command's first connection is refused ("Failed to connect to localhost port
 * 3128"). So the command waits until both listen (their LISTEN rows in /proc/net/tcp*, hex ports
 * 0C38 and 0438), within one generous limit of about 10 s. The runtime always restricts the network
 * (its allow list is never absent), so the relays always start. POSIX sh: every shell commands run in.
 */
const RELAYS_UP =
  process.platform === 'linux'
    ? '_od_n=0; while [ "$_od_n" -lt 400 ] && ! { grep -qs \':0C38 [0-9A-F]*:[0-9A-F]* 0A\' /proc/net/tcp /proc/net/tcp6 && grep -qs \':0438 [0-9A-F]*:[0-9A-F]* 0A\' /proc/net/tcp /proc/net/tcp6; }; do sleep 0.025; _od_n=$((_od_n + 1)); done; unset _od_n; '
    : '';

/** How many violations /sandbox keeps for the session. */
const MAX_KEPT = 200;

/**
 * The sandbox of one session: its policy (rebuilt per command, so a cache folder made since or a
 * host allowed a moment ago counts), its private temp folder, and what it blocked.
 */
export class CommandSandbox {
  private readonly home: string;
  private readonly runtime: SandboxRuntimePort;
  private readonly sessionHosts = new Set<string>();
  private readonly log: SandboxViolation[] = [];
  private tempDir: string | undefined;
  private known: SandboxStatus | undefined;

  constructor(private readonly options: CommandSandboxOptions) {
    this.home = options.home ?? homedir();
    this.runtime = options.runtime ?? libraryRuntime(options.runtimeOptions);
  }

  get settings(): SandboxSettings {
    return this.options.settings;
  }

  /**
   * The status once it has been looked up (the first command or `status()`); undefined before.
   * Off needs no lookup: it is known from the start (a view never shows "starting" for it).
   */
  get knownStatus(): SandboxStatus | undefined {
    return this.known ?? (this.options.settings.enabled ? undefined : { state: 'off' });
  }

  /** Whether commands run sandboxed, without building the policy: the approval step asks this for every command. */
  async active(): Promise<boolean> {
    return this.options.settings.enabled && (await this.runtime.availability()).available;
  }

  async status(): Promise<SandboxStatus> {
    if (!this.options.settings.enabled) return (this.known = { state: 'off' });
    const availability = await this.runtime.availability();
    const before = this.known?.state;
    this.known = availability.available ? { state: 'active', policy: this.policy() } : { state: 'unavailable', reason: availability.reason, fix: availability.fix };
    if (before !== this.known.state) this.options.log?.info('sandbox: status', { state: this.known.state, reason: availability.available ? undefined : availability.reason });
    return this.known;
  }

  /** The policy a command started now runs under. */
  policy(): SandboxPolicy {
    this.tempDir ??= mkdtempSync(join(tmpdir(), 'opendev-cmd-'));
    return sandboxPolicy({
      settings: this.options.settings,
      workspaceRoot: this.options.workspaceRoot,
      home: this.home,
      tempDir: this.tempDir,
      secretRoots: new SecretLocations({ home: this.home, workspace: this.options.workspaceRoot }).paths(),
      readableDirs: this.options.readableDirs?.() ?? [],
      sessionHosts: [...this.sessionHosts],
      ...(this.options.projectTrusted ? { gitHost: originHost(this.options.workspaceRoot) } : {}),
    });
  }

  /**
   * Wraps a command; undefined when it cannot run sandboxed (off or unavailable: the caller runs it
   * as before). `shell` runs it inside (the session's, with the environment its profile set up,
   * which passes through the wrapper as the command's environment: nothing is read or written for it).
   */
  async wrap(command: string, cwd: string, shell?: string): Promise<SandboxedLaunch | undefined> {
    const status = await this.status();
    if (status.state !== 'active') return undefined;
    const policy = status.policy;
    // The proxy tells commands apart by this id alone: it must not be guessable (128 bits).
    const id = randomBytes(16).toString('base64url');
    // The wrapper points TMPDIR at a folder of its own: the session's private one wins inside. It
    // also sends localhost past the proxy, where nothing answers (each command has its own network):
    // through the proxy, a local server the user allowed (127.0.0.1:3000) can be reached.
    const temp = quoteShellWord(this.tempDir!);
    const line = await this.runtime.wrap(`${RELAYS_UP}export TMPDIR=${temp} TMP=${temp} TEMP=${temp}; unset no_proxy NO_PROXY; ${command}`, policy, id, command, shell);
    let finished = false;
    return {
      line,
      env: { TMPDIR: this.tempDir!, TMP: this.tempDir!, TEMP: this.tempDir! },
      finish: (output) => {
        if (finished) return [];
        finished = true;
        const blocked = blockedConnectionsOf(this.runtime.violationLines(id));
        this.runtime.release(id);
        const found = violationsOf(output, { policy, cwd, home: this.home, blocked }).map((v) => ({ ...v, command: command.length > 120 ? `${command.slice(0, 119)}…` : command }));
        this.log.push(...found);
        for (const v of found) this.options.log?.warn('sandbox: blocked', { kind: v.kind, target: v.target, why: v.why, command: v.command });
        if (this.log.length > MAX_KEPT) this.log.splice(0, this.log.length - MAX_KEPT);
        return found;
      },
    };
  }

  /** The answer to a blocked host: for this session, or always (saved in the user's settings). */
  async allowHost(host: string, scope: 'session' | 'always'): Promise<void> {
    this.sessionHosts.add(host);
    this.options.log?.info('sandbox: host allowed', { host, scope });
    if (scope !== 'always') return;
    if (!this.options.rememberHost) {
      this.options.onWarning?.(`${host} is allowed for this session; to allow it always, add it to sandbox.network.allow.`);
      return;
    }
    await this.options.rememberHost(host).catch((err: Error) => this.options.onWarning?.(`Could not save ${host} to sandbox.network.allow: ${err.message}. It is allowed for this session.`));
  }

  get hostsAllowedThisSession(): readonly string[] {
    return [...this.sessionHosts];
  }

  /** What the sandbox blocked in this session, oldest first. */
  get violations(): readonly SandboxViolation[] {
    return this.log;
  }

  dispose(): void {
    if (this.tempDir) rmSync(this.tempDir, { recursive: true, force: true });
    this.tempDir = undefined;
  }
}

/** The real runtime: the library's manager, one per process. */
function libraryRuntime(options: SandboxRuntimeOptions = {}): SandboxRuntimePort {
  let running = 0;
  let started: Awaited<ReturnType<typeof sandboxRuntime>>['manager'] | undefined;
  const runtime = async () => {
    const r = await sandboxRuntime(options);
    started = r.manager;
    return r;
  };
  return {
    availability: async () => (await runtime()).availability,
    async wrap(command, policy, id, shown, shell) {
      const { manager } = await runtime();
      manager.registerCommandNetworkLists(id, { allowedDomains: policy.network });
      running++;
      try {
        return await manager.wrapWithSandbox(command, shell ?? shellCommand('').file, {
          filesystem: { allowWrite: policy.writable, denyWrite: policy.readOnly, denyRead: policy.unreadable, allowRead: policy.readable },
        }, undefined, { commandId: id, commandText: shown });
      } catch (err) {
        running--;
        manager.unregisterCommandNetworkLists(id);
        throw err;
      }
    },
    violationLines: (id) => started?.getSandboxViolationStore().getViolationsForCommand(id).map((v) => v.line) ?? [],
    release(id) {
      started?.unregisterCommandNetworkLists(id);
      // The placeholders the wrapper made for protected paths that do not exist go once no sandboxed command runs.
      if (--running === 0) started?.cleanupAfterCommand();
    },
  };
}
