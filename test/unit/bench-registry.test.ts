/**
 * `pnpm bench --registry FILE`: a run connects the servers of a registry of one's own, and its dataset
 * is checked against that registry (here: the builtin server alone, and items that use only it).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBench } from "../../src/bench/run/bench.ts";
import { DEFAULT_REGISTRY, loadRegistry } from "../../src/mcp/registry.ts";
import { REPO_ROOT } from "../../src/paths.ts";
import { benchRequest, strictRecordLines } from "../support/bench-run.ts";

const root = mkdtempSync(join(tmpdir(), "bench-registry-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A registry with the builtin server only, its cwd made absolute so the file can live anywhere. */
function builtinRegistry(): string {
  const builtin = loadRegistry(DEFAULT_REGISTRY).servers.find((server) => server.name === "builtin")!;
  const file = join(root, "registry.json");
  writeFileSync(file, JSON.stringify({ servers: [{ ...builtin, cwd: REPO_ROOT }] }));
  return file;
}

/** The first `n` dataset lines whose items use the builtin server alone. */
function builtinItems(n: number): string {
  const lines = readFileSync(join(REPO_ROOT, "datasets", "search-builtin-lab.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.includes('"servers": ["builtin"]') || line.includes('"servers":["builtin"]'))
    .slice(0, n);
  expect(lines).toHaveLength(n);
  const file = join(root, "items.jsonl");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

describe("bench --registry", () => {
  it("runs against the registry's servers only, and records the registry in run.json", async () => {
    const registry = builtinRegistry();
    const outcome = await runBench({
      request: benchRequest({
        models: ["sim:oracle"],
        configs: ["onsetlab-plus"],
        matrix: undefined,
        dataset: [builtinItems(3)],
        registries: [registry],
      }),
      resultsRoot: root,
    });
    expect(outcome.failures).toEqual([]);
    const records = strictRecordLines(outcome.dir);
    expect(records).toHaveLength(3);
    expect(new Set(records.flatMap((record) => record.session.servers))).toEqual(new Set(["builtin"]));
    expect(records.every((record) => record.score.taskSuccess)).toBe(true);
    expect(outcome.manifest.request.registries).toEqual([registry]);
  });

  it("refuses items whose servers the registry does not have, naming the registry", async () => {
    const registry = builtinRegistry();
    const request = benchRequest({
      models: ["sim:oracle"],
      configs: ["onsetlab-plus"],
      matrix: undefined,
      registries: [registry],
    });
    await expect(runBench({ request, resultsRoot: root })).rejects.toThrow(
      /servers: unknown server "[a-z]+" \(.*registry\.json has: builtin\)/,
    );
  });
});
