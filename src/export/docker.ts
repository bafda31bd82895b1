/**
 * The `docker` and `docker-vllm` formats: a Dockerfile that runs the same agent.mjs the `script` format
 * proves (`node agent.mjs --serve`), a compose.yaml with the model server (Ollama pulling the model on
 * start, or vLLM with a GPU reservation) and the agent, `.env.example` with the variable names, and a
 * README of three commands. Published ports are bound to 127.0.0.1 only; each service has a healthcheck
 * and the agent starts once the model server is healthy.
 */
import { stringify } from "yaml";
import { type AgentFile, oneLine } from "../config/agent-file.ts";
import { passedThroughEnv } from "../mcp/registry-entry.ts";

export type Engine = "ollama" | "vllm";

/**
 * A value as one word of a POSIX shell command: single-quoted, a quote inside closed, escaped and
 * reopened. Every value that reaches a shell passes through here (a model name `x; touch /tmp/p #`
 * stays one argument of `ollama pull`).
 */
export function shellWord(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * compose interpolates `$NAME` in every string of the file: a literal `$` is written `$$`. Applied to the
 * whole compose document, so no value (a model name, a registry argument) is read as a variable.
 */
function composeLiteral(value: unknown): unknown {
  if (typeof value === "string") return value.replaceAll("$", "$$$$");
  if (Array.isArray(value)) return value.map(composeLiteral);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, composeLiteral(item)]));
  }
  return value;
}

/** The agent's port inside its container and on the host's loopback. */
export const AGENT_PORT = 8080;
const OLLAMA_PORT = 11434;
const VLLM_PORT = 8000;

/**
 * The agent file as the container runs it. The model server's address is left to the environment
 * (OLLAMA_HOST, OPENAI_BASE_URL), which compose sets to the model server's service: the same file then
 * runs outside a container against any server those variables name (the tests' stand-in).
 */
export function containerAgentFile(agent: AgentFile, engine: Engine, hfId?: string): AgentFile {
  if (engine === "ollama") {
    if (agent.model.provider !== "ollama") throw new Error("the docker format runs an ollama model");
    const { host: _address, ...model } = agent.model;
    return { ...agent, model };
  }
  const { name, options, timeoutMs, retryMs, source } = agent.model;
  return {
    ...agent,
    model: {
      name,
      provider: "openai",
      model: hfId!,
      options,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(retryMs === undefined ? {} : { retryMs }),
      ...(agent.model.provider === "openai" && agent.model.apiKeyEnv ? { apiKeyEnv: agent.model.apiKeyEnv } : {}),
      // OPENAI_BASE_URL names the vLLM service: not a loopback address, but the compose network's own
      allowRemote: true,
      source: `${source} (served by vLLM as ${hfId})`,
    },
  };
}

export function dockerfile(): string {
  return `# The exported OnsetLab agent: agent.mjs (everything bundled, no node_modules) and agent.yaml.
# The same command the script format runs: node agent.mjs --serve (GET /health, POST /run).
FROM node:20-slim
WORKDIR /agent
COPY agent.mjs agent.yaml ./
# inside the container the service listens on all interfaces; compose publishes it on 127.0.0.1 only
ENV AGENT_HOST=0.0.0.0 PORT=${AGENT_PORT}
EXPOSE ${AGENT_PORT}
USER node
CMD ["node", "agent.mjs", "--serve"]
`;
}

export function composeFile(agent: AgentFile, engine: Engine): string {
  const modelService = engine === "ollama" ? ollamaService(agent.model.model) : vllmService(agent.model.model);
  const compose = {
    name: "onsetlab-agent",
    services: {
      [engine]: modelService,
      agent: {
        build: ".",
        env_file: [{ path: ".env", required: false }],
        environment:
          engine === "ollama"
            ? { OLLAMA_HOST: `http://ollama:${OLLAMA_PORT}` }
            : { OPENAI_BASE_URL: `http://vllm:${VLLM_PORT}/v1` },
        ports: [`127.0.0.1:${AGENT_PORT}:${AGENT_PORT}`],
        depends_on: { [engine]: { condition: "service_healthy" } },
        healthcheck: {
          test: [
            "CMD",
            "node",
            "-e",
            `fetch('http://127.0.0.1:${AGENT_PORT}/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))`,
          ],
          interval: "10s",
          timeout: "5s",
          retries: 5,
        },
        restart: "unless-stopped",
      },
    },
    volumes: { [engine === "ollama" ? "ollama-models" : "hf-cache"]: {} },
  };
  return `# docker compose up -d --build: the model server, then the agent on http://127.0.0.1:${AGENT_PORT} once it is healthy.\n${stringify(composeLiteral(compose), { lineWidth: 0 })}`;
}

function ollamaService(model: string): Record<string, unknown> {
  return {
    image: "ollama/ollama:latest",
    // serve, wait until it answers, pull the model; healthy only once the model is there
    entrypoint: [
      "/bin/sh",
      "-c",
      `ollama serve & until ollama list >/dev/null 2>&1; do sleep 1; done; ollama pull ${shellWord(model)} && wait`,
    ],
    volumes: ["ollama-models:/root/.ollama"],
    healthcheck: {
      // no shell: `ollama show` fails until the model is pulled
      test: ["CMD", "ollama", "show", model],
      interval: "10s",
      timeout: "5s",
      // a pull of several GB: up to half an hour
      retries: 180,
      start_period: "30s",
    },
    restart: "unless-stopped",
  };
}

/** vLLM's tool-call parser per model family, for the native strategy's tool calls. */
function toolParser(hfId: string): string | undefined {
  if (/qwen/i.test(hfId)) return "hermes";
  if (/llama-3/i.test(hfId)) return "llama3_json";
  return undefined;
}

function vllmService(hfId: string): Record<string, unknown> {
  const parser = toolParser(hfId);
  return {
    image: "vllm/vllm-openai:latest",
    command: [
      "--model",
      hfId,
      "--host",
      "0.0.0.0",
      "--port",
      String(VLLM_PORT),
      ...(parser ? ["--enable-auto-tool-choice", "--tool-call-parser", parser] : []),
    ],
    env_file: [{ path: ".env", required: false }],
    volumes: ["hf-cache:/root/.cache/huggingface"],
    ipc: "host",
    deploy: { resources: { reservations: { devices: [{ driver: "nvidia", count: "all", capabilities: ["gpu"] }] } } },
    healthcheck: {
      test: [
        "CMD",
        "python3",
        "-c",
        `import urllib.request; urllib.request.urlopen('http://127.0.0.1:${VLLM_PORT}/health')`,
      ],
      interval: "15s",
      timeout: "5s",
      retries: 40,
      start_period: "300s",
    },
    restart: "unless-stopped",
  };
}

/** Every variable the agent or the model server reads, by name, once each: the servers', the API key's, HF_TOKEN. */
export function envExample(agent: AgentFile, engine: Engine): string {
  const readers = new Map<string, string[]>();
  for (const server of agent.servers) {
    for (const name of passedThroughEnv(server))
      readers.set(name, [...(readers.get(name) ?? []), `server ${server.name}`]);
  }
  if (agent.model.provider === "openai" && agent.model.apiKeyEnv) {
    readers.set(agent.model.apiKeyEnv, [...(readers.get(agent.model.apiKeyEnv) ?? []), "the model server's API key"]);
  }
  if (engine === "vllm") readers.set("HF_TOKEN", ["a Hugging Face token, for gated models (e.g. meta-llama)"]);
  const lines = [...readers].map(([name, users]) => `# ${users.join(", ")}\n${name}=`);
  return `# Copy to .env and fill in the values (compose reads .env; never commit it).\n${lines.join("\n")}\n`;
}

export function dockerReadme(agent: AgentFile, engine: Engine, sampleQuery: string): string {
  const server =
    engine === "ollama"
      ? `Ollama (pulls ${oneLine(agent.model.model)} on first start)`
      : `vLLM serving ${oneLine(agent.model.model)} on an NVIDIA GPU`;
  const mockNote = agent.servers.some((entry) => entry.mock)
    ? "\nThe servers in agent.yaml are this checkout's mock servers, at paths of the machine that exported them: inside the image they do not exist. Export with `--registry` naming servers the image can start (e.g. `npx -y <package>`), or mount them.\n"
    : "";
  return `# OnsetLab agent: ${oneLine(agent.model.name)} × ${oneLine(agent.config)}

${server}, and the agent (agent.mjs with agent.yaml) on http://127.0.0.1:${AGENT_PORT} (GET /health, POST /run).

\`\`\`sh
cp .env.example .env            # fill in the values it names
docker compose up -d --build    # the agent starts once the model server is healthy
curl -s http://127.0.0.1:${AGENT_PORT}/run -H 'content-type: application/json' -d '{"model": ${JSON.stringify(agent.model.name)}, "query": ${JSON.stringify(sampleQuery)}}'
\`\`\`
${mockNote}
The image runs \`node agent.mjs --serve\`, the same file the \`script\` format runs as \`node agent.mjs "<query>"\`.
Built by \`pnpm export\` on a machine without Docker: the files are checked (compose parses, ports on 127.0.0.1,
healthchecks), and the agent's command is run outside a container; the image itself was not built there.
`;
}
