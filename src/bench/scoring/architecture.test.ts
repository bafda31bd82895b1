/**
 * Dependency rule (DESIGN §11): the scorer and the statistics never import the agent — not even its
 * types — so a score cannot depend on how the pipeline happens to work. Test files may (they check
 * the scorer against real agent runs), so they are not scanned.
 */

import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isInside, localImports, sourceFiles } from "../../testing/source-imports.ts";

const here = dirname(fileURLToPath(import.meta.url));
const srcRoot = resolve(here, "../..");
const scanned = [here, resolve(here, "../stats")];
const agentRoot = join(srcRoot, "agent");

describe("architecture", () => {
  it("no file under src/bench/scoring or src/bench/stats imports src/agent", () => {
    const files = scanned.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(10);
    const violations = files.flatMap((file) =>
      localImports(file)
        .filter(({ target }) => isInside(target, agentRoot))
        .map(({ specifier }) => `${relative(srcRoot, file)} imports ${specifier}`),
    );
    expect(violations).toEqual([]);
  });
});
