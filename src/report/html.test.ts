import { describe, expect, it } from "vitest";
import { renderNotes, renderTable } from "./html.ts";
import { textCell } from "./table.ts";

describe("html notes and tables", () => {
  it("folds the warnings into one closed block, a line per row, and keeps the other notes as paragraphs", () => {
    const html = renderNotes([
      "Task success: every part right.",
      "Warning: sim:a × react: the tool filter was blind in 48 of 610 items (no tool shared a word with the query)",
      "Warning: sim:b × react: the tool filter was blind in 9 of 610 items (no tool shared a word with the query)",
    ]);
    expect(html).toContain('<p class="note">Task success: every part right.</p>');
    expect(html.match(/<details class="warnings">/g)).toHaveLength(1);
    expect(html).not.toContain('<details class="warnings" open');
    expect(html).toContain("⚠ 2 warnings about these figures, one line per row</summary>");
    expect(html.match(/<details class="warning"><summary>sim:[ab] × react: the tool filter/g)).toHaveLength(2);
    expect(html).not.toContain('<p class="note">Warning');
  });

  it("says nothing of warnings when there are none", () => {
    expect(renderNotes(["a note"])).toBe('<p class="note">a note</p>');
  });

  it("lets a long name wrap and keeps short ones and figures on one line", () => {
    const long = "onsetlab, onsetlab-plus, rewoo, react, native, native-recover, jsonl";
    const html = renderTable({
      id: "t",
      title: "t",
      notes: [],
      columns: [
        { header: "run", kind: "text" },
        { header: "configurations", kind: "text" },
      ],
      rows: [{ key: {}, cells: [textCell("run-a"), textCell(long)] }],
    });
    expect(html).toContain(`<td>run-a</td><td class="long">${long}</td>`);
    expect(html).toMatch(/^<div class="table-wrap">/);
  });
});
