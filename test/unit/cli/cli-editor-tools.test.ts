import * as assert from 'node:assert/strict';
import { FakeProvider } from '../../fixtures/fake-provider';
import { EDITOR_ONLY_TOOLS } from '../../helpers/editor-ports';
import { newHome, opendev } from './cli-harness';

/** The CLI has no editor: the tools that run on the editor's language servers and notebook API are not offered. */
describe('opendev CLI without an editor', () => {
  const fake = new FakeProvider();

  before(() => fake.start());
  after(() => fake.stop());

  it('leaves the symbol tools and notebook_edit out of the schema the model sees', async () => {
    fake.enqueue({ text: 'Hello.' });
    const r = await opendev(['-p', 'hi'], { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseUrl, OPENDEV_HOME: newHome() });
    assert.equal(r.code, 0, r.stderr);
    const tools = (fake.requests[0]!.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    assert.ok(tools.includes('read_file') && tools.includes('edit_file'), `the workspace tools are there: ${tools.join(', ')}`);
    assert.deepEqual(tools.filter((t) => (EDITOR_ONLY_TOOLS as readonly string[]).includes(t)), []);
  });
});
