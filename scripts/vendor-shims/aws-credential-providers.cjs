// Stands in for `import('@aws-sdk/credential-providers')` inside dist/vendor/anthropic.js, which the
// CLI loads through its code cache, where Node 20 has no import(). The Bedrock client asks for the AWS
// credential chain only when OpenDev found no static credentials (SSO, an assumed role): then it is
// required from node_modules, where it is installed (the CLI from npm); the .vsix leaves it out.
module.exports = require('@aws-sdk/credential-providers');
