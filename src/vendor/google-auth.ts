// google-auth-library: dist/vendor/google-auth.js, loaded when a Vertex provider has no access token
// and asks Application Default Credentials for one (reach it only through googleAuthLibrary()).
export { GoogleAuth } from 'google-auth-library';
