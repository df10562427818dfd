// What the editor on the other end of the connection offers the agent as its host: its terminal
// view of our own commands (the tool call's content), and, when it advertises them, its text
// files (fs/read_text_file, fs/write_text_file: its buffers, unsaved changes included) and its
// terminals (terminal/*: commands run where the user watches them). The ports are made before the
// agent exists; the session id and the running turn join once they do.
import type { AgentContext, ClientCapabilities } from '@agentclientprotocol/sdk';
import type { CommandTerminalPort, HostPorts } from '../core/host';
import type { AcpTurnUI } from './acp-turn-ui';
import { clientFiles } from './client-files';
import { clientCommandRunner } from './client-terminal';

export class ClientHost implements CommandTerminalPort {
  /** The ACP session the client's methods are called for: set once the agent is built. */
  sessionId: string | undefined;
  /** The turn running now: a command's output and terminal go to its tool call. */
  ui: AcpTurnUI | undefined;

  constructor(
    private readonly client: AgentContext,
    private readonly capabilities: ClientCapabilities | undefined,
    /** The environment `opendev acp` started with (keys included): the user's shell, and which variables are secret. */
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** The host ports this client offers (the files and the terminal only when it advertised them). */
  ports(): Pick<HostPorts, 'terminal' | 'files' | 'commandRunner'> {
    const files = clientFiles(this.client, () => this.session(), this.capabilities?.fs);
    const runner = this.capabilities?.terminal === true ? clientCommandRunner(this.client, this, this.env) : undefined;
    return { terminal: this, ...(files ? { files } : {}), ...(runner ? { commandRunner: runner } : {}) };
  }

  session(): string {
    if (!this.sessionId) throw new Error('the ACP session is not ready yet');
    return this.sessionId;
  }

  showCommand(info: { command: string }) {
    return this.ui?.commandView(info.command) ?? { write() {}, end() {} };
  }

  showBackgroundTask() {
    return { write() {}, end() {} };
  }
}
