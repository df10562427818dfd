import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionToWebview, MentionCompletion } from '../../src/shared/protocol';
import { allToolResults, lastUserText } from '../fixtures/fake-provider';
import { clearSettings, config, fakeProviderSuite, until, useSettings } from './support';

const MARKER = 'vscode-read-boundary-marker-5d21';

/**
 * A folder's symbolic links lead nowhere outside it in VS Code either: `@` completion (findFiles
 * follows links) does not offer what they lead to, a mention of one attaches no content, and the
 * user's opendev.secretPaths (application-scoped: no workspace sets it) keeps a location unread.
 */
describe('read boundary in VS Code (links out of the folder, opendev.secretPaths)', function () {
  this.timeout(120_000);
  const suite = fakeProviderSuite({ approvalLevel: 'auto' });
  const { fake } = suite;
  const fromView: ExtensionToWebview[] = [];
  let listening: { dispose(): void } | undefined;
  let outside: string;
  const made: string[] = [];

  before(() => {
    listening = suite.api.onViewMessage((m) => fromView.push(m));
    outside = mkdtempSync(join(tmpdir(), 'opendev-it-outside-'));
    writeFileSync(join(outside, 'elsewhere-guide.md'), `# Guide\n${MARKER}\n`);
    for (const [link, target] of [['linked-docs', outside], ['linked-notes.txt', join(outside, 'elsewhere-guide.md')]] as const) {
      symlinkSync(target, join(suite.folder, link));
      made.push(join(suite.folder, link));
    }
    mkdirSync(join(suite.folder, 'vault'));
    writeFileSync(join(suite.folder, 'vault', 'deploy-key.txt'), MARKER);
    made.push(join(suite.folder, 'vault'));
  });
  after(async () => {
    listening?.dispose();
    for (const path of made) rmSync(path, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
    await clearSettings(['secretPaths']);
  });

  async function complete(query: string): Promise<MentionCompletion[]> {
    fromView.length = 0;
    suite.api.fromView({ type: 'completeMention', query });
    let answer: MentionCompletion[] | undefined;
    await until(() => {
      const m = fromView.find((x) => x.type === 'mentionCompletions' && x.query === query);
      answer = m?.type === 'mentionCompletions' ? m.items : undefined;
      return answer !== undefined;
    }, `completions for @${query}`);
    return answer!;
  }

  it('@ completion offers nothing a link leads to outside the folder; the folder itself is still offered', async () => {
    await complete(''); // a fresh listing, with the links in it
    assert.deepEqual(await complete('elsewhere-guide'), [], 'not linked-docs/elsewhere-guide.md');
    assert.deepEqual(await complete('linked-notes'), []);
    assert.ok((await complete('math')).some((c) => c.target === 'math.ts'));
  });

  it('a mention of a link out attaches no content: the model reads why', async () => {
    fake.enqueue({ text: 'I cannot see it.' });
    assert.equal((await suite.api.send('what is in @linked-notes.txt?'))?.status, 'completed');
    const sent = lastUserText(fake.requests[0]!);
    assert.ok(!sent.includes(MARKER), 'no content of the target');
    assert.match(sent, /linked-notes\.txt is a symbolic link to .*elsewhere-guide\.md, outside the workspace/);
  });

  it("read_file refuses what the user's opendev.secretPaths names; a workspace cannot set that list", async () => {
    await useSettings({ secretPaths: [join(suite.folder, 'vault')] });
    await assert.rejects(
      Promise.resolve(config().update('secretPaths', [], vscode.ConfigurationTarget.Workspace)),
      'VS Code refuses an application-scoped setting in the workspace',
    );
    fake.enqueue({ toolCalls: [{ id: 'call_read', name: 'read_file', arguments: { file_path: 'vault/deploy-key.txt' } }] });
    fake.setResponder(() => ({ text: 'It is a secret location: I cannot read it.' })); // and to the harness's nudges
    assert.equal((await suite.api.send('read the deploy key'))?.status, 'completed');
    const result = fake.requests.flatMap((r) => allToolResults(r)).find((r) => r.toolCallId === 'call_read');
    assert.ok(result, 'the refusal reached the model');
    assert.match(result!.content, /^Error \(permission\): vault\/deploy-key\.txt is in .*vault, a secret location/);
    for (const req of fake.requests) assert.ok(!JSON.stringify(req.body).includes(MARKER));
  });
});
