import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ToolDefinition } from "../tool-protocol/types.ts";
import { RegistryError } from "./errors.ts";
import {
  canUndoWrites,
  isReadOnlyTool,
  loadRegistries,
  loadRegistry,
  parseRegistry,
  type RegistryEntry,
} from "./registry.ts";
import { resetKind } from "./registry-entry.ts";

const good = { name: "github", purpose: "GitHub", transport: "stdio", command: "node", args: ["x.mjs"] };

describe("registry", () => {
  it("accepts stdio and http entries", () => {
    const entries = parseRegistry(
      { servers: [good, { name: "remote", purpose: "r", transport: "http", url: "http://127.0.0.1:9/mcp" }] },
      "r.json",
    );
    expect(entries.map((entry) => entry.name)).toEqual(["github", "remote"]);
  });

  it.each([
    [{}, 'r.json: top level: expected {"servers": [ … ]}'],
    [
      { servers: [{ ...good, name: "GitHub" }] },
      'r.json: servers[0] (GitHub): field "name" must be a lowercase name like github',
    ],
    [{ servers: [good, good] }, 'r.json: servers[1] (github): field "name" is used by an earlier entry'],
    [
      { servers: [{ ...good, transport: "ws" }] },
      'r.json: servers[0] (github): field "transport" must be "stdio", "http" or "sse"',
    ],
    [
      { servers: [{ ...good, command: undefined }] },
      'r.json: servers[0] (github): field "command" is required for a stdio server',
    ],
    [
      { servers: [{ ...good, args: "x.mjs" }] },
      'r.json: servers[0] (github): field "args" must be an array of strings',
    ],
    [
      { servers: [{ name: "h", purpose: "p", transport: "http", url: "nope" }] },
      'r.json: servers[0] (h): field "url" must be an http:// or https:// URL for an http server, not "nope"',
    ],
    [
      { servers: [{ ...good, reset: "reboot" }] },
      'r.json: servers[0] (github): field "reset" must be one of restart, fixture, command, none, not "reboot"',
    ],
    [
      { servers: [{ ...good, reset: "fixture" }] },
      'r.json: servers[0] (github): field "fixture_dir" is required with reset "fixture"',
    ],
    [
      { servers: [{ ...good, reset: "command" }] },
      'r.json: servers[0] (github): field "reset_command" is required with reset "command"',
    ],
    [
      { servers: [{ ...good, reset_command: ["true"] }] },
      'r.json: servers[0] (github): field "reset_command" goes with reset "command" only',
    ],
    [
      { servers: [{ ...good, args: ["{fixture}/x"] }] },
      'r.json: servers[0] (github): field "args" uses {fixture}, which only a reset "fixture" server has',
    ],
    [
      { servers: [{ ...good, mock: true, reset: "none" }] },
      'r.json: servers[0] (github): field "reset" does not apply to a mock',
    ],
    [{ servers: [{ ...good, resets: "none" }] }, 'r.json: servers[0] (github): field "resets" is not a registry field'],
    [
      { servers: [{ ...good, env: { "A-B": "x" } }] },
      'r.json: servers[0] (github): field "env" has "A-B", which is not a variable name',
    ],
    [
      { servers: [{ name: "h", purpose: "p", transport: "http", url: "http://127.0.0.1:9/mcp", reset: "restart" }] },
      'r.json: servers[0] (h): field "reset" cannot be "restart" for a remote server',
    ],
  ])("names the entry and field: %j", (raw, message) => {
    expect(() => parseRegistry(raw, "r.json")).toThrow(message);
  });

  it("reports an unreadable or non-JSON file by path", () => {
    const dir = mkdtempSync(join(tmpdir(), "registry-"));
    const file = join(dir, "registry.json");
    expect(() => loadRegistry(file)).toThrow(RegistryError);
    writeFileSync(file, "{ nope");
    expect(() => loadRegistry(file)).toThrow(`${file}: not valid JSON`);
  });

  it("checks that a fixture folder exists, relative to the registry file", () => {
    const dir = mkdtempSync(join(tmpdir(), "registry-"));
    const entry = { ...good, reset: "fixture", fixture_dir: "data", args: ["x.mjs", "{fixture}"] };
    expect(() => parseRegistry({ servers: [entry] }, "r.json", dir)).toThrow(
      `r.json: servers[0] (github): field "fixture_dir" ${join(dir, "data")} is not a folder`,
    );
    mkdirSync(join(dir, "data"));
    expect(parseRegistry({ servers: [entry] }, "r.json", dir)[0]).toMatchObject({ reset: "fixture" });
  });

  it("merges registry files; a server name in two files is an error naming both", () => {
    const dir = mkdtempSync(join(tmpdir(), "registry-"));
    const a = join(dir, "a.json");
    const b = join(dir, "b.json");
    writeFileSync(a, JSON.stringify({ servers: [good] }));
    writeFileSync(b, JSON.stringify({ servers: [{ ...good, name: "other" }] }));
    const merged = loadRegistries([a, b]);
    expect(merged.servers.map((entry) => entry.name)).toEqual(["github", "other"]);
    expect(merged.baseDirs).toEqual({ github: dir, other: dir });
    writeFileSync(b, JSON.stringify({ servers: [good] }));
    expect(() => loadRegistries([a, b])).toThrow(`server "github" is declared in both ${a} and ${b}`);
  });

  it("says which servers can undo a write, and which tools are read-only", () => {
    const entry = (changes: Partial<RegistryEntry>): RegistryEntry => ({ ...(good as RegistryEntry), ...changes });
    expect(resetKind(entry({}))).toBe("restart");
    expect(resetKind(entry({ mock: true }))).toBe("mock");
    expect(
      [
        entry({ mock: true }),
        entry({ reset: "fixture" }),
        entry({ reset: "command" }),
        entry({}),
        entry({ reset: "none" }),
      ].map(canUndoWrites),
    ).toEqual([true, true, true, false, false]);
    const tool = (name: string, readOnlyHint?: boolean): ToolDefinition => ({
      server: "github",
      name,
      description: "",
      inputSchema: {},
      annotations: readOnlyHint === undefined ? {} : { readOnlyHint },
    });
    const declared = entry({ read_only_tools: ["search"] });
    expect([tool("get", true), tool("search"), tool("write")].map((t) => isReadOnlyTool(declared, t))).toEqual([
      true,
      true,
      false,
    ]);
  });
});
