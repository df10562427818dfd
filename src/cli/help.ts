/** Printed by `opendev --help`. */
export const HELP = `Usage: opendev [options]

  opendev -p "<prompt>"     run one prompt, print the answer, exit (0 = success)
  opendev                   start an interactive session in this terminal
  opendev -p /help          a prompt starting with / is a slash command, run without the model
  opendev mcp <command>     list, add, remove, enable, disable, trust or untrust MCP servers (opendev mcp --help)
  opendev models            the models the provider offers: an OpenAI-compatible server's own list (opendev models --help)
  opendev trust [--show]    review this folder's OpenDev configuration and trust it (opendev trust --help)
  opendev acp               run as an Agent Client Protocol agent on stdio, for an editor (Zed, JetBrains…)
  opendev untrust           stop trusting this folder's configuration

Options:
  -p, --prompt <text>         the prompt to run non-interactively
  -C, --working-dir <dir>     the project folder (default: the current directory)
      --provider <name>       openai | anthropic | openai-compatible | azure-openai | bedrock | vertex |
                              gemini | openrouter (default: OPENDEV_PROVIDER, else openai)
  -m, --model <id>            the model (default: OPENDEV_MODEL, else the provider's default)
      --openai-api <api>      auto | chat | responses: OpenAI's Chat Completions or Responses API
                              (default: OPENDEV_OPENAI_API, else auto: Responses for o-series, gpt-5
                              and codex models, Chat Completions for the others)
      --approval <level>      manual | semi-auto | auto (default: semi-auto). With -p nobody can answer,
                              so anything that needs approval is denied unless --approval auto, which
                              approves changes inside the workspace only. Never without a person:
                              .git/ internals, .opendev/, .claude/, .vscode/, .mcp.json, secrets
      --allow-outside-workspace  with -p --approval auto: also writes outside the workspace
      --allow-risky-commands     with -p --approval auto: also force pushes, git reset/clean/rm,
                              rm -r and the other caution rules, and command lines it cannot read
      --allow-unsandboxed        with -p --approval auto: also commands the agent asks to run
                              outside the sandbox (sandbox: false) and servers, which
                              run outside it (npm run dev, flask run…)
      --thinking <level>      off | low | medium | high: reasoning before acting (default:
                              OPENDEV_THINKING, else off with -p and medium interactively);
                              thinkingCadence in settings.json says before which steps
      --output-format <fmt>   text | json | stream-json, with -p (default: text)
                                text         the final answer on stdout
                                json         one object: status, result, taskStatus, usage, cost, sessionId, error
                                stream-json  one JSON event per line as it happens, the last {"type":"result",…}
      --azure-deployment <name>   Azure OpenAI: the deployment (default: the model's name)
      --azure-api-version <v>     Azure OpenAI: the API version (default 2024-10-21)
      --aws-region <region>       Bedrock: the AWS region (default: AWS_REGION, else us-east-1)
      --vertex-project <id>       Vertex AI: the Google Cloud project (default: ANTHROPIC_VERTEX_PROJECT_ID,
                                  GOOGLE_CLOUD_PROJECT, else your Application Default Credentials')
      --vertex-region <region>    Vertex AI: the region (default: CLOUD_ML_REGION, else us-east5)
  -c, --continue              continue this project's latest session
  -r, --resume <id>           continue a given session (ids: /sessions)
      --max-iterations <n>    the most model steps per prompt (default 50)
  -v, --verbose               show tool calls and reasoning on stderr (with -p)
      --debug-file <path>     append a log to <path>: every provider request (model, tokens, latency,
                              retries), MCP servers and tool calls, hooks, undo, trust and sandbox
                              events, with time and level; keys are masked (OPENDEV_LOG_LEVEL: trace |
                              debug | info | warn | error, default debug; trace adds the messages sent)
      --version               print the version
  -h, --help                  show this help

Exit codes: 0 done · 1 the agent failed or reported failure · 2 bad usage or configuration · 130 Ctrl+C

Environment:
  OPENAI_API_KEY, OPENAI_BASE_URL          OpenAI, or any OpenAI-compatible server (Ollama: http://localhost:11434/v1)
  ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL    Anthropic
  AZURE_OPENAI_ENDPOINT, AZURE_OPENAI_API_KEY  Azure OpenAI (or AZURE_OPENAI_AD_TOKEN: an Entra ID token);
                                           OPENAI_API_VERSION, AZURE_OPENAI_DEPLOYMENT
  AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_PROFILE, AWS_REGION
                                           Bedrock (or AWS_BEARER_TOKEN_BEDROCK: a Bedrock API key)
  GOOGLE_OAUTH_ACCESS_TOKEN, CLOUD_ML_REGION, ANTHROPIC_VERTEX_PROJECT_ID
                                           Vertex AI (without a token: Application Default Credentials)
  GEMINI_API_KEY                           Gemini
  OPENROUTER_API_KEY                       OpenRouter
  OPENDEV_PROVIDER, OPENDEV_MODEL          defaults for --provider and --model
  OPENDEV_OPENAI_API                       default for --openai-api
  OPENDEV_CONTEXT_WINDOW                   the model's context window in tokens (for unlisted models)
  OPENDEV_EMBEDDING_MODEL                  embeddings for the playbook (default: a local lexical embedding)
  OPENDEV_PLAYBOOK_LEARN=0                 the playbook stops learning (no extra calls every 40 messages)
  OPENDEV_SESSION_TITLES                   0: titles from the first prompt only; 1: from the compact model
  OPENDEV_THINKING                         default for --thinking
  OPENDEV_SHELL_PROFILE=0                  commands start from this environment, without reading your shell's profile
  OPENDEV_UNDO_BUDGET_MS                   how long a step waits for its undo snapshot (default 2000; past it the step cannot be undone)
  OPENDEV_CHROMIUM                         the Chromium or Chrome the web tools drive (default: found on the machine)
  OPENDEV_WEB_SEARCH_URL                   web_search's endpoint (a SearXNG instance; default DuckDuckGo's HTML page)
  OPENDEV_HOME                             where sessions and settings live (default ~/.opendev)
  OPENDEV_LOG_LEVEL                        the least level --debug-file writes (default debug)`;


/** Printed by `opendev models --help`. */
export const MODELS_HELP = `Usage: opendev models [--provider <name>] [-m <id>] [-C <dir>]

  The models the configured provider offers, the current one starred. An OpenAI-compatible server
  (Ollama, LM Studio, vLLM, OpenRouter…) at OPENAI_BASE_URL is asked for its own list (GET /models, with
  OPENAI_API_KEY if set); on Ollama each model's context window and whether it can call tools are
  asked too (a model without tool calling cannot edit files or run commands). Other providers:
  the model catalogue's list. The settings are the session's: flags, environment, settings files.

  Exit: 0 listed, 1 the server did not answer, 2 bad usage or configuration.`;

/** Printed by `opendev mcp --help`. */
export const MCP_HELP = `Usage: opendev mcp <command> [-C <dir>]

  opendev mcp list [--test]      the configured MCP servers; --test starts each enabled one, lists its
                                 tools and reports the time taken or the error (exit 1 if one fails)
  opendev mcp add <name> --command <cmd> [args…] [--env K=V]… [--description <text>] [--project]
  opendev mcp add <name> --url <url> [--header K=V]… [--description <text>] [--project]
                                 add a server to OPENDEV_HOME/settings.json, or with --project to the
                                 project's .opendev/settings.json; after --command every word is the
                                 server's command line (after a -- even words like --env)
  opendev mcp remove <name> [--project|--user]
                                 remove it from the OpenDev settings file that defines it
  opendev mcp enable <name>      turn it on or off where it is configured; a server from the project's
  opendev mcp disable <name>     .mcp.json gets an override in .opendev/settings.json (.mcp.json is
                                 never rewritten)
  opendev mcp trust <name>       let a server the project defines start without asking (remembered in
  opendev mcp untrust <name>     OPENDEV_HOME/mcp-trust.json for this project and this exact definition);
                                 untrust forgets it, so the next start asks again

  -C, --working-dir <dir>        the project (default: the current directory)

Servers are read from OPENDEV_HOME/settings.json ("mcp_servers"), the project's .mcp.json
("mcpServers", the format other agents use) and .opendev/settings.json ("mcp_servers"); for the same
name the project settings win over .mcp.json, which wins over the user settings. No API key is needed.
A server the project defines asks before its first start in a session (interactive sessions); with
-p it starts only when trusted.
Exit codes: 0 done · 1 a file could not be written or a server failed its check · 2 bad usage`;


/** Printed by `opendev trust --help`. */
export const TRUST_HELP = `Usage: opendev trust [--show] [--yes] [-C <dir>]
       opendev untrust [-C <dir>]

A folder's own configuration (.opendev/settings.json, .opendev/permissions.json, .claude/settings.json,
.claude/settings.local.json, .mcp.json) may only make OpenDev stricter until you trust it: it cannot
choose where requests and your API key go, raise the approval level, add allow rules, run hooks or
start MCP servers without asking. An interactive session asks before its first turn; -p never asks.

  opendev trust            show what the configuration wants to do and ask; then, for each endpoint it
                           chooses, ask whether your API key may be sent there
  opendev trust --show     only show it, and whether the folder is trusted
  opendev trust --yes      trust and confirm without asking (after reading --show)
  opendev untrust          forget the trust: the next session asks again

Trust is kept in OPENDEV_HOME/trust.json for this folder and the exact content of those files: a change
to any of them (a pull, a teammate, the agent) asks again, naming the file.
  -C, --working-dir <dir>  the folder (default: the current directory)
Exit codes: 0 done · 1 not trusted or not saved · 2 bad usage`;
