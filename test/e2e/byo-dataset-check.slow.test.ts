/**
 * `dataset check` over the third-party servers of test/fixtures/byo/ (server-filesystem and server-memory
 * from npm) leaves their data untouched: with `reset: fixture` the gold replay writes to fresh copies only;
 * with `reset: restart` over folders of their own, it replays the reads, skips every write (and says so),
 * and only `--allow-writes` changes the data.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, runCli } from "../support/bench-run.ts";
import { folderDigest } from "../support/folder-digest.ts";

const FIXTURE = join(REPO_ROOT, "test/fixtures/byo");
const DATASET = join(FIXTURE, "dataset.jsonl");
const WRITE_ITEMS = readFileSync(DATASET, "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as { id: string; tags: string[] })
  .filter((item) => item.tags.includes("write"))
  .map((item) => item.id);

/** The same two servers over copies of the fixture data that they use in place, reset by restarting. */
function restartRegistry(): { registry: string; data: string } {
  const data = mkdtempSync(join(tmpdir(), "onsetlab-byo-data-"));
  cpSync(join(FIXTURE, "files"), join(data, "files"), { recursive: true });
  cpSync(join(FIXTURE, "memory"), join(data, "memory"), { recursive: true });
  const modules = join(REPO_ROOT, "node_modules/@modelcontextprotocol");
  const registry = join(data, "registry.json");
  writeFileSync(
    registry,
    JSON.stringify({
      servers: [
        {
          name: "filesystem",
          purpose: "the official filesystem server over a folder of the user's",
          transport: "stdio",
          command: "node",
          args: [join(modules, "server-filesystem/dist/index.js"), join(data, "files")],
          cwd: join(data, "files"),
          reset: "restart",
        },
        {
          name: "memory",
          purpose: "the official memory server over the user's graph file",
          transport: "stdio",
          command: "node",
          args: [join(modules, "server-memory/dist/index.js")],
          env: { MEMORY_FILE_PATH: join(data, "memory/memory.jsonl") },
          reset: "restart",
        },
      ],
    }),
  );
  return { registry, data };
}

describe("dataset check over third-party servers", () => {
  it("with reset: fixture, replays every gold call and leaves the fixture folders as they were", async () => {
    const before = folderDigest(FIXTURE);
    const outcome = await runCli([
      "dataset",
      "check",
      "--dataset",
      DATASET,
      "--registry",
      join(FIXTURE, "registry.json"),
    ]);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toMatch(/gold replay: 11 passed, 0 failed, 0 not replayed to the end/);
    expect(folderDigest(FIXTURE)).toEqual(before);
  });

  it("with reset: restart, skips the writes it could not undo and names them; the data stays as it was", async () => {
    expect(WRITE_ITEMS.length).toBeGreaterThan(0);
    const { registry, data } = restartRegistry();
    const before = folderDigest(data);
    const careful = await runCli(["dataset", "check", "--dataset", DATASET, "--registry", registry, "--json"]);
    expect(careful.code).toBe(0);
    const report = JSON.parse(careful.stdout) as {
      goldReplay: { passed: number; failed: number; skipped: { id: string; reason: string }[] };
    };
    expect(report.goldReplay.failed).toBe(0);
    expect(report.goldReplay.skipped.map((skip) => skip.id).sort()).toEqual([...WRITE_ITEMS].sort());
    expect(report.goldReplay.skipped[0]!.reason).toMatch(
      /whose reset \(restart\) cannot undo it; --allow-writes replays it/,
    );
    expect(report.goldReplay.passed).toBe(11 - WRITE_ITEMS.length);
    expect(folderDigest(data)).toEqual(before);

    // what the skip spared: replaying the writes does change the user's data
    await runCli(["dataset", "check", "--dataset", DATASET, "--registry", registry, "--allow-writes", "--json"]);
    expect(folderDigest(data)).not.toEqual(before);
  });
});
