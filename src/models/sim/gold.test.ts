import { describe, expect, it } from "vitest";
import { GoldIndex, type SimGoldItem } from "./gold.ts";
import { seededRandom } from "./random.ts";

function item(id: string, query: string): SimGoldItem {
  return { id, query, category: "single", route: "rewoo", calls: [], order: "any" };
}

/** The contract, read naively: of the items whose query the text contains, the longest query. */
function naiveFind(items: readonly SimGoldItem[], text: string): SimGoldItem | undefined {
  return [...items]
    .filter((entry) => entry.query.length > 0)
    .sort((a, b) => b.query.length - a.query.length)
    .find((entry) => text.includes(entry.query));
}

// Low bytes collide on purpose: "Ł" is U+0141, "A" is U+0041.
const QUERIES = [
  "List the open issues in acme/webapp",
  "List the open issues in acme/webapp and close the oldest",
  "open issues",
  "ŁŁŁŁ issues",
  "AAAA issues",
  "Send 😀 to #general",
  "ab",
  "x",
  "",
  "Show issue 2 of acme/webapp",
];

describe("finding the item a text holds", () => {
  const items = QUERIES.map((query, index) => item(`q${index}`, query));
  const index = new GoldIndex(items);

  it("finds the longest query the text contains, as a plain search would", () => {
    expect(index.find("Please: List the open issues in acme/webapp and close the oldest.")?.id).toBe("q1");
    expect(index.find("Question: List the open issues in acme/webapp\nThought:")?.id).toBe("q0");
    expect(index.find("AAAA issues")?.id).toBe("q4");
    expect(index.find("ŁŁŁŁ issues")?.id).toBe("q3");
    expect(index.find("no query here")).toBeUndefined();
    expect(index.find("")).toBeUndefined();
  });

  it("agrees with a plain search on texts stitched from pieces of the queries", () => {
    const random = seededRandom(42);
    const alphabet = [..."abxAŁ 😀#/\n", ...QUERIES.filter(Boolean)];
    const found = new Set<string | undefined>();
    for (let trial = 0; trial < 2000; trial++) {
      let text = "";
      const pieces = 1 + Math.floor(random() * 6);
      for (let piece = 0; piece < pieces; piece++) {
        const source = alphabet[Math.floor(random() * alphabet.length)] as string;
        const from = Math.floor(random() * source.length);
        text += source.slice(random() < 0.5 ? 0 : from, source.length - Math.floor(random() * 3));
      }
      const expected = naiveFind(items, text)?.id;
      expect(index.find(text)?.id, JSON.stringify(text)).toBe(expected);
      found.add(expected);
    }
    expect(found.size).toBeGreaterThan(6); // most queries, and none, were met
  });
});
