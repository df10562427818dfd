import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../../../../src/core/agent/agent';
import type { ProviderSettings } from '../../../../src/core/config/provider-settings';
import { CapabilityCatalog } from '../../../../src/core/llm/capabilities/catalog';
import { CostTracker } from '../../../../src/core/llm/cost-tracker';
import { ModelRoles } from '../../../../src/core/llm/model-roles';
import { createVisionPort } from '../../../../src/core/images/vision-port';
import { analyzeImageTool } from '../../../../src/core/tools/analyze-image';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { Tool, ToolResult } from '../../../../src/core/tools/tool';
import { silentUI } from '../../../../src/core/ui';
import { allToolResults, FakeProvider, lastUserText, toolResults, type RecordedRequest } from '../../../fixtures/fake-provider';
import { makePng, pngAttachment } from '../../../helpers/png';
import { toolContext } from '../../../helpers/tool-context';

/** A JPEG as far as any signature check goes (the fake model does not decode it). */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), Buffer.alloc(200, 7)]);
const VISION_ANSWER = 'The dialog shows a red "Submit" button and the error "Port 3000 in use".';

describe('analyze_image', () => {
  const fake = new FakeProvider();
  let root: string;
  let home: string;

  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    root = mkdtempSync(join(tmpdir(), 'opendev-vision-'));
    home = mkdtempSync(join(tmpdir(), 'opendev-home-'));
    writeFileSync(join(root, 'dialog.jpg'), JPEG);
    writeFileSync(join(root, 'chart.png'), makePng(8, 4, () => [255, 0, 0]));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  /** An action model the catalogue knows nothing of (so it reads no images) on the OpenAI wire; the vision model on Anthropic's. */
  function roles(withVision: boolean): ModelRoles {
    const action: ProviderSettings = { provider: 'openai-compatible', model: 'fake-model', baseUrl: fake.openaiBaseUrl, apiKey: 'test-key' };
    const vision: ProviderSettings = { provider: 'anthropic', model: 'fake-vision', baseUrl: fake.anthropicBaseUrl, apiKey: 'test-key' };
    const catalog = new CapabilityCatalog({ env: { OPENDEV_DISABLE_REMOTE_MODELS: '1' }, home });
    return new ModelRoles(withVision ? { action, vision } : { action }, catalog);
  }

  function agent(modelRoles: ModelRoles, cost: CostTracker, extra: { imagesDir?: string; readableDirs?: string[] } = {}): Agent {
    return new Agent({
      identity: { name: 'main', isSubagent: false },
      workspaceRoot: root,
      model: {
        roles: modelRoles,
        systemPrompt: { stable: 'You are a test agent.', dynamic: '' },
        promptVars: {},
        maxIterations: 5,
        thinkingLevel: 'off',
      },
      tools: {
        registry: new ToolRegistry().register(analyzeImageTool as Tool),
        todos: { list: () => [], hasOpen: () => false },
        ...extra,
      },
      session: { cost },
    });
  }

  const visionRequests = (): RecordedRequest[] => fake.requests.filter((r) => r.body.model === 'fake-vision');

  it('sends the image files and the question to the vision model and hands its answer back as the tool output', async () => {
    fake.setResponder((req) => {
      if (req.body.model === 'fake-vision') return { text: VISION_ANSWER };
      if (allToolResults(req).length === 0) return { toolCalls: [{ id: 'v1', name: 'analyze_image', arguments: { paths: ['dialog.jpg', 'chart.png'], question: 'What does the error say?' } }] };
      return { text: 'Port 3000 is in use.' };
    });
    const cost = new CostTracker();
    const result = await agent(roles(true), cost).runTurn('Look at dialog.jpg', silentUI);
    assert.equal(result.status, 'completed');

    const [vision] = visionRequests();
    assert.ok(vision, 'the vision model was asked');
    assert.equal(vision.api, 'anthropic');
    const blocks = vision.body.messages[0].content as Array<{ type: string; source?: { media_type: string; data: string }; text?: string }>;
    const images = blocks.filter((b) => b.type === 'image');
    assert.deepEqual(
      images.map((b) => b.source),
      [
        { type: 'base64', media_type: 'image/jpeg', data: JPEG.toString('base64') },
        { type: 'base64', media_type: 'image/png', data: readFileSync(join(root, 'chart.png')).toString('base64') },
      ],
    );
    assert.match(lastUserText(vision), /Question: What does the error say\?/);
    assert.match(lastUserText(vision), /dialog\.jpg \(JPEG, 1 KB\), chart\.png \(PNG, 1 KB\)/);
    assert.match(JSON.stringify(vision.body.system), /You look at images for a coding assistant/);
    assert.equal(vision.body.tools, undefined, 'the vision call offers no tools');

    const answerToAgent = toolResults(fake.requests.at(-1)!)[0]?.content ?? '';
    assert.match(answerToAgent, /^fake-vision on dialog\.jpg .*:\n/);
    assert.ok(answerToAgent.includes(VISION_ANSWER));
    // The vision call is counted in the session's cost with the two action calls.
    assert.equal(cost.snapshot().calls, 3);
  });

  it('without a model that reads images, says how to configure one and never calls a model for it', async () => {
    fake.setResponder((req) =>
      allToolResults(req).length === 0 ? { toolCalls: [{ id: 'v1', name: 'analyze_image', arguments: { paths: ['chart.png'], question: 'Colours?' } }] } : { text: 'I cannot see images here.' },
    );
    await agent(roles(false), new CostTracker()).runTurn('Look at chart.png', silentUI);
    // Only action calls (with tools) were made: nothing was sent to describe the image.
    assert.ok(fake.requests.every((r) => r.body.model === 'fake-model' && r.body.tools?.length > 0));
    assert.ok(fake.requests.every((r) => !JSON.stringify(r.body).includes('image_url')));
    const error = allToolResults(fake.requests[1])[0]?.content ?? '';
    assert.match(error, /^Error \(other\): No model here reads images: fake-model does not, and no vision model is configured/);
    assert.match(error, /opendev\.roles/);
    assert.match(error, /OPENDEV_VISION_MODEL/);
    assert.match(error, /do not retry/);
  });

  it('judges files by their bytes: a text file named .png and an oversized image are refused before any model call', async () => {
    writeFileSync(join(root, 'fake.png'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    writeFileSync(join(root, 'huge.png'), Buffer.concat([makePng(2, 2, () => [0, 0, 0]), Buffer.alloc(5 * 1024 * 1024)]));
    const vision = createVisionPort(roles(true), { ui: silentUI, usage: { promptTokens: 0, cachedTokens: 0, outputTokens: 0 } });
    const run = (paths: string[]): Promise<ToolResult> =>
      new ToolRegistry().register(analyzeImageTool as Tool).execute({ id: 'c', name: 'analyze_image', arguments: JSON.stringify({ paths, question: 'What?' }) }, toolContext({ workspaceRoot: root, vision }));
    const text = await run(['fake.png']);
    assert.equal(text.ok, false);
    assert.match(text.output, /fake\.png is not a PNG, JPEG, GIF or WebP image \(judged by its content, not its name\)/);
    const huge = await run(['huge.png']);
    assert.match(huge.output, /huge\.png is 5\.0 MB; images may have at most 5 MB/);
    const outside = await run(['../x.png']);
    assert.equal(outside.errorKind, 'permission');
    assert.equal(fake.requests.length, 0);
  });

  it('an image pasted in the chat is saved to the scratch folder, named to the model, and analyze_image can look at it again', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'opendev-scratch-'));
    const pasted = pngAttachment('error dialog.png');
    let savedPath = '';
    fake.setResponder((req) => {
      if (req.body.model === 'fake-vision') return { text: req.body.messages.length && lastUserText(req).includes('Question:') ? VISION_ANSWER : 'A dialog with an error.' };
      if (allToolResults(req).length === 0) {
        savedPath = /saved as (\S+\.png);/.exec(lastUserText(req))?.[1] ?? '';
        return { toolCalls: [{ id: 'v1', name: 'analyze_image', arguments: { paths: [savedPath], question: 'Which port?' } }] };
      }
      return { text: 'Port 3000.' };
    });
    try {
      await agent(roles(true), new CostTracker(), { imagesDir: join(scratch, 'sess', 'images'), readableDirs: [scratch] }).runTurn('What went wrong?', silentUI, undefined, { images: [pasted] });
      assert.match(savedPath, /sess\/images\/\d{8}-\d{6}-[0-9a-f]{4}-1-error_dialog\.png$/);
      assert.ok(existsSync(savedPath));
      assert.equal(readFileSync(savedPath).toString('base64'), pasted.data);
      // 1: the description for the text-only action model; 2: analyze_image on the saved file.
      const [, second] = visionRequests();
      assert.equal(second.body.messages[0].content[0].source.data, pasted.data);
      assert.ok((toolResults(fake.requests.at(-1)!)[0]?.content ?? '').includes(VISION_ANSWER));
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
