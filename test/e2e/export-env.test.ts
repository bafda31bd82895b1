/**
 * A registry entry's `env`, in both forms (`["NAME"]` passes variables through; `{NAME: value}` sets
 * them, null passing one through), travels into the exported agent file so that the exported agent
 * starts the server with the environment the bench gives it: the same values, `{fixture}` filled with a
 * fresh copy of the same fixture folder. Values passed through are never written and are redacted; a
 * literal value that looks like a secret is refused.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAgentFile } from "../../src/config/agent-file.ts";
import { exportAgent } from "../../src/export/export.ts";
import { openAgent } from "../../src/export/exported-agent.ts";
import { ClientPool } from "../../src/mcp/pool.ts";
import { loadRegistry, type RegistryEntry } from "../../src/mcp/registry.ts";
import { ScriptedModel } from "../../src/models/scripted.ts";
import { runInProcess } from "../support/cli-in-process.ts";

const SERVER = new URL("../fixtures/env-echo/server.mjs", import.meta.url).pathname;
const PASSED = "passed-through-value-1234";
const LISTED = "listed-value-5678";
const ENV = { ENV_ECHO_PASSED: PASSED, ENV_ECHO_LISTED: LISTED, ENV_ECHO_UNDECLARED: "not for the server" };

interface Seen {
  cwd: string;
  files: string[];
  env: Record<string, string | null>;
}

let root: string;
const previous = Object.fromEntries(Object.keys(ENV).map((name) => [name, process.env[name]]));
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "export-env-"));
  Object.assign(process.env, ENV);
});
afterAll(() => {
  for (const [name, value] of Object.entries(previous)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(root, { recursive: true, force: true });
});

let folders = 0;
/** A registry file (with a fixture folder beside it) holding the echo server with these fields. */
function registryWith(fields: Partial<RegistryEntry>): string {
  const dir = join(root, `registry-${++folders}`);
  mkdirSync(join(dir, "fx"), { recursive: true });
  writeFileSync(join(dir, "fx", "seed.txt"), "seed");
  const server = { name: "echo", purpose: "shows its environment", transport: "stdio", command: "node", ...fields };
  writeFileSync(join(dir, "registry.json"), JSON.stringify({ servers: [{ ...server, args: [SERVER] }] }));
  return join(dir, "registry.json");
}

/** What the server says when the bench's client pool starts it from the registry. */
async function seenFromRegistry(file: string): Promise<Seen> {
  const pool = await ClientPool.open(loadRegistry(file), { transport: "stdio" });
  try {
    return JSON.parse((await pool.callTool("show_env", {})).text) as Seen;
  } finally {
    await pool.close();
  }
}

/** What the server says when the exported agent (native calling, a scripted model) calls it. */
async function seenFromAgent(agentFile: string): Promise<{ seen: Seen; redacted: string }> {
  const model = new ScriptedModel({ native: [{ toolCalls: [{ name: "show_env", arguments: {} }] }, "shown"] });
  const agent = await openAgent(readAgentFile(agentFile), { file: agentFile, model });
  try {
    const result = await agent.run("show the environment");
    const text = result.toolCalls[0]!.text;
    return { seen: JSON.parse(text) as Seen, redacted: agent.redactor.text(text) };
  } finally {
    await agent.close();
  }
}

async function exportConfig(registry: string): Promise<string> {
  const out = join(root, `out-${++folders}`);
  await exportAgent({ format: "config", model: "sim:oracle", config: "native", registry, out });
  return join(out, "agent.yaml");
}

/** A fixture copy's path, as the same for every copy (each start makes its own). */
const sameCopy = (text: string | null) => text?.replace(/onsetlab-fixture-echo-[^/]+/, "<copy>") ?? null;

describe("export: a server's env in the agent file", () => {
  it.each<[string, Partial<RegistryEntry>]>([
    ["the list form", { env: ["ENV_ECHO_PASSED", "ENV_ECHO_LISTED"] }],
    [
      "the object form, with a fixture",
      {
        env: { ENV_ECHO_PLAIN: "plain value", ENV_ECHO_PASSED: null, ENV_ECHO_FIXTURE: "{fixture}/data" },
        reset: "fixture",
        fixture_dir: "fx",
      },
    ],
  ])("%s: the exported agent starts the server with the env the bench gives it", async (_form, fields) => {
    const registry = registryWith(fields);
    const agentFile = await exportConfig(registry);
    const written = readFileSync(agentFile, "utf8");
    expect(written).not.toContain(PASSED);
    expect(written).not.toContain(LISTED);
    expect(readAgentFile(agentFile).servers[0]!.env).toEqual(fields.env);

    const bench = await seenFromRegistry(registry);
    const { seen, redacted } = await seenFromAgent(agentFile);
    expect(bench.env.ENV_ECHO_PASSED).toBe(PASSED);
    expect(bench.env.ENV_ECHO_UNDECLARED).toBeNull();
    expect({ ...seen.env, ENV_ECHO_FIXTURE: sameCopy(seen.env.ENV_ECHO_FIXTURE!) }).toEqual({
      ...bench.env,
      ENV_ECHO_FIXTURE: sameCopy(bench.env.ENV_ECHO_FIXTURE!),
    });
    expect(sameCopy(seen.cwd)).toBe(sameCopy(bench.cwd));
    expect(seen.files).toEqual(bench.files);
    // what leaves the exported agent carries the pass-through value's name, not the value
    expect(redacted).toContain("[redacted:ENV_ECHO_PASSED]");
    expect(redacted).not.toContain(PASSED);
  });

  it("the object form with a fixture: {fixture} is a fresh copy of the registry's fixture folder", async () => {
    const registry = registryWith({ env: { ENV_ECHO_FIXTURE: "{fixture}/data" }, reset: "fixture", fixture_dir: "fx" });
    const { seen } = await seenFromAgent(await exportConfig(registry));
    expect(seen.env.ENV_ECHO_FIXTURE).toBe(`${seen.cwd}/data`);
    expect(seen.files).toEqual(["seed.txt"]);
  });

  it("docker: .env.example names the variables passed through, not the ones the registry sets", async () => {
    const registry = registryWith({ env: { ENV_ECHO_PLAIN: "plain value", ENV_ECHO_PASSED: null } });
    const out = join(root, "docker");
    await exportAgent({ format: "docker", model: "qwen2.5:3b", config: "onsetlab", registry, out });
    const example = readFileSync(join(out, ".env.example"), "utf8");
    expect(example).toMatch(/^ENV_ECHO_PASSED=$/m);
    expect(example).not.toContain("ENV_ECHO_PLAIN");
    expect(readAgentFile(join(out, "agent.yaml")).servers[0]!.env).toEqual({
      ENV_ECHO_PLAIN: "plain value",
      ENV_ECHO_PASSED: null,
    });
  });

  it("a literal value that looks like a secret is refused, naming the variable: one line, exit 2", async () => {
    const registry = registryWith({ env: { ENV_ECHO_PLAIN: "fine", API_TOKEN: "hunter2-literal" } });
    const out = join(root, "refused");
    const outcome = await runInProcess([
      "export",
      "--format",
      "config",
      "--model",
      "sim:oracle",
      "--config",
      "native",
      "--registry",
      registry,
      "--out",
      out,
    ]);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(
      /^error: --registry \S+: servers\[0\] \(echo\): env\.API_TOKEN looks like a secret value; list only the environment variable's NAME \(env: \["NAME"\] or \{"NAME": null\}/,
    );
    expect(outcome.stderr.trimEnd().split("\n")).toHaveLength(1);
  });
});
