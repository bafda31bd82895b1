/** A valid dataset item (a `direct` question) for tests, with `changes` laid over it. */
export function directItem(id: string, changes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    query: `what is ${id}?`,
    category: "direct",
    servers: ["builtin"],
    route: "direct",
    calls: [],
    order: "any",
    difficulty: "easy",
    tags: [],
    ...changes,
  };
}
