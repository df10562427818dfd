import { commandName, isAssignment } from '../shell/shell-text';

/** Words that start a simple command without being its program (the splitter drops most; the danger gate sees raw words). */
const PREFIX_WORDS = new Set(['{', '}', '!', 'if', 'then', 'else', 'elif', 'do', 'while', 'until', 'builtin', 'nohup']);
const NO_VALUE = /^$/;

/** Programs that run the command after their options: which options take a value, and how many operands precede the command. */
const WRAPPERS: Record<string, { valued: RegExp; operands: number }> = {
  nice: { valued: /^-n$/, operands: 0 },
  ionice: { valued: /^-[cnp]$/, operands: 0 },
  stdbuf: { valued: /^-[ioe]$/, operands: 0 },
  chrt: { valued: /^-[TPD]$/, operands: 1 }, // the priority
  taskset: { valued: NO_VALUE, operands: 1 }, // the CPU mask or list
  timeout: { valued: /^-[sk]$/, operands: 1 }, // the duration
  xargs: { valued: /^-[aEdILlnPs]$/, operands: 0 },
  watch: { valued: /^-[nq]$/, operands: 0 },
  // Keywords and builtins that take options before the command (`command -p rm`, `exec -a name rm`, `time -p rm`).
  command: { valued: NO_VALUE, operands: 0 },
  exec: { valued: /^-a$/, operands: 0 },
  time: { valued: NO_VALUE, operands: 0 },
  setsid: { valued: NO_VALUE, operands: 0 },
  flock: { valued: /^-[wEc]$|^--(?:timeout|conflict-exit-code|command)$/, operands: 1 }, // the lock file
  parallel: { valued: /^-[jSa]$|^--(?:jobs|sshlogin|arg-file)$/, operands: 0 },
};

/** The program a simple command runs and its arguments. */
export interface CommandProgram {
  /** Without its directory (`/bin/rm` → `rm`); empty when the words hold no command (only assignments). */
  name: string;
  args: string[];
  /** The command sets variables first (`FOO=1 cmd`, `env FOO=1 cmd`): it may not do what its name says. */
  assignments: boolean;
}

/**
 * The program a simple command runs, past assignments, leading keywords and wrappers (`env`,
 * `nohup`, `timeout 5`, `nice -n 5`, `xargs -0`…): what the danger gate checks and the safety
 * rules judge.
 */
export function programOf(words: readonly string[]): CommandProgram {
  let i = 0;
  let assignments = false;
  const skipOptions = (valued: RegExp) => {
    while (i < words.length && words[i]!.startsWith('-')) {
      const option = words[i++]!;
      if (valued.test(option) && i < words.length) i++;
    }
  };
  while (i < words.length) {
    const word = words[i]!;
    const name = commandName(word);
    const wrapper = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    if (isAssignment(word)) {
      assignments = true;
      i++;
    } else if (PREFIX_WORDS.has(word)) {
      i++;
    } else if (name === 'env') {
      i++;
      skipOptions(/^-[uSC]$|^--(?:unset|chdir)$/);
      while (i < words.length && isAssignment(words[i]!)) {
        assignments = true;
        i++;
      }
    } else if (wrapper) {
      i++;
      skipOptions(wrapper.valued);
      i += wrapper.operands;
    } else {
      return { name, args: words.slice(i + 1), assignments };
    }
  }
  return { name: '', args: [], assignments };
}
