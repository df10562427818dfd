/** Printed by `opendev --help`. */
export const HELP = `Usage: opendev [options]

  opendev -p "<prompt>"     run one prompt, print the answer, exit (0 = success)
  opendev                   start an interactive session in this terminal
  opendev -p /help          a prompt starting with / is a slash command, run without the model

Options:
  -p, --prompt <text>         the prompt to run non-interactively
  -C, --working-dir <dir>     the project folder (default: the current directory)
      --provider <name>       openai | anthropic | openai-compatible (default: OPENDEV_PROVIDER, else openai)
  -m, --model <id>            the model (default: OPENDEV_MODEL, else the provider's default)
      --approval <level>      manual | semi-auto | auto (default: semi-auto). With -p nobody can answer,
                              so anything that needs approval is denied unless --approval auto
      --thinking <level>      off | low | medium | high: reasoning before each action (default:
                              OPENDEV_THINKING, else off with -p and medium interactively)
      --output-format <fmt>   text | json | stream-json, with -p (default: text)
                                text         the final answer on stdout
                                json         one object: status, result, taskStatus, usage, cost, sessionId, error
                                stream-json  one JSON event per line as it happens, the last {"type":"result",…}
  -c, --continue              continue this project's latest session
  -r, --resume <id>           continue a given session (ids: /sessions)
      --max-iterations <n>    the most model steps per prompt (default 50)
  -v, --verbose               show tool calls and reasoning on stderr (with -p)
      --version               print the version
  -h, --help                  show this help

Exit codes: 0 done · 1 the agent failed or reported failure · 2 bad usage or configuration · 130 Ctrl+C

Environment:
  OPENAI_API_KEY, OPENAI_BASE_URL          OpenAI, or any OpenAI-compatible server (Ollama: http://localhost:11434/v1)
  ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL    Anthropic
  OPENDEV_PROVIDER, OPENDEV_MODEL          defaults for --provider and --model
  OPENDEV_CONTEXT_WINDOW                   the model's context window in tokens (for unlisted models)
  OPENDEV_EMBEDDING_MODEL                  embeddings for the playbook (default: a local lexical embedding)
  OPENDEV_PLAYBOOK_LEARN=0                 the playbook stops learning (no extra calls every 5 messages)
  OPENDEV_THINKING                         default for --thinking
  OPENDEV_HOME                             where sessions and settings live (default ~/.opendev)`;
