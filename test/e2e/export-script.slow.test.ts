/**
 * The exported agent as a user runs it: `export --format script` for qwen2.5:3b into an empty temp folder,
 * then plain `node agent.mjs` there (no checkout above it, no node_modules) against the stand-in Ollama
 * started here, with the mock servers of the default registry. Also `--serve`, and the docker formats:
 * their compose files checked, and the command their Dockerfile's CMD runs, run outside a container.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type Standin, startStandin } from "../../mock-servers/ollama/server.ts";
import { loadDataset } from "../../src/bench/dataset/load.ts";
import type { DatasetItem } from "../../src/bench/dataset/types.ts";
import { readAgentFile } from "../../src/config/agent-file.ts";
import { createSimProvider } from "../../src/models/sim/index.ts";
import { runInProcess } from "../support/cli-in-process.ts";

const items = loadDataset().map((loaded) => loaded.item);
const item = (id: string): DatasetItem => items.find((candidate) => candidate.id === id)!;
/** A read (answer "Add dark mode toggle") and a write with an end-state check. */
const READ = item("gh-s004");
const WRITE = item("gh-s029");

let standin: Standin;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  // the oracle never errs: the answer is right exactly when the exported pipeline works
  standin = await startStandin({ provider: createSimProvider({ profile: "oracle", gold: items }), port: 0 });
});

afterAll(async () => {
  for (const child of children) child.kill("SIGTERM");
  await standin.close();
});

/** A fresh empty folder under the system temp dir: no checkout and no node_modules on its lookup path. */
function emptyFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "onsetlab-export-"));
  for (let up = dir; dirname(up) !== up; up = dirname(up)) {
    expect(existsSync(join(up, "node_modules")) || existsSync(join(up, "package.json"))).toBe(false);
  }
  return dir;
}

async function exportTo(format: string, extra: string[] = []): Promise<string> {
  const out = emptyFolder();
  const outcome = await runInProcess([
    "export",
    "--model",
    "qwen2.5:3b",
    "--config",
    "onsetlab",
    "--format",
    format,
    "--out",
    out,
    ...extra,
  ]);
  expect(outcome.stderr).toBe("");
  expect(outcome.code).toBe(0);
  return out;
}

/** The environment a user's shell would give: no NODE_PATH, the stand-in as the Ollama and OpenAI endpoint. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { NODE_PATH: _path, NODE_OPTIONS: _options, ...env } = process.env;
  return { ...env, OLLAMA_HOST: standin.url, OPENAI_BASE_URL: `${standin.url}/v1`, ...extra };
}

function runScript(dir: string, args: string[], env = userEnv()) {
  return promisify(execFile)(process.execPath, args, { cwd: dir, env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

/** Starts a serving command; resolves with its URL once it says it listens. */
function serveFrom(dir: string, command: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(command[0]!, command.slice(1), { cwd: dir, env });
  children.push(child);
  let output = "";
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    output += chunk;
  });
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk: string) => {
      output += chunk;
      const found = / at (http:\/\/127\.0\.0\.1:\d+) /.exec(output);
      if (found) resolve(found[1]!);
    });
    child.once("exit", (code) => reject(new Error(`exited (${code}) before serving: ${output}`)));
  });
}

async function postRun(url: string, body: Record<string, unknown>) {
  const response = await fetch(`${url}/run`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const expectedAnswer = (entry: DatasetItem) => (entry.answer as { contains: string[] }).contains[0]!;

describe("export --format script", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await exportTo("script");
  });

  it("writes agent.mjs and agent.yaml only, agent.mjs with every package bundled", () => {
    expect(readdirSync(dir).sort()).toEqual(["agent.mjs", "agent.yaml"]);
    const bundle = readFileSync(join(dir, "agent.mjs"), "utf8");
    // no package import is left for node_modules to resolve: only Node's built-ins
    const imports = [...bundle.matchAll(/^import .* from ["']([^"']+)["'];?$/gm)].map((match) => match[1]!);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((specifier) => !isBuiltin(specifier))).toEqual([]);
    expect(readAgentFile(join(dir, "agent.yaml")).model).toMatchObject({ name: "qwen2.5:3b", provider: "ollama" });
  });

  it('`node agent.mjs "<query>"` answers a dataset query right through the stand-in and the mock servers', async () => {
    const { code, stdout, stderr } = await runScript(dir, ["agent.mjs", READ.query]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain(expectedAnswer(READ));
    expect(standin.requests()).toBeGreaterThan(0);
  });

  it("--json prints the whole trace; --dry-run previews the write", async () => {
    const { code, stdout } = await runScript(dir, ["agent.mjs", "--json", "--dry-run", WRITE.query]);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as { toolCalls: { tool: string; dryRun?: boolean; data?: unknown }[] };
    expect(result.toolCalls.find((call) => call.tool === "issue_write")).toMatchObject({
      dryRun: true,
      data: { dryRun: true, tool: "issue_write" },
    });
  });

  it("a bad call is one clear line and exit 2", async () => {
    const { code, stderr } = await runScript(dir, ["agent.mjs"]);
    expect(code).toBe(2);
    expect(stderr.split("\n")[0]).toBe("error: give a query");
  });

  it("--serve answers /health and /run on 127.0.0.1", async () => {
    const url = await serveFrom(dir, [process.execPath, "agent.mjs", "--serve", "--port", "0"], userEnv());
    const health = await fetch(`${url}/health`);
    expect(await health.json()).toEqual({ status: "ok", version: "0.1.0" });
    const run = await postRun(url, { model: "qwen2.5:3b", query: READ.query });
    expect(run.status).toBe(200);
    expect(run.body.answer).toContain(expectedAnswer(READ));
    const dry = await postRun(url, { model: "qwen2.5:3b", query: WRITE.query, dryRun: true });
    const calls = (dry.body.result as { toolCalls: { tool: string; dryRun?: boolean }[] }).toolCalls;
    expect(calls.find((call) => call.tool === "issue_write")?.dryRun).toBe(true);
    const wrong = await postRun(url, { model: "llama3.2:3b", query: READ.query });
    expect(wrong).toMatchObject({ status: 400, body: { error: { code: "UNKNOWN_MODEL", field: "model" } } });
  });
});

/** What compose must hold for this project: every published port on 127.0.0.1, every service checked. */
const composeSchema = {
  type: "object",
  required: ["services"],
  properties: {
    services: {
      type: "object",
      required: ["agent"],
      additionalProperties: {
        type: "object",
        required: ["healthcheck"],
        properties: {
          healthcheck: {
            type: "object",
            required: ["test", "interval", "retries"],
            properties: { test: { type: "array", minItems: 2 } },
          },
          ports: { type: "array", items: { type: "string", pattern: "^127\\.0\\.0\\.1:\\d+:\\d+$" } },
        },
      },
    },
  },
};
const checkCompose = new Ajv({ allErrors: true }).compile(composeSchema);

/** The Dockerfile's CMD (exec form) and ENV lines. */
function dockerfileCommand(dir: string): { cmd: string[]; env: Record<string, string> } {
  const text = readFileSync(join(dir, "Dockerfile"), "utf8");
  const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(text)![1]!) as string[];
  const env = Object.fromEntries(
    [...text.matchAll(/^ENV (.+)$/gm)].flatMap((match) =>
      match[1]!.split(/\s+/).map((pair) => pair.split("=") as [string, string]),
    ),
  );
  return { cmd, env };
}

describe.each([
  { format: "docker", engine: "ollama", extra: [] as string[] },
  { format: "docker-vllm", engine: "vllm", extra: [] as string[] },
])("export --format $format", ({ format, engine, extra }) => {
  let dir: string;

  beforeAll(async () => {
    dir = await exportTo(format, extra);
  });

  it("writes the deployment files; compose parses and passes the services check", () => {
    expect(readdirSync(dir).sort()).toEqual([
      ".env.example",
      "Dockerfile",
      "README.md",
      "agent.mjs",
      "agent.yaml",
      "compose.yaml",
    ]);
    const compose = parse(readFileSync(join(dir, "compose.yaml"), "utf8")) as {
      services: Record<string, Record<string, unknown>>;
    };
    expect(checkCompose(compose), JSON.stringify(checkCompose.errors)).toBe(true);
    expect(Object.keys(compose.services).sort()).toEqual(["agent", engine].sort());
    expect(compose.services.agent!.ports).toEqual(["127.0.0.1:8080:8080"]);
    expect(compose.services.agent!.depends_on).toEqual({ [engine]: { condition: "service_healthy" } });
    // the model server publishes nothing: only the agent is reachable, and only from this machine
    expect(compose.services[engine]!.ports).toBeUndefined();
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    expect(readme.match(/^(cp|docker|curl) .*/gm)).toHaveLength(3);
  });

  if (engine === "ollama") {
    it("the ollama service pulls the model on start and is healthy once it has it", () => {
      const compose = parse(readFileSync(join(dir, "compose.yaml"), "utf8")) as {
        services: { ollama: { entrypoint: string[]; healthcheck: { test: string[] } } };
      };
      expect(compose.services.ollama.entrypoint.join(" ")).toContain("ollama pull 'qwen2.5:3b'");
      expect(compose.services.ollama.healthcheck.test.join(" ")).toContain("qwen2.5:3b");
    });
  } else {
    it("vLLM serves the Hugging Face id on a reserved GPU; the agent talks openai to it", () => {
      const compose = parse(readFileSync(join(dir, "compose.yaml"), "utf8")) as {
        services: { vllm: { command: string[]; deploy: unknown } };
      };
      expect(compose.services.vllm.command.slice(0, 2)).toEqual(["--model", "Qwen/Qwen2.5-3B-Instruct"]);
      expect(compose.services.vllm.deploy).toEqual({
        resources: { reservations: { devices: [{ driver: "nvidia", count: "all", capabilities: ["gpu"] }] } },
      });
      expect(readAgentFile(join(dir, "agent.yaml")).model).toMatchObject({
        provider: "openai",
        model: "Qwen/Qwen2.5-3B-Instruct",
        allowRemote: true,
      });
      expect(readFileSync(join(dir, ".env.example"), "utf8")).toMatch(/^HF_TOKEN=$/m);
    });
  }

  it("the Dockerfile's CMD, run in the folder, serves /health and answers /run", async () => {
    const { cmd, env } = dockerfileCommand(dir);
    expect(cmd).toEqual(["node", "agent.mjs", "--serve"]);
    expect(env).toMatchObject({ AGENT_HOST: "0.0.0.0", PORT: "8080" });
    // the image's environment, but on this machine's loopback and a free port
    const url = await serveFrom(
      dir,
      [process.execPath, ...cmd.slice(1)],
      userEnv({ ...env, AGENT_HOST: "127.0.0.1", PORT: "0" }),
    );
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const run = await postRun(url, { model: "qwen2.5:3b", query: READ.query });
    expect(run.body.answer).toContain(expectedAnswer(READ));
  });
});
