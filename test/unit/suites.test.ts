/**
 * Suites (src/bench/dataset/suite.ts): the sidecar's validation and the clock it gives. The runs that take
 * their clock and servers from a suite are whole benches: test/e2e/suite-runs.test.ts.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MOCK_NOW } from "../../mock-servers/kit/types.ts";
import { loadSuite, SuiteError, suiteOf } from "../../src/bench/dataset/suite.ts";
import { worldContext } from "../../src/bench/dataset/world-clock.ts";
import { REPO_ROOT } from "../support/bench-run.ts";
import { datasetFolder, GITHUB_ITEM } from "../support/suite-folder.ts";

describe("suite files", () => {
  it("datasets/suite.yaml carries the mock servers' clock", () => {
    const suite = suiteOf([join(REPO_ROOT, "datasets/github.jsonl")]);
    expect(new Date(suite!.clock!).getTime()).toBe(MOCK_NOW.getTime());
    expect(worldContext(suite!.clock)).toBe("Today is Monday, March 16, 2026, 09:30 UTC.");
    expect(worldContext("none")).toBeUndefined();
  });

  it.each([
    ["clock: 2026-03-16T09:30:00Z\ntoday: monday\n", /suite\.yaml: unknown key "today"/],
    ["clock: next tuesday\n", /suite\.yaml: clock must be an ISO date-time/],
    ["clock: 2026-13-45T09:30:00Z\n", /suite\.yaml: clock must be an ISO date-time/],
    ["exposure: some\n", /suite\.yaml: exposure must be one of own, session, all/],
    ["servers: github\n", /suite\.yaml: servers must be a list/],
  ])("rejects %j with one line naming the file", (text, message) => {
    const dir = datasetFolder([GITHUB_ITEM], text);
    const load = () => loadSuite(join(dir, "suite.yaml"));
    expect(load).toThrow(SuiteError);
    expect(load).toThrow(message);
  });

  it("a file's own <name>.suite.yaml wins over its folder's suite.yaml", () => {
    const dir = datasetFolder([GITHUB_ITEM], "clock: none\n");
    writeFileSync(join(dir, "d.suite.yaml"), "clock: 2025-01-02T03:04:00Z\nservers: [github]\n");
    expect(suiteOf([join(dir, "d.jsonl")])).toMatchObject({ clock: "2025-01-02T03:04:00Z", servers: ["github"] });
  });
});
