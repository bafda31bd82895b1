import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RegistryError } from "./errors.ts";
import { loadRegistry, parseRegistry } from "./registry.ts";

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
      'r.json: servers[0] (github): field "transport" must be "stdio" or "http"',
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
      'r.json: servers[0] (h): field "url" must be an absolute URL for an http server',
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
});
