import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = new URL("../..", import.meta.url).pathname;

/** The CLI exactly as a user runs it: a child process, the stdio servers spawned from registry.json. */
async function cli(...args: string[]) {
  return run(process.execPath, ["--import", "tsx", "src/cli/bin.ts", ...args], { cwd: root, timeout: 60_000 });
}

describe("onsetlab mock list (stdio)", () => {
  it("connects to all eight servers and lists ≥ 100 tools, every one with an output schema", async () => {
    const { stdout } = await cli("mock", "list", "--json");
    const listing = JSON.parse(stdout) as { server: string; tools: { name: string; hasOutputSchema: boolean }[] }[];
    expect(listing.map((entry) => entry.server)).toHaveLength(8);
    const tools = listing.flatMap((entry) => entry.tools);
    expect(tools.length).toBeGreaterThanOrEqual(100);
    expect(tools.filter((tool) => !tool.hasOutputSchema)).toEqual([]);
    expect(tools.some((tool) => tool.name.startsWith("__"))).toBe(false);
    expect(listing.find((entry) => entry.server === "github")?.tools).toHaveLength(43);
  });

  it("rejects a bad --transport with exit code 2 and one line naming the flag", async () => {
    const failure = await cli("mock", "list", "--transport", "carrier-pigeon").catch((error) => error);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toMatch(/--transport must be stdio or memory/);
  });
});
