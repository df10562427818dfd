// The credentials a cloud provider takes besides its key, from the environment the host holds (the
// CLI's, secrets included; the extension host's own): an Entra ID token for Azure, AWS credentials
// for Bedrock. Read only for the provider that uses them.
import { awsCredentialsFrom } from './aws-credentials';
import { cloudSettingsOf, type CloudSettingKey, type CloudSettings } from './cloud-settings';
import type { ProviderKind } from './provider-settings';

export function cloudCredentials(provider: ProviderKind, env: NodeJS.ProcessEnv): Pick<CloudSettings, 'azureAdToken' | 'awsCredentials'> {
  if (provider === 'azure-openai') {
    const token = env.AZURE_OPENAI_AD_TOKEN?.trim();
    return token ? { azureAdToken: token } : {};
  }
  if (provider === 'bedrock') {
    const credentials = awsCredentialsFrom(env);
    return credentials ? { awsCredentials: credentials } : {};
  }
  return {};
}

/** The provider settings' `cloud` part: the effective cloud settings and the credentials in `env`; undefined when there is none. */
export function cloudPart(provider: ProviderKind, values: Partial<Record<CloudSettingKey, string>>, env: NodeJS.ProcessEnv): CloudSettings | undefined {
  const cloud = { ...cloudSettingsOf(values), ...cloudCredentials(provider, env) };
  return Object.keys(cloud).length > 0 ? cloud : undefined;
}
