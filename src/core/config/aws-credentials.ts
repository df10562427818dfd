// AWS credentials for Bedrock, found where the AWS CLI finds static ones: the environment
// (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), else the profile (AWS_PROFILE, else
// `default`) of the shared credentials file (AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/credentials).
// Read by the hosts and handed to the Bedrock client, because the CLI takes the secret variables out
// of process.env at start (child-env.ts), where the SDK's own chain would look for them. Profiles
// that need a login flow (SSO, a role to assume) are left to the SDK's credential chain.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AwsCredentials } from './cloud-settings';

export function awsCredentialsFrom(env: NodeJS.ProcessEnv, read: (file: string) => string = (file) => readFileSync(file, 'utf8')): AwsCredentials | undefined {
  const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim();
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim();
  if (accessKeyId && secretAccessKey) {
    const sessionToken = env.AWS_SESSION_TOKEN?.trim();
    return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
  }
  const file = env.AWS_SHARED_CREDENTIALS_FILE?.trim() || join(env.HOME || homedir(), '.aws', 'credentials');
  let text: string;
  try {
    text = read(file);
  } catch {
    return undefined; // no file: no static profile
  }
  const profile = parseIniSection(text, env.AWS_PROFILE?.trim() || 'default');
  const id = profile.aws_access_key_id;
  const secret = profile.aws_secret_access_key;
  if (!id || !secret) return undefined;
  return { accessKeyId: id, secretAccessKey: secret, ...(profile.aws_session_token ? { sessionToken: profile.aws_session_token } : {}) };
}

/** The `key = value` lines of `[section]` in an INI file (comments with # or ;), keys lower-cased. */
function parseIniSection(text: string, section: string): Record<string, string> {
  const out: Record<string, string> = {};
  let inside = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*(.+?)\s*\]$/.exec(line);
    if (header) {
      inside = header[1] === section;
      continue;
    }
    const pair = /^([^=]+?)\s*=\s*(.*)$/.exec(line);
    if (inside && pair) out[pair[1]!.toLowerCase()] = pair[2]!.trim();
  }
  return out;
}
