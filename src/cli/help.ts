/** Printed by `opendev --help`. */
export const HELP = `Usage: opendev [options]

  opendev -p "<prompt>"     run one prompt, print the answer, exit (0 = success)
  opendev                   start an interactive session in this terminal

Options:
  -p, --prompt <text>         the prompt to run non-interactively
  -C, --working-dir <dir>     the project folder (default: the current directory)
      --provider <name>       openai | anthropic | openai-compatible (default: openai, or OPENDEV_PROVIDER)
  -m, --model <id>            the model (default: OPENDEV_MODEL or the provider's default)
      --output-format <fmt>   text | json (default: text)
  -v, --verbose               show tool calls on stderr
      --version               print the version
  -h, --help                  show this help

Environment:
  OPENAI_API_KEY, OPENAI_BASE_URL          OpenAI, or any OpenAI-compatible server (Ollama: http://localhost:11434/v1)
  ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL    Anthropic
  OPENDEV_PROVIDER, OPENDEV_MODEL          defaults for --provider and --model`;
