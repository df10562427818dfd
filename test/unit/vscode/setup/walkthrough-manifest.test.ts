import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const repo = join(__dirname, '../../../../..');
const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));

interface Step {
  id: string;
  title: string;
  description: string;
  completionEvents?: string[];
  media: { markdown?: string };
}

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The context keys the extension sets: `setContext` with a literal key, or with a constant holding one. */
function contextKeysSet(): Set<string> {
  const keys = new Set<string>();
  for (const file of sources(join(repo, 'src', 'vscode'))) {
    const text = readFileSync(file, 'utf8');
    const constants = new Map([...text.matchAll(/const (\w+) = '([\w.]+)'/g)].map((m) => [m[1]!, m[2]!]));
    for (const m of text.matchAll(/'setContext',\s*(?:'([\w.]+)'|(\w+))/g)) keys.add(m[1] ?? constants.get(m[2]!) ?? m[2]!);
  }
  return keys;
}

/**
 * VS Code gives extensions no way to read a walkthrough's progress, so inside VS Code the steps are
 * checked end to end (test/e2e/palette.test.ts ticks each one through the workbench). Here: each
 * step completes on something that exists, the action the step describes.
 */
describe('the walkthrough in package.json', () => {
  const walkthrough = manifest.contributes.walkthroughs.find((w: { id: string }) => w.id === 'opendev.gettingStarted');
  const steps: Step[] = walkthrough.steps;
  const commands = new Set(manifest.contributes.commands.map((c: { command: string }) => c.command));
  const settings = new Set(Object.keys(manifest.contributes.configuration.properties));
  const views = new Set(Object.values(manifest.contributes.views as Record<string, Array<{ id: string }>>).flat().map((v) => v.id));
  const contexts = contextKeysSet();

  it('each completion event names a contributed command, setting or view, or a context key the extension sets', () => {
    for (const step of steps) {
      assert.ok(step.completionEvents?.length, `${step.id} has completion events (without them VS Code ticks it when its first link is clicked)`);
      for (const event of step.completionEvents!) {
        const [kind, name] = [event.slice(0, event.indexOf(':')), event.slice(event.indexOf(':') + 1)];
        if (kind === 'onCommand') assert.ok(commands.has(name), `${step.id}: ${name} is a contributed command`);
        else if (kind === 'onSettingChanged') assert.ok(settings.has(name), `${step.id}: ${name} is a contributed setting`);
        else if (kind === 'onView') assert.ok(views.has(name), `${step.id}: ${name} is a contributed view`);
        else if (kind === 'onContext') assert.ok(contexts.has(name), `${step.id}: the extension sets the context key ${name} (it sets ${[...contexts].join(', ')})`);
        else assert.fail(`${step.id}: unexpected completion event ${event}`);
      }
    }
  });

  it('each step completes on the action it describes, and links the commands that do it', () => {
    const byId = new Map(steps.map((s) => [s.id, s]));
    // Connect: a key stored, or a provider that needs none (a local server) chosen.
    assert.deepEqual(byId.get('setApiKey')?.completionEvents, ['onContext:opendev.providerReady']);
    // Pick: the model picker used, or the model set (the provider's default counts when chosen there).
    assert.deepEqual(byId.get('selectModel')?.completionEvents, ['onCommand:opendev.selectModel', 'onSettingChanged:opendev.model']);
    // Open the chat and ask: the chat starts working on a message (Explain Selection and Fix Problems send one too).
    assert.deepEqual(byId.get('openChat')?.completionEvents, ['onContext:opendev.busy']);
    for (const step of steps) {
      for (const [, command] of step.description.matchAll(/\(command:([\w.]+)\)/g)) assert.ok(commands.has(command!), `${step.id} links ${command}`);
      assert.ok(statSync(join(repo, step.media.markdown!)).isFile(), `${step.id}'s media exists`);
    }
  });
});
