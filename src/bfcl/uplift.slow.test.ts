import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../paths.ts";
import { DEFAULT_BFCL_DATA_DIR, DEFAULT_BFCL_RESULT_DIR } from "./paths.ts";
import { resolveResultDirs } from "./score-dir.ts";
import { runUplift } from "./uplift.ts";
import { REPORT_FILES, renderUpliftFiles } from "./uplift-report.ts";
import { summarizeUplift } from "./uplift-summary.ts";

const present = existsSync(DEFAULT_BFCL_RESULT_DIR) && existsSync(DEFAULT_BFCL_DATA_DIR);
if (!present) console.warn(`BFCL replay report test skipped: no BFCL sample at ${DEFAULT_BFCL_RESULT_DIR}`);

describe.skipIf(!present)("reports/bfcl-replay.* are what `pnpm bfcl uplift` makes of ../shared/bfcl", () => {
  it("regenerating gives the committed files byte for byte", async () => {
    const dirs = resolveResultDirs([DEFAULT_BFCL_RESULT_DIR]);
    const models = await runUplift(
      dirs.map((dir) => ({ model: basename(dir), resultDir: dir })),
      { dataDir: DEFAULT_BFCL_DATA_DIR },
    );
    const files = renderUpliftFiles(models, summarizeUplift(models), {
      resultDirs: [DEFAULT_BFCL_RESULT_DIR],
      dataDir: DEFAULT_BFCL_DATA_DIR,
    });
    expect(Object.keys(files).sort()).toEqual(Object.values(REPORT_FILES).sort());
    for (const [name, text] of Object.entries(files)) {
      const committed = readFileSync(join(REPO_ROOT, "reports", name), "utf8");
      // On a mismatch: `pnpm bfcl uplift ../shared/bfcl/result --report reports`, then review the diff.
      expect(text, `reports/${name} is stale`).toBe(committed);
    }
    // The strict column is BFCL's own verdict: it equals each score file's count.
    for (const model of models)
      for (const c of model.categories) {
        expect(c.entries.filter((e) => e.verdicts.recorded.valid).length).toBe(c.bfclCorrect);
      }
  }, 180_000);
});
