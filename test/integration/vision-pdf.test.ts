import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { allToolResults, FakeProvider, lastUserText, type RecordedRequest } from '../fixtures/fake-provider';
import { makePdf } from '../helpers/pdf';
import { makePng } from '../helpers/png';
import { activateOpenDev, clearSettings, config, until, useSettings } from './support';

/**
 * read_pdf and analyze_image in a real VS Code chat turn: a PDF generated into the workspace is
 * read page by page; an image pasted into the chat is saved for analyze_image, which sends it to
 * the vision model set in opendev.roles.
 */
describe('Vision and PDF tools in VS Code', function () {
  this.timeout(120_000);
  const fake = new FakeProvider();
  let api: OpenDevApi;
  let folder: string;
  const isVision = (req: RecordedRequest) => req.body.model === 'fake-vision';

  before(async () => {
    await fake.start();
    api = await activateOpenDev();
    folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    await useSettings({ provider: 'openai', baseUrl: fake.openaiBaseUrl, thinkingLevel: 'off' });
    await config().update('roles', { vision: { model: 'fake-vision' } }, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('opendev.setApiKey', 'openai', 'sk-integration');
  });
  after(async () => {
    api.newChat();
    rmSync(join(folder, 'spec.pdf'), { force: true });
    await config().update('roles', undefined, vscode.ConfigurationTarget.Global);
    await clearSettings(['provider', 'baseUrl', 'thinkingLevel']);
    await fake.stop();
  });
  beforeEach(() => {
    fake.reset();
    api.newChat();
  });

  it('read_pdf reads the pages asked for, with the metadata, and the card shows its summary', async () => {
    const pages = [['Introduction', 'OpenDev reads PDFs.'], ['Limits', 'At most 5 MB an image.'], ['Appendix', 'Nothing here.']];
    writeFileSync(join(folder, 'spec.pdf'), await makePdf({ pages, title: 'Integration Spec', author: 'The Tests' }));
    fake.enqueue({ toolCalls: [{ name: 'read_pdf', arguments: { path: 'spec.pdf', pages: '1-2' } }] }, { text: 'The spec limits images to 5 MB.' });
    const result = await api.send('What does spec.pdf say about limits?');
    assert.equal(result?.status, 'completed', JSON.stringify(api.transcript().filter((e) => e.kind === 'error' || e.kind === 'tool')));
    const output = allToolResults(fake.requests[1]!)[0]!.content;
    assert.match(output, /^PDF: spec\.pdf \(3 pages\)\nTitle: Integration Spec\nAuthor: The Tests\n/);
    assert.match(output, /--- Page 2 ---\nLimits\s+At most 5 MB an image\./);
    assert.doesNotMatch(output, /Appendix/);
    const card = api.transcript().find((e) => e.kind === 'tool' && e.name === 'read_pdf');
    assert.equal(card?.kind === 'tool' && card.status, 'ok');
    assert.match(card?.kind === 'tool' ? (card.summary ?? '') : '', /Read spec\.pdf: pages 1-2 of 3/);
  });

  it('an image pasted into the chat is saved; analyze_image sends it with the question to the vision model of opendev.roles', async () => {
    const png = makePng(24, 12, (x) => [x * 10, 80, 200]);
    const image = { mediaType: 'image/png' as const, data: png.toString('base64'), name: 'error.png' };
    let savedPath = '';
    fake.setResponder((req) => {
      if (isVision(req)) return { text: 'A blue bar with the text "Build failed".' };
      if (allToolResults(req).length === 0) {
        savedPath = /saved as (\S+\.png);/.exec(lastUserText(req))?.[1] ?? '';
        return { toolCalls: [{ name: 'analyze_image', arguments: { paths: [savedPath], question: 'What does the bar say?' } }] };
      }
      return { text: 'The build failed.' };
    });
    api.fromView({ type: 'send', text: 'What went wrong here?', images: [{ image, thumbnail: `data:image/png;base64,${image.data}` }] });
    await until(() => api.transcript().some((e) => e.kind === 'assistant' && e.text.includes('The build failed.')), 'the answer');

    assert.ok(existsSync(savedPath), `the pasted image was saved (${savedPath})`);
    assert.equal(readFileSync(savedPath).toString('base64'), image.data);
    const vision = fake.requests.filter(isVision);
    assert.equal(vision.length, 1, 'gpt-4.1 reads the pasted image itself; only analyze_image asks the vision model');
    const parts = vision[0]!.body.messages.at(-1).content as Array<{ type: string; image_url?: { url: string }; text?: string }>;
    assert.deepEqual(parts.filter((p) => p.type === 'image_url').map((p) => p.image_url!.url), [`data:image/png;base64,${image.data}`]);
    assert.match(lastUserText(vision[0]!), /Question: What does the bar say\?/);
    const card = api.transcript().find((e) => e.kind === 'tool' && e.name === 'analyze_image');
    assert.equal(card?.kind === 'tool' && card.status, 'ok');
    const toAgent = allToolResults(fake.requests.at(-1)!)[0]!.content;
    assert.match(toAgent, /^fake-vision on .*error\.png \(PNG, 1 KB\):\nA blue bar with the text "Build failed"\./);
  });
});
