import * as assert from 'node:assert/strict';
import { createMainAgent } from '../../../../src/core/agent/create-agent';
import { createSlashCommands } from '../../../../src/core/commands/slash-commands';
import type { UICallback } from '../../../../src/core/ui';
import { FakeProvider, toolResults, type RecordedRequest } from '../../../fixtures/fake-provider';
import { projectSkills, put, skillDirs, skillText, type SkillDirs } from './skill-fixtures';

/** Skills through the agent factory, on the real OpenAI SDK against the fake provider. */
describe('Skills through the agent', function () {
  this.timeout(30_000);
  const fake = new FakeProvider();
  let d: SkillDirs;
  const BODY = 'Run `make deploy STAGE=prod`, then watch /health for two minutes.';
  before(() => fake.start());
  after(() => fake.stop());
  beforeEach(() => {
    fake.reset();
    d = skillDirs();
    put(projectSkills(d), 'deploy/SKILL.md', skillText('deploy', 'Use when deploying this service.', `# Deploy\n${BODY}`));
  });

  const agent = () =>
    createMainAgent({
      roles: { action: { provider: 'openai', model: 'fake-model', apiKey: 'k', baseUrl: fake.openaiBaseUrl } },
      workspaceRoot: d.workspace,
      home: d.home,
      // Manual: every call that needs approval would ask, and this UI answers none.
      approvalLevel: 'manual',
      undo: false,
    });
  const systemOf = (req: RecordedRequest) => String(req.body.messages.find((m: { role: string }) => m.role === 'system')?.content ?? '');
  const notices: string[] = [];
  const ui: UICallback = { onTextDelta() {}, onToolStart() {}, onToolEnd() {}, onNotice: (text) => notices.push(text) };

  it('the first request has the index and invoke_skill but no body; a scripted invoke_skill brings the body to the next request', async () => {
    fake.enqueue({ toolCalls: [{ name: 'invoke_skill', arguments: { skill_name: 'deploy' } }] }, { text: 'Deployed.' });
    const a = await agent();
    const result = await a.runTurn('deploy it', ui);
    assert.equal(result.status, 'completed');
    assert.equal(result.text, 'Deployed.');

    const first = fake.requests[0]!;
    assert.match(systemOf(first), /## Skills[\s\S]*- deploy: Use when deploying this service\./);
    assert.match(systemOf(first), /- git-conventions: Use when/, 'the builtin skills are indexed too');
    assert.ok(!JSON.stringify(first.body).includes('make deploy'), 'no skill body up front');
    assert.ok(first.body.tools.some((t: { function: { name: string } }) => t.function.name === 'invoke_skill'));

    const [loaded] = toolResults(fake.requests[1]!);
    assert.match(loaded!.content, /^<skill_content name="deploy" source="project">\n# Deploy\nRun `make deploy STAGE=prod`/);
    assert.match(loaded!.content, /<\/skill_content>/);

    // A later turn asks again: the body is still in the conversation, so the answer is short.
    fake.enqueue({ toolCalls: [{ name: 'invoke_skill', arguments: { skill_name: 'deploy' } }] }, { text: 'Done again.' });
    await a.runTurn('deploy again', ui);
    const [again] = toolResults(fake.requests[3]!);
    assert.match(again!.content, /already loaded earlier in this conversation/);
    assert.equal((JSON.stringify(fake.requests[3]!.body).match(/make deploy STAGE/g) ?? []).length, 1, 'the body is in the conversation once');

    const listing = await createSlashCommands().run('/skills', { agent: a, front: 'cli' });
    assert.match(listing.output, /^● deploy +project +Use when deploying this service\./m);
    assert.match(listing.output, /^ {2}git-conventions +builtin /m);
    await a.dispose();
  });

  it('problems in skill files reach the user as a notice when the first turn starts; the good skills still load', async () => {
    const broken = put(projectSkills(d), 'broken.md', '# no frontmatter\n');
    fake.enqueue({ text: 'Hi.' });
    notices.length = 0;
    const a = await agent();
    await a.runTurn('hello', ui);
    assert.equal(notices.filter((n) => n.includes(broken)).length, 1, notices.join('\n'));
    assert.match(notices.find((n) => n.includes(broken))!, /Some skill files have problems[\s\S]*missing YAML frontmatter/);
    assert.match(systemOf(fake.requests[0]!), /- deploy: /);
    fake.enqueue({ text: 'Again.' });
    await a.runTurn('hello again', ui);
    assert.equal(notices.filter((n) => n.includes(broken)).length, 1, 'said once, not every turn');
    await a.dispose();
  });
});
