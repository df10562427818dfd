import { describeSandbox } from '../sandbox/sandbox-notice';
import type { SlashCommand } from './command-registry';

/** /sandbox: where commands run, the policy they run under, and what it blocked in this session. */
export const sandboxCommand: SlashCommand = {
  name: 'sandbox',
  summary: 'Show the command sandbox: its policy and what it blocked',
  usage: '/sandbox',
  whileRunning: true,
  async run(_args, ctx) {
    const sandbox = ctx.agent.sandbox;
    if (!sandbox) return { output: 'This session has no command sandbox: commands run with your full access, judged by their text.' };
    const status = await sandbox.status();
    return { output: describeSandbox(status, { violations: sandbox.violations, sessionHosts: sandbox.hostsAllowedThisSession }) };
  },
};
