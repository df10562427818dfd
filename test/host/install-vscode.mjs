#!/usr/bin/env node
// Installs (or confirms) the cached VS Code server used by the integration and e2e tests; prints its path.
import { ensureVSCodeServer } from './vscode-server.mjs';

try {
  console.log(await ensureVSCodeServer());
} catch (err) {
  console.error(`install-vscode: ${err.message}`);
  process.exit(1);
}
