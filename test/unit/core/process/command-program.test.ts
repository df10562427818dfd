import * as assert from 'node:assert/strict';
import { programOf } from '../../../../src/core/process/command-program';
import { checkDanger } from '../../../../src/core/process/danger-gate';
import { judgeCommand } from '../../../../src/core/safety/command-judge';

const words = (line: string) => line.split(' ');

/** One helper finds the program for the danger gate and for the approval rules alike. */
describe('programOf: the program a simple command runs', () => {
  it('looks past assignments, keywords and wrappers, with each wrapper’s own options and operands', () => {
    const cases: Array<[string, string, string[]]> = [
      ['FOO=1 BAR=2 make all', 'make', ['all']],
      ['env -u HOME FOO=1 /usr/bin/rm -rf x', 'rm', ['-rf', 'x']],
      ['nohup setsid node server.js', 'node', ['server.js']],
      ['! grep -q x file', 'grep', ['-q', 'x', 'file']],
      ['timeout -s KILL 5 npm test', 'npm', ['test']],
      ['nice -n 5 ionice -c 2 -n 7 tar czf a.tgz .', 'tar', ['czf', 'a.tgz', '.']],
      ['stdbuf -o L tail -f log', 'tail', ['-f', 'log']],
      ['taskset -c 0 rm -rf build', 'rm', ['-rf', 'build']],
      ['chrt -f 99 ./run', 'run', []],
      ['xargs -0 -I {} cp {} out/', 'cp', ['{}', 'out/']],
      ['watch -n 2 ls -la', 'ls', ['-la']],
    ];
    for (const [line, name, args] of cases) assert.deepEqual({ name: programOf(words(line)).name, args: programOf(words(line)).args }, { name, args }, line);
  });

  it('says when variables are set first, and finds no program in assignments alone', () => {
    assert.equal(programOf(words('FOO=1 ls')).assignments, true);
    assert.equal(programOf(words('env FOO=1 ls')).assignments, true);
    assert.equal(programOf(words('ls -la')).assignments, false);
    assert.deepEqual(programOf(words('FOO=1 BAR=2')), { name: '', args: [], assignments: true });
  });

  it('a wrapper cannot hide a refused command from the danger gate or the approval step', () => {
    // (The line-level backstop catches `rm -rf ~` or `/` whatever the wrapper: these targets it does not.)
    for (const line of ['taskset -c 0 rm -rf /home/u/project', 'stdbuf -o L rm -rf /etc', 'chrt -f 99 shred /home/u']) {
      assert.equal(checkDanger(line, { home: '/home/u', cwd: '/home/u/project' }).blocked, true, line);
      assert.equal(judgeCommand(line, { rules: [], workspaceRoot: '/home/u/project', home: '/home/u', level: 'auto' }).action, 'deny', line);
    }
  });
});
