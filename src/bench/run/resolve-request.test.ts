import { describe, expect, it } from "vitest";
import { DEFAULT_REGISTRY, loadRegistry } from "../../mcp/registry.ts";
import { REPO_ROOT } from "../../paths.ts";
import { requestRegistry } from "./resolve-request.ts";

const BYO = `${REPO_ROOT}/test/fixtures/byo/registry.json`;
const names = (request: Parameters<typeof requestRegistry>[0]) =>
  requestRegistry(request).servers.map((entry) => entry.name);

describe("requestRegistry", () => {
  it("is the mock servers' registry by default, or the given files merged", () => {
    const mocks = loadRegistry(DEFAULT_REGISTRY).servers.map((entry) => entry.name);
    expect(names({})).toEqual(mocks);
    expect(names({ registries: [BYO] })).toEqual(["filesystem", "memory"]);
    // the byo registry names a server "filesystem", as the mocks do: merging them is a clash naming both
    expect(() => names({ registries: [DEFAULT_REGISTRY, BYO] })).toThrow(
      `server "filesystem" is declared in both ${DEFAULT_REGISTRY} and ${BYO}`,
    );
  });
});
