import { describe, expect, it } from "vitest";
import { Redactor, redactorOf } from "./redact.ts";

describe("Redactor", () => {
  const redactor = new Redactor([
    { name: "KEY", value: "abc-123-secret" },
    { name: "LONG", value: "abc-123-secret-and-more" },
    { name: "QUOTED", value: 'pa"ss\\word' },
    { name: "SHORT", value: "1" },
  ]);

  it("replaces every value in text, the longest secret first", () => {
    expect(redactor.text("a abc-123-secret b abc-123-secret-and-more")).toBe("a [redacted:KEY] b [redacted:LONG]");
  });

  it("finds a value spelled inside JSON strings", () => {
    const line = JSON.stringify({ args: { password: 'pa"ss\\word' } });
    expect(JSON.parse(redactor.text(line))).toEqual({ args: { password: "[redacted:QUOTED]" } });
    expect(redactor.value({ deep: ["x abc-123-secret"] })).toEqual({ deep: ["x [redacted:KEY]"] });
  });

  it("leaves short values alone, and returns untouched input as it is", () => {
    const value = { n: 1, text: "1 11" };
    expect(redactor.value(value)).toBe(value);
    const bytes = Buffer.from("no secret here\n");
    expect(redactor.bytes(bytes)).toBe(bytes);
    expect(Buffer.from(redactor.bytes(Buffer.from("abc-123-secret\n"))).toString()).toBe("[redacted:KEY]\n");
  });

  it("reads the named variables' values, skipping unset and empty ones", () => {
    const fromEnv = redactorOf(["A", "B", "C"], { A: "value-of-a", B: "" });
    expect(fromEnv.text("value-of-a")).toBe("[redacted:A]");
    expect(redactorOf(["B", "C"], { B: "" }).empty).toBe(true);
  });
});
