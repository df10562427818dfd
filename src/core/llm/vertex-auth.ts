// How the Vertex client gets its Authorization header: an access token the user gave (Secret Storage
// or GOOGLE_OAUTH_ACCESS_TOKEN), else Application Default Credentials through google-auth-library
// (gcloud auth application-default login, GOOGLE_APPLICATION_CREDENTIALS, the metadata server),
// loaded only then. The Vertex SDK asks an `AuthClient` for its request headers on each call.
import { googleAuthLibrary } from '../lazy-libraries';

/** The part of google-auth-library's AuthClient the Vertex client uses. */
export interface VertexAuthClient {
  projectId?: string | null;
  getRequestHeaders(): Promise<Headers>;
}

const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

export function vertexAuthClient(accessToken: string | undefined): Promise<VertexAuthClient> {
  if (accessToken) {
    return Promise.resolve({ projectId: null, getRequestHeaders: async () => new Headers({ authorization: `Bearer ${accessToken}` }) });
  }
  const { GoogleAuth } = googleAuthLibrary();
  return new GoogleAuth({ scopes: CLOUD_PLATFORM_SCOPE }).getClient() as unknown as Promise<VertexAuthClient>;
}
