import { describe, expect, it } from "vitest";
import { OutputValidator } from "./output-validation.ts";

const counted = { type: "object", properties: { count: { type: "integer" } }, required: ["count"] };
const named = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

describe("OutputValidator", () => {
  it("judges a result by its own tool's schema, in every pool that sees it", () => {
    const first = new OutputValidator();
    const second = new OutputValidator();
    expect(first.check("s", "t", counted, { count: 3 })).toBeNull();
    // the same schema as a new object (another pool, off the wire)
    expect(second.check("s", "t", structuredClone(counted), { count: "3" })).toMatch(/count must be integer/);
    expect(second.check("s", "t", structuredClone(counted), { count: 3 })).toBeNull();
  });

  it("never lends one server's schema to another with the same tool name", () => {
    const first = new OutputValidator();
    const second = new OutputValidator();
    expect(first.check("a", "read", counted, { count: 1 })).toBeNull();
    expect(second.check("b", "read", named, { count: 1 })).toMatch(/must have required property 'name'/);
    expect(first.check("a", "read", counted, { name: "x" })).toMatch(/must have required property 'count'/);
  });
});
