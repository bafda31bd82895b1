/**
 * `decide`: the fidelity check's contract, run in process over a small input — one answer per entry,
 * computed as the configuration decides (OnsetLab's quirks under `onsetlab`, not under `onsetlab-plus`),
 * and bad input as one line with exit code 2.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { reportError } from "./exit.ts";
import { buildProgram } from "./program.ts";

const root = mkdtempSync(join(tmpdir(), "onsetlab-decide-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const schema = (properties: Record<string, unknown>, required: string[]) => ({ type: "object", properties, required });
const input = {
  tools: [
    {
      server: "builtin",
      name: "calculator",
      description: "Evaluate an arithmetic expression.",
      inputSchema: schema({ expression: { type: "string" } }, ["expression"]),
    },
    {
      server: "calendar",
      name: "create-event",
      description: "Create a calendar event.",
      inputSchema: schema({ summary: { type: "string" }, start: { type: "string" } }, ["summary", "start"]),
    },
    {
      server: "github",
      name: "list_issues",
      description: "List issues in a GitHub repository.",
      inputSchema: schema({ owner: { type: "string" }, repo: { type: "string" } }, ["owner", "repo"]),
    },
  ],
  items: [
    { id: "q1", query: "Who wrote Hamlet?", servers: ["github", "builtin"] },
    { id: "q2", query: "help me list issues in acme/webapp", servers: ["github", "builtin"] },
  ],
  plans: [
    {
      key: "p1",
      query: "q",
      text: ' create-event(summary="Sync", start="2026-03-19T13:00:00Z")',
      tools: ["create-event"],
    },
  ],
  rescue: [
    {
      key: "r1",
      query: "List issues in acme/webapp.",
      tool: "list_issues",
      args: { owner: "acme" },
      missing: "repo",
      tools: ["list_issues"],
    },
  ],
};

async function decide(config: string, value: unknown = input): Promise<{ out: string; code: number; err: string }> {
  const file = join(root, `${config}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
  let out = "";
  let err = "";
  const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  try {
    await buildProgram().parseAsync(["node", "onsetlab", "decide", "--config", config, "--input", file, "--json"]);
    return { out, code: 0, err };
  } catch (error) {
    const code = reportError(error, (line) => {
      err += line;
    });
    return { out, code, err };
  } finally {
    write.mockRestore();
  }
}

describe("decide --json", () => {
  it("onsetlab: the real router's verb map, the intent check, the parser's `word:digit` rewrite, the rescue's trailing dot", async () => {
    const { out, code } = await decide("onsetlab");
    expect(code).toBe(0);
    const output = JSON.parse(out);
    expect(output.config).toBe("onsetlab");
    // no tool matches (no calculator verb such as "-" or "/" in the query) → DIRECT; server tools are
    // connected, so the model is asked; `help` anywhere is meta, and is asked too
    expect(output.items[0]).toMatchObject({ id: "q1", route: "DIRECT", intentCheck: true });
    expect(output.items[1]).toMatchObject({ route: "DIRECT", intentCheck: true, shown: ["calculator", "list_issues"] });
    expect(output.plans[0].steps).toEqual([
      { tool: "create-event", args: { summary: "Sync", start: "2026-03-19T13=00=00Z" }, error: null },
    ]);
    expect(output.rescue).toEqual([{ key: "r1", patched: true, args: { owner: "acme", repo: "webapp." } }]);
  });

  it("onsetlab-plus decides otherwise on the same input", async () => {
    const output = JSON.parse((await decide("onsetlab-plus")).out);
    expect(output.items[1]).toMatchObject({ route: "REWOO", intentCheck: false });
    expect(output.plans[0].steps[0].args.start).toBe("2026-03-19T13:00:00Z");
    expect(output.rescue[0].args.repo).toBe("webapp");
  });

  it("bad input: one line naming the file and the field, exit code 2", async () => {
    const broken = await decide("onsetlab", { tools: [{ server: "x" }] });
    expect(broken.code).toBe(2);
    expect(broken.err).toMatch(/^error: --input .*\.json: tools\.0\.name: .*\n$/);
    const notJson = await decide("onsetlab", "{");
    expect(notJson.code).toBe(2);
    expect(notJson.err).toMatch(/not JSON/);
    const unknown = await decide("onsetlab", {
      ...input,
      plans: [{ key: "p", query: "q", text: "", tools: ["nope"] }],
    });
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('plan p: tool "nope" is not among the input\'s tools');
    expect(unknown.out).toBe("");
  });
});
