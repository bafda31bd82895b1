/**
 * BFCL v4's live categories through the v3 track's catalog and checker: every entry loads, every
 * unusable entry is named with a reason, and every entry's ground truth replayed passes BFCL's
 * checker except where BFCL's own data contradicts its docs (those are among the unusable).
 */
import { describe, expect, it } from "vitest";
import { auditLiveCategory, LIVE_CATEGORIES } from "./live.ts";
import { DEFAULT_BFCL_V4_DATA_DIR } from "./paths.ts";
import { sharedBfclPresent } from "./testing/shared.ts";

const present = sharedBfclPresent("BFCL v4 live audit", DEFAULT_BFCL_V4_DATA_DIR);
const SIZES: Record<string, number> = {
  live_simple: 258,
  live_multiple: 1053,
  live_parallel: 16,
  live_parallel_multiple: 24,
  live_irrelevance: 884,
  live_relevance: 16,
};

describe.skipIf(!present)("BFCL v4 live categories", () => {
  it.each(LIVE_CATEGORIES)("%s: loads whole, names its unusable entries, replays its ground truth", (category) => {
    const audit = auditLiveCategory(category);
    expect(audit.entries).toBe(SIZES[category]);
    expect(audit.usable + audit.unusable.length).toBe(audit.entries);
    for (const { id, reason } of audit.unusable) expect(`${id}: ${reason}`).toMatch(/^live_\w+_[\d-]+: \S/);
    const unusableIds = new Set(audit.unusable.map((u) => u.id));
    // a ground truth that fails BFCL's checker is a fault in BFCL's data: named, never silently kept
    for (const failed of audit.goldFailed) {
      expect(unusableIds.has(failed.id)).toBe(true);
      expect(failed.reason).toMatch(/missing_required|unexpected_param|missing_optional/);
    }
    expect(audit.goldPassed).toBeGreaterThanOrEqual(audit.entries - 5);
  });
});
