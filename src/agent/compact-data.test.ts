import { describe, expect, it } from "vitest";
import { clip, renderResult } from "./compact-data.ts";

const calendars = {
  calendars: [
    {
      id: "alice@acme.dev",
      summary: "alice@acme.dev",
      description: "",
      timeZone: "UTC",
      colorId: "14",
      backgroundColor: "#9fe1e7",
      primary: true,
    },
    {
      id: "c_8f3a@group.calendar.google.com",
      summary: "Acme Engineering",
      description: "Team events: sprint rituals, offsites, code freezes, on-call handovers",
      timeZone: "UTC",
      colorId: "9",
    },
    {
      id: "en.usa#holiday@group.v.calendar.google.com",
      summary: "Holidays in United States",
      description: "Holidays and Observances in United States",
      colorId: "8",
    },
    { id: "bob@acme.dev", summary: "Bob Martinez", accessRole: "freeBusyReader", colorId: "3" },
  ],
};

describe("renderResult", () => {
  it("renders a list one line per element, names first, bookkeeping (colours) last, noise (urls, empty values) dropped", () => {
    const text = renderResult(calendars, 2000);
    expect(text.split("\n")).toEqual([
      "calendars (4):",
      "- summary=alice@acme.dev; id=alice@acme.dev; timeZone=UTC; primary=true; colorId=14; backgroundColor=#9fe1e7",
      "- summary=Acme Engineering; id=c_8f3a@group.calendar.google.com; description=Team events: sprint rituals, offsites, code freezes, on-call handovers; timeZone=UTC; colorId=9",
      "- summary=Holidays in United States; id=en.usa#holiday@group.v.calendar.google.com; description=Holidays and Observances in United States; colorId=8",
      "- summary=Bob Martinez; id=bob@acme.dev; accessRole=freeBusyReader; colorId=3",
    ]);
  });

  it("sheds detail level by level so every element of a long list stays visible within the budget", () => {
    const issues = {
      issues: Array.from({ length: 12 }, (_, index) => ({
        number: index + 1,
        title: `Issue title number ${index + 1}`,
        body: "A long body that nobody asked about. ".repeat(8),
        html_url: `https://github.com/acme/webapp/issues/${index + 1}`,
        user: { login: "frank", id: 2403748195, html_url: "https://github.com/frank" },
        labels: ["bug"],
      })),
      totalCount: 12,
    };
    const text = renderResult(issues, 800);
    expect(text.length).toBeLessThanOrEqual(800);
    for (let number = 1; number <= 12; number++) expect(text).toContain(`Issue title number ${number}`);
    expect(text).not.toContain("https://");
  });

  it("collapses nested wrappers inside a line, expands a record at the top, and parses JSON text", () => {
    const result = {
      issues: [
        {
          title: "Login fails",
          user: { login: "frank", id: 7 },
          start: { dateTime: "2026-03-16T10:00:00Z", timeZone: "UTC" },
        },
      ],
      profile: { title: "SRE", status_text: "On call this week" },
    };
    expect(renderResult(JSON.stringify(result), 400)).toBe(
      "issues (1):\n- title=Login fails; start=2026-03-16T10:00:00Z; user=frank\nprofile: title=SRE; status_text=On call this week",
    );
  });

  it("reads Notion: properties spliced into the row, tagged values and rich-text runs collapsed", () => {
    const row = {
      object: "page",
      id: "831e8314-0c41-4dda-832e-0d2a4f1c9b10",
      created_time: "2026-03-14T04:00:00.000Z",
      properties: {
        Name: {
          id: "title",
          type: "title",
          title: [
            { type: "text", text: { content: "Lazy-load " }, plain_text: "Lazy-load " },
            { type: "text", text: { content: "dashboard route" }, plain_text: "dashboard route" },
          ],
        },
        Status: { id: "s", type: "status", status: { id: "2", name: "In progress", color: "blue" } },
      },
    };
    const block = {
      object: "block",
      id: "5187a41d",
      type: "code",
      has_children: false,
      code: { language: "bash", rich_text: [{ type: "text", plain_text: "acme-deploy rollback --to previous" }] },
    };
    const text = renderResult({ results: [row, block] }, 400);
    expect(text).toBe(
      "results (2):\n- Name=Lazy-load dashboard route; Status=In progress; id=831e8314-0c41-4dda-832e-0d2a4f1c9b10; created_time=2026-03-14T04:00:00.000Z\n- code=acme-deploy rollback --to previous; id=5187a41d; type=code; has_children=false",
    );
  });

  it("keeps the best-ranked element's text when the budget is tight", () => {
    const hits = Array.from({ length: 5 }, (_, index) => ({
      title: `Result ${index}`,
      url: `https://example.com/${index}`,
      content: `${"filler ".repeat(30)}fact-${index}`,
      score: 0.9 - index / 10,
    }));
    const text = renderResult({ query: "q", results: hits }, 500);
    expect(text.length).toBeLessThanOrEqual(500);
    expect(text).toContain("fact-0");
    for (let index = 0; index < 5; index++) expect(text).toContain(`Result ${index}`);
  });

  it("keeps plain text as text, its lines kept and spaces collapsed, cut at the budget", () => {
    expect(renderResult("  hello   there \n\n\n  world  ", 100)).toBe("hello there\n\n world");
    expect(renderResult("x".repeat(50), 10)).toBe(`${"x".repeat(9)}…`);
  });

  it("renders a table keyed by id one entry per line, and text content that is JSON as that JSON", () => {
    const colors = {
      event: Object.fromEntries(
        Array.from({ length: 11 }, (_, index) => [
          String(index + 1),
          { background: `#${index}`, name: `c${index + 1}` },
        ]),
      ),
    };
    const text = renderResult(colors, 800);
    expect(text.split("\n")[0]).toBe("event (11):");
    expect(text).toContain("- 11: name=c11; background=#10");
    const tree = {
      content: [
        {
          type: "text",
          text: JSON.stringify([
            { name: "index.ts", type: "file" },
            { name: "lib", type: "directory" },
          ]),
        },
      ],
    };
    expect(renderResult(tree, 800)).toBe("- name=index.ts; type=file\n- name=lib; type=directory");
  });

  it("gives a long top-level text (a file's content) its own lines and the budget", () => {
    const content = Array.from({ length: 30 }, (_, index) => `line ${index + 1}: ${"x".repeat(20)}`).join("\n");
    const text = renderResult({ content, path: "/workspace/logs/app.log" }, 800);
    expect(text.startsWith("path: /workspace/logs/app.log\ncontent:\nline 1: ")).toBe(true);
    expect(text.split("\n").length).toBeGreaterThan(20);
    expect(text.length).toBeLessThanOrEqual(800);
  });

  it("says how many lines it left out when even names do not fit", () => {
    const many = { items: Array.from({ length: 200 }, (_, index) => ({ name: `item-${index}` })) };
    const text = renderResult(many, 300);
    expect(text.length).toBeLessThanOrEqual(300);
    expect(text).toMatch(/… \(\d+ more lines\)$/);
  });
});

describe("clip", () => {
  const article =
    "Acme suffered a 47-minute outage on Saturday. The weather was mild and the office was quiet all weekend long. Engineers traced it to a failed database failover. Lunch was served at noon. The fix shipped on Monday.";

  it("keeps the first sentence and those sharing the question's words, in order, marking gaps", () => {
    const text = clip(article, 120, new Set(["database", "failover"]));
    expect(text).toBe(
      "Acme suffered a 47-minute outage on Saturday. … Engineers traced it to a failed database failover.",
    );
  });

  it("gives the room left to the beginning of the best sentence that does not fit whole", () => {
    const text = clip(article, 95, new Set(["database", "failover"]));
    expect(text.length).toBeLessThanOrEqual(95);
    expect(text).toMatch(/^Acme suffered a 47-minute outage on Saturday\. … Engineers traced it to a failed .*…$/);
  });

  it("cuts at the beginning without a question, or when no sentence shares its words", () => {
    expect(clip(article, 30)).toBe("Acme suffered a 47-minute out…");
    expect(clip(article, 30, new Set(["pizza"]))).toBe("Acme suffered a 47-minute out…");
    expect(clip("short", 30, new Set(["pizza"]))).toBe("short");
  });
});
