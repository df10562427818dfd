import * as assert from 'node:assert/strict';
import { Agent } from '../../../../src/core/agent/agent';
import type { ResolvedRoleModel, RoleResolver } from '../../../../src/core/llm/role-resolver';
import type { ThinkingLevel } from '../../../../src/core/config/thinking-level';
import { unknownModelCapabilities } from '../../../../src/core/llm/capabilities/model-capabilities';
import { createProvider } from '../../../../src/core/llm/create-provider';
import type { ModelRole } from '../../../../src/core/config/model-role-settings';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { UICallback } from '../../../../src/core/ui';
import { FakeProvider, lastUserText } from '../../../fixtures/fake-provider';
import { pngAttachment } from '../../../helpers/png';

/** Images as vision input: sent to a model that reads them, described by the vision model for one that does not, refused with a clear notice otherwise. */
describe('images as vision input', () => {
  const fake = new FakeProvider();
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => fake.reset());

  const model = (name: string, vision: boolean): ResolvedRoleModel => ({
    provider: createProvider({ provider: 'openai', model: name, apiKey: 'test-key', baseUrl: fake.openaiBaseUrl }),
    model: name,
    capabilities: { ...unknownModelCapabilities(), vision },
  });

  function agent(roles: Partial<Record<ModelRole, ResolvedRoleModel>>, thinkingLevel: ThinkingLevel = 'off'): Agent {
    const resolver: RoleResolver = {
      forRole: (role) => roles[role] ?? (role === 'thinking' || role === 'critique' ? roles.action : undefined),
    };
    return new Agent({
      identity: { name: 'main', isSubagent: false },
      workspaceRoot: process.cwd(),
      model: {
        roles: resolver,
        systemPrompt: { stable: 'You are a test agent.', dynamic: '' },
        promptVars: {},
        maxIterations: 3,
        thinkingLevel,
      },
      tools: {
        registry: new ToolRegistry(),
        todos: { list: () => [], hasOpen: () => false },
      },
    });
  }

  const notices: Array<{ text: string; level: string }> = [];
  const ui: UICallback = { onTextDelta() {}, onToolStart() {}, onToolEnd() {}, onNotice: (text, level) => notices.push({ text, level }) };
  beforeEach(() => (notices.length = 0));

  const image = pngAttachment('error-dialog.png');
  const imageParts = (body: any) => body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content.filter((p: any) => p.type === 'image_url') : []));

  it('a model that reads images gets the image on the user message, next to the text and the mention context', async () => {
    fake.enqueue({ text: 'It says "disk full".' });
    const result = await agent({ action: model('eyes', true) }).runTurn('what does this dialog say?', ui, undefined, { context: '<mentioned_context>x</mentioned_context>', images: [image] });
    assert.equal(result.status, 'completed');
    const user = fake.requests[0]!.body.messages.at(-1);
    assert.equal(user.content[0].type, 'text');
    assert.match(user.content[0].text, /^what does this dialog say\?\n\n<mentioned_context>x<\/mentioned_context>$/);
    assert.deepEqual(imageParts(fake.requests[0]!.body), [{ type: 'image_url', image_url: { url: `data:image/png;base64,${image.data}` } }]);
    assert.deepEqual(notices, []);
  });

  it('a model that cannot: the vision model describes the image first, and the description goes as text', async () => {
    fake.setResponder((req) => (req.body.model === 'eyes' ? { text: 'A dialog titled "Error" reading: disk full.' } : { text: 'Free some disk space.' }));
    const a = agent({ action: model('blind', false), vision: model('eyes', true) });
    const result = await a.runTurn('what does this dialog say?', ui, undefined, { images: [image] });
    assert.equal(result.status, 'completed');
    const [describe, act] = fake.requests;
    assert.equal(describe!.body.model, 'eyes');
    assert.equal(imageParts(describe!.body).length, 1, 'the vision model sees the image');
    assert.match(lastUserText(describe!), /error-dialog\.png \(PNG, 1 KB\)[\s\S]*what does this dialog say\?/);
    assert.equal(act!.body.model, 'blind');
    assert.equal(imageParts(act!.body).length, 0, 'the action model gets no image part');
    assert.match(lastUserText(act!), /<attached_images>[\s\S]*a vision model \(eyes\) described them:\nA dialog titled "Error" reading: disk full\.\n<\/attached_images>/);
    assert.deepEqual(notices, [{ text: 'blind cannot read images: eyes described them for it.', level: 'info' }]);
    assert.equal(a.messages.find((m) => m.role === 'user')?.images, undefined, 'the history keeps the description, not the image');
  });

  it('with neither, the user is told clearly and the model hears that an image could not be passed on', async () => {
    fake.enqueue({ text: 'I cannot see images.' });
    await agent({ action: model('blind', false) }).runTurn('what is this?', ui, undefined, { images: [image] });
    assert.equal(imageParts(fake.requests[0]!.body).length, 0);
    assert.match(lastUserText(fake.requests[0]!), /could not be passed on: blind cannot read images and no vision model is configured/);
    assert.equal(notices.length, 1);
    assert.equal(notices[0]!.level, 'warning');
    assert.match(notices[0]!.text, /The image was not sent: blind cannot read images and no vision model is configured\. Choose a model that reads images, or set one for the vision role/);
  });

  it('a thinking model without vision reads a note naming the image instead of the image', async () => {
    fake.setResponder((req) => (req.body.model === 'thinker' ? { text: 'Look at the dialog.' } : { text: 'It says disk full.' }));
    await agent({ action: model('eyes', true), thinking: model('thinker', false) }, 'low').runTurn('what is this?', ui, undefined, { images: [image] });
    const think = fake.requests.find((r) => r.body.model === 'thinker')!;
    const act = fake.requests.find((r) => r.body.model === 'eyes')!;
    assert.equal(imageParts(think.body).length, 0);
    assert.match(JSON.stringify(think.body.messages), /1 image\(s\) attached by the user: error-dialog\.png/);
    assert.equal(imageParts(act.body).length, 1);
  });
});
