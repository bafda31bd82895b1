import { describe, expect, it } from "vitest";
import { defineTool } from "./testing/definitions.ts";
import { findTool } from "./tool-schema.ts";

describe("findTool", () => {
  const manyTools = (count: number) =>
    Array.from({ length: count }, (_, index) => defineTool("x", `tool_${index}`, `Tool ${index}.`, {}));

  it.each([3, 40])("finds every tool by name in a list of %i, and nothing for an unknown name", (count) => {
    const tools = manyTools(count);
    for (const tool of tools) expect(findTool(tools, tool.name)).toBe(tool);
    expect(findTool(tools, "tool_missing")).toBeUndefined();
  });

  it("answers the first of two tools with one name, as a scan does, in a long list too", () => {
    const tools = manyTools(40);
    const twin = defineTool("y", "tool_7", "Another tool 7.", {});
    const list = [...tools, twin];
    expect(findTool(list, "tool_7")).toBe(tools[7]);
    expect(findTool([...list].reverse(), "tool_7")).toBe(twin);
  });
});
