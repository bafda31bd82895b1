import { describe, expect, it } from "vitest";
import { BUILTIN_SERVER, MAX_DISTRACTORS, sessionServers } from "./session.ts";

const REGISTRY = ["github", "slack", "notion", "search", "calendar", "filesystem", "builtin", "lab"];
const items = Array.from({ length: 300 }, (_, index) => ({
  id: `it-${index}`,
  servers: index % 2 === 0 ? ["github"] : ["slack", "notion"],
}));

describe("sessionServers", () => {
  it("connects the item's servers, the built-ins and at most two others, in registry order", () => {
    for (const item of items) {
      const servers = sessionServers({ item, exposure: "session", seed: 1, registry: REGISTRY });
      for (const own of item.servers) expect(servers).toContain(own);
      expect(servers).toContain(BUILTIN_SERVER);
      const extra = servers.filter((server) => !item.servers.includes(server) && server !== BUILTIN_SERVER);
      expect(extra.length).toBeLessThanOrEqual(MAX_DISTRACTORS);
      expect(servers).toEqual(REGISTRY.filter((server) => servers.includes(server)));
    }
  });

  it("varies the number of distractors over items, and the choice with the seed", () => {
    const counts = (seed: number) =>
      items.map(
        (item) => sessionServers({ item, exposure: "session", seed, registry: REGISTRY }).length - item.servers.length,
      );
    // 1 (built-ins) + 0, 1 or 2 distractors, each often
    const tally = new Map<number, number>();
    for (const count of counts(1)) tally.set(count, (tally.get(count) ?? 0) + 1);
    expect([...tally.keys()].sort()).toEqual([1, 2, 3]);
    for (const n of tally.values()) expect(n).toBeGreaterThan(50);
    expect(counts(1)).toEqual(counts(1));
    expect(counts(2)).not.toEqual(counts(1));
  });

  it("connects only the item's servers and the built-ins under exposure: own", () => {
    for (const item of items.slice(0, 20)) {
      expect(sessionServers({ item, exposure: "own", seed: 1, registry: REGISTRY })).toEqual(
        REGISTRY.filter((server) => item.servers.includes(server) || server === BUILTIN_SERVER),
      );
    }
  });

  it("connects every server under exposure: all", () => {
    expect(sessionServers({ item: items[0]!, exposure: "all", seed: 1, registry: REGISTRY })).toEqual(REGISTRY);
  });
});
