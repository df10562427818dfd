import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workspaceMentionSources } from '../../../../src/core/mentions/workspace-mention-sources';
import { expandMentions } from '../../../../src/core/mentions/mention-expander';
import { configureSecretLocations } from '../../../../src/core/files/secret-locations';
import { analyzeImageTool } from '../../../../src/core/tools/analyze-image';
import { fileTools } from '../../../../src/core/tools/file-tools';
import { readFileTool } from '../../../../src/core/tools/read-file';
import { readPdfTool } from '../../../../src/core/tools/read-pdf';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { searchTool } from '../../../../src/core/tools/search';
import type { Tool, ToolExecutionContext, ToolResult } from '../../../../src/core/tools/tool';
import { makePng } from '../../../helpers/png';
import { toolContext } from '../../../helpers/tool-context';

/**
 * A cloned repository ships symbolic links to the user's keys and to folders elsewhere: every read
 * tool refuses them (saying why), listings show the link instead of its target's contents, searches
 * never read through them, and secret locations stay unread even inside the workspace.
 */
describe('read tools and the workspace boundary (symbolic links, secret locations)', () => {
  const MARKER = 'CANARY-SECRET-7f3a9c';
  let base: string;
  let home: string;
  let outside: string;
  let ws: string;
  let savedHome: string | undefined;
  const registry = new ToolRegistry();
  registry.register(readFileTool);
  for (const tool of [...fileTools(), searchTool, readPdfTool, analyzeImageTool] as Tool[]) registry.register(tool);
  let ctx: ToolExecutionContext;
  const call = (name: string, args: object, context = ctx): Promise<ToolResult> => registry.execute({ id: 'c', name, arguments: JSON.stringify(args) }, context);
  const refused = (r: ToolResult, why: RegExp) => {
    assert.equal(r.ok, false, r.output);
    assert.equal(r.errorKind, 'permission', r.output);
    assert.match(r.output, why);
    assert.doesNotMatch(r.output, new RegExp(MARKER));
  };

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'opendev-read-boundary-'));
    home = join(base, 'home');
    outside = join(base, 'outside');
    ws = join(base, 'repo');
    for (const dir of [join(home, '.ssh'), join(home, '.aws'), outside, join(ws, 'src')]) mkdirSync(dir, { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_rsa'), `-----BEGIN OPENSSH PRIVATE KEY-----\n${MARKER}\n`);
    writeFileSync(join(home, '.aws', 'credentials'), `[default]\naws_secret_access_key = ${MARKER}\n`);
    writeFileSync(join(outside, 'guide.md'), `# Guide\n${MARKER}\n`);
    writeFileSync(join(ws, 'README.md'), '# Project\nplain text\n');
    writeFileSync(join(ws, 'src', 'main.ts'), 'export const answer = 42;\n');
    symlinkSync(join(home, '.ssh', 'id_rsa'), join(ws, 'notes.txt'));
    symlinkSync(join(home, '.aws'), join(ws, 'creds'));
    symlinkSync(outside, join(ws, 'docs'));
    savedHome = process.env.HOME;
    process.env.HOME = home;
    ctx = toolContext({ workspaceRoot: ws });
  });
  afterEach(() => {
    process.env.HOME = savedHome;
    configureSecretLocations({ secretPaths: [] });
    rmSync(base, { recursive: true, force: true });
  });

  describe('read_file', () => {
    it('refuses a file that is a link to ~/.ssh/id_rsa, naming the secret location', async () => {
      refused(await call('read_file', { file_path: 'notes.txt' }), /notes\.txt is a symbolic link into ~\/\.ssh, a secret location/);
      refused(await call('read_file', { file_path: join(ws, 'notes.txt') }), /symbolic link into ~\/\.ssh/);
    });

    it('refuses a file under a linked folder (creds -> ~/.aws) and under a link to a folder elsewhere', async () => {
      refused(await call('read_file', { file_path: 'creds/credentials' }), /creds\/credentials is a symbolic link into ~\/\.aws, a secret location/);
      const r = await call('read_file', { file_path: 'docs/guide.md' });
      refused(r, /docs\/guide\.md is a symbolic link to .*outside[/\\]guide\.md, outside the workspace/);
      assert.match(r.output, /ask the user to copy it into the workspace/, 'the refusal says what to do instead');
    });

    it('still reads the workspace, and a link that stays inside it', async () => {
      symlinkSync(join(ws, 'README.md'), join(ws, 'readme-link.md'));
      for (const file_path of ['README.md', 'readme-link.md']) {
        const r = await call('read_file', { file_path });
        assert.equal(r.ok, true, r.output);
        assert.match(r.output, /plain text/);
      }
    });

    it('refuses a secret location inside the workspace (a workspace that is the home folder)', async () => {
      const r = await call('read_file', { file_path: '.ssh/id_rsa' }, toolContext({ workspaceRoot: home }));
      refused(r, /\.ssh\/id_rsa is in ~\/\.ssh, a secret location/);
      refused(await call('read_file', { file_path: '.aws/credentials' }, toolContext({ workspaceRoot: home })), /~\/\.aws/);
    });

    it('reads the session scratch folder inside OPENDEV_HOME, but not a link from there to the rest of OPENDEV_HOME', async () => {
      const opendevHome = join(base, 'opendev-home');
      const scratch = join(opendevHome, 'scratch', 'session-1');
      mkdirSync(scratch, { recursive: true });
      writeFileSync(join(opendevHome, 'settings.json'), `{"note": "${MARKER}"}`);
      writeFileSync(join(scratch, 'output.txt'), 'saved tool output\n');
      symlinkSync(join(opendevHome, 'settings.json'), join(scratch, 'settings-link.json'));
      const savedOpendevHome = process.env.OPENDEV_HOME;
      process.env.OPENDEV_HOME = opendevHome;
      try {
        const withScratch = toolContext({ workspaceRoot: ws, readableDirs: [scratch] });
        const ok = await call('read_file', { file_path: join(scratch, 'output.txt') }, withScratch);
        assert.equal(ok.ok, true, ok.output);
        refused(await call('read_file', { file_path: join(scratch, 'settings-link.json') }, withScratch), /a secret location/);
      } finally {
        process.env.OPENDEV_HOME = savedOpendevHome;
      }
    });

    it("refuses the user's own secretPaths, even inside the workspace", async () => {
      writeFileSync(join(ws, 'src', 'vault.txt'), MARKER);
      configureSecretLocations({ secretPaths: [join(ws, 'src', 'vault.txt')] });
      refused(await call('read_file', { file_path: 'src/vault.txt' }), /src\/vault\.txt is in .*vault\.txt, a secret location/);
    });
  });

  describe('list_files', () => {
    it('shows links as links and never lists what they point to', async () => {
      const r = await call('list_files', {});
      assert.equal(r.ok, true, r.output);
      assert.doesNotMatch(r.output, /credentials|guide\.md|id_rsa\n/);
      assert.match(r.output, new RegExp(`^creds -> ${escape(join(home, '.aws'))} \\(link outside the workspace, not followed\\)$`, 'm'));
      assert.match(r.output, new RegExp(`^docs -> ${escape(outside)} \\(link outside the workspace, not followed\\)$`, 'm'));
      assert.match(r.output, /^notes\.txt -> .*id_rsa \(link outside the workspace, not followed\)$/m);
      assert.match(r.output, /^src\/\n {2}main\.ts$/m);
    });

    it('refuses to list a linked folder, and a glob does not reach through links', async () => {
      refused(await call('list_files', { path: 'creds' }), /creds is a symbolic link into ~\/\.aws, a secret location/);
      refused(await call('list_files', { path: 'docs' }), /docs is a symbolic link to .*outside, outside the workspace/);
      const glob = await call('list_files', { pattern: '**/*' });
      assert.equal(glob.ok, true, glob.output);
      assert.doesNotMatch(glob.output, /credentials|guide\.md/);
      assert.match(glob.output, /^docs -> .* \(link outside the workspace, not followed\)$/m);
    });

    it('shows a secret folder inside the workspace without entering it', async () => {
      writeFileSync(join(home, 'todo.txt'), 'x');
      const r = await call('list_files', {}, toolContext({ workspaceRoot: home }));
      assert.equal(r.ok, true, r.output);
      assert.match(r.output, /^\.ssh\/ \(secret location, not listed\)$/m);
      assert.doesNotMatch(r.output, /id_rsa|credentials/);
      assert.match(r.output, /^todo\.txt$/m);
    });
  });

  describe('search', () => {
    for (const engine of ['ripgrep', 'built-in'] as const) {
      describe(`with ${engine} search`, () => {
        let savedPath: string | undefined;
        beforeEach(() => {
          savedPath = process.env.PATH;
          if (engine === 'built-in') process.env.PATH = '';
        });
        afterEach(() => {
          process.env.PATH = savedPath;
        });

        it('finds nothing through the links when searching the workspace', async () => {
          const r = await call('search', { pattern: MARKER });
          assert.equal(r.ok, true, r.output);
          assert.doesNotMatch(r.output, new RegExp(`\\d+: .*${MARKER}`));
          assert.match(r.output, /No matches/i);
          if (engine === 'built-in') assert.match(r.summary, /built-in search/);
        });

        it('refuses a path that is a link out (a file, a linked folder)', async () => {
          refused(await call('search', { pattern: MARKER, path: 'notes.txt' }), /symbolic link into ~\/\.ssh/);
          refused(await call('search', { pattern: MARKER, path: 'creds' }), /symbolic link into ~\/\.aws/);
          refused(await call('search', { pattern: MARKER, path: 'docs' }), /symbolic link to .*outside, outside the workspace/);
        });

        it("does not read a secret location inside the workspace (the user's secretPaths)", async () => {
          mkdirSync(join(ws, 'keys'));
          writeFileSync(join(ws, 'keys', 'deploy.pem'), MARKER);
          writeFileSync(join(ws, 'src', 'uses.ts'), `// ${MARKER.toLowerCase()} is not the marker\n`);
          configureSecretLocations({ secretPaths: [join(ws, 'keys')] });
          const r = await call('search', { pattern: MARKER, case_sensitive: true });
          assert.equal(r.ok, true, r.output);
          assert.doesNotMatch(r.output, /deploy\.pem/);
          refused(await call('search', { pattern: MARKER, path: 'keys' }), /keys is in .*keys, a secret location/);
          const lower = await call('search', { pattern: MARKER.toLowerCase(), case_sensitive: true });
          assert.match(lower.output, /src\/uses\.ts/, 'the rest of the workspace is still searched');
        });
      });
    }

    it('an ast search refuses a linked folder too', async () => {
      writeFileSync(join(outside, 'evil.ts'), `const key = "${MARKER}";\n`);
      refused(await call('search', { pattern: 'const $A = $B', type: 'ast', lang: 'typescript', path: 'docs' }), /outside the workspace/);
      const r = await call('search', { pattern: 'const $A = $B', type: 'ast', lang: 'typescript' });
      assert.doesNotMatch(r.output, new RegExp(MARKER));
    });
  });

  describe('read_pdf, analyze_image, writes', () => {
    it('read_pdf refuses a link to a PDF outside the workspace', async () => {
      writeFileSync(join(outside, 'report.pdf'), `%PDF-1.4\n${MARKER}\n`);
      symlinkSync(join(outside, 'report.pdf'), join(ws, 'report.pdf'));
      refused(await call('read_pdf', { path: 'report.pdf' }), /report\.pdf is a symbolic link to .*report\.pdf, outside the workspace/);
    });

    it('analyze_image refuses a link out before anything reaches the vision model', async () => {
      writeFileSync(join(outside, 'shot.png'), makePng(2, 2, () => [0, 0, 0]));
      symlinkSync(join(outside, 'shot.png'), join(ws, 'shot.png'));
      const asked: number[] = [];
      const vision = { describe: async (images: readonly unknown[]) => (asked.push(images.length), { text: 'a picture', model: 'vision-model' }) };
      refused(await call('analyze_image', { paths: ['shot.png'], question: 'what is it?' }, toolContext({ workspaceRoot: ws, vision })), /shot\.png is a symbolic link to .*shot\.png, outside the workspace/);
      assert.deepEqual(asked, []);
    });

    it('write_file does not write through a dangling link to a place outside the workspace', async () => {
      symlinkSync(join(outside, 'planted.sh'), join(ws, 'setup.sh'));
      const r = await call('write_file', { file_path: 'setup.sh', content: 'echo hi\n' });
      assert.equal(r.ok, false, r.output);
      assert.match(r.output, /setup\.sh is a symbolic link to .*planted\.sh, outside the workspace/);
      assert.equal(existsSync(join(outside, 'planted.sh')), false);
    });
  });

  describe('mentions', () => {
    it('@ mentions of links out are not expanded: the model reads why, never the content', async () => {
      const expansion = await expandMentions('look at @notes.txt and @creds and @docs/guide.md and @README.md', workspaceMentionSources(ws));
      assert.ok(expansion.context);
      assert.doesNotMatch(expansion.context, new RegExp(MARKER));
      assert.match(expansion.context, /plain text/, 'a real workspace file is attached');
      const failed = expansion.mentions.filter((m) => !m.ok).map((m) => m.target).sort();
      assert.deepEqual(failed, ['creds', 'docs/guide.md', 'notes.txt']);
      assert.match(expansion.context, /symbolic link into ~\/\.ssh/);
    });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
