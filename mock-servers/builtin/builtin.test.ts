import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestServer, specViolations, type TestServer } from "../kit/testing/index.ts";
import { type BuiltinState, builtinServer } from "./server.ts";

let server: TestServer<BuiltinState>;
beforeAll(async () => {
  server = await openTestServer(builtinServer);
});
afterAll(async () => {
  await server.close();
});

const toolError = async (name: string, args: Record<string, unknown>) => {
  const outcome = await server.call(name, args);
  expect(outcome.kind).toBe("tool_error");
  return outcome.kind === "tool_error" ? outcome.text : "";
};

describe("builtin server spec", () => {
  it("follows the kit's shape rules", () => {
    expect(specViolations(builtinServer)).toEqual([]);
  });

  it("lists the six built-in tools, all read-only", async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "calculator",
      "datetime",
      "unit_converter",
      "text_processor",
      "random_generator",
      "code_runner",
    ]);
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
  });

  it("is deterministic: two fresh servers dump the same state, and reset restores it", async () => {
    const other = await openTestServer(builtinServer);
    await server.ok("random_generator", { operation: "integer" });
    expect(await server.dump()).toEqual(await other.dump());
    await server.client.callTool({ name: "__reset", arguments: {} });
    expect(await server.dump()).toEqual(await other.dump());
    await other.close();
  });
});

describe("calculator", () => {
  it("evaluates with the shared parser", async () => {
    expect(await server.ok("calculator", { expression: "15 * 0.20 + sqrt(16) - 2^3" })).toEqual({
      expression: "15 * 0.20 + sqrt(16) - 2^3",
      result: -1,
    });
  });

  it("reports syntax and math errors as tool errors with the position", async () => {
    expect(await toolError("calculator", { expression: "1 +" })).toMatch(/^syntax_error: Unexpected end of expression/);
    expect(await toolError("calculator", { expression: "2 ** x" })).toMatch(/use \^ for powers/);
    expect(await toolError("calculator", { expression: "7 / (3 - 3)" })).toMatch(/^math_error: Division by zero/);
  });

  it("rejects a missing expression before the handler", async () => {
    expect(await server.call("calculator", {})).toMatchObject({ kind: "rpc_error", code: -32602 });
  });
});

describe("datetime", () => {
  it("reads the fixed clock in UTC and in other zones (DST aware)", async () => {
    expect(await server.ok("datetime", { operation: "now" })).toEqual({
      operation: "now",
      timezone: "UTC",
      result: "2026-03-16 09:30:00",
      iso: "2026-03-16T09:30:00Z",
      day_of_week: "Monday",
    });
    expect(await server.ok("datetime", { operation: "now", timezone: "America/New_York" })).toMatchObject({
      result: "2026-03-16 05:30:00",
      iso: "2026-03-16T05:30:00-04:00",
    });
    expect(
      await server.ok("datetime", { operation: "now", timezone: "Asia/Kolkata", format: "%H:%M %z" }),
    ).toMatchObject({
      result: "15:00 +0530",
    });
  });

  it("formats a date with strftime directives", async () => {
    const formatted = await server.ok("datetime", {
      operation: "format",
      date: "2026-03-16T14:05:00",
      format: "%A, %B %d, %Y %I:%M %p (day %j)",
    });
    expect(formatted.result).toBe("Monday, March 16, 2026 02:05 PM (day 075)");
    expect(await toolError("datetime", { operation: "format", format: "%Q" })).toMatch(
      /Unsupported format directive "%Q"/,
    );
  });

  it.each([
    [{ date: "2026-01-31", amount: 1, unit: "months" }, "2026-02-28"],
    [{ date: "2024-02-29", amount: 1, unit: "years" }, "2025-02-28"],
    [{ date: "today", amount: 30 }, "2026-04-15"],
    [{ amount: 90, unit: "minutes" }, "2026-03-16 11:00:00"],
    [{ date: "2026-03-16", amount: -2, unit: "weeks" }, "2026-03-02"],
    // 2026-03-08 is the US spring-forward day: +1 day keeps the wall-clock time although only 23 hours pass.
    [{ date: "2026-03-07T12:00:00", amount: 1, timezone: "America/New_York" }, "2026-03-08 12:00:00"],
  ])("add %j → %s", async (args, expected) => {
    expect((await server.ok("datetime", { operation: "add", ...args })).result).toBe(expected);
  });

  it.each([
    [{ date2: "2026-12-25" }, 284],
    [{ date: "2026-03-16", date2: "2026-03-01" }, -15],
    [{ date: "2026-01-15", date2: "2026-07-14", unit: "months" }, 5],
    [{ date: "1990-06-20", date2: "2026-03-16", unit: "years" }, 35],
    [{ date: "2026-03-16T09:00:00Z", date2: "2026-03-16T17:45:00Z", unit: "hours" }, 8.75],
    [{ date: "2026-03-07", date2: "2026-03-09", timezone: "America/New_York" }, 2],
  ])("diff %j → %d", async (args, expected) => {
    expect((await server.ok("datetime", { operation: "diff", ...args })).result).toBe(expected);
  });

  it("names the day of the week", async () => {
    expect(await server.ok("datetime", { operation: "day_of_week", date: "2026-07-04" })).toMatchObject({
      result: "Saturday",
    });
    expect((await server.ok("datetime", { operation: "day_of_week", date: "tomorrow" })).result).toBe("Tuesday");
  });

  it("refuses bad zones, dates and missing operation parameters", async () => {
    expect(await toolError("datetime", { operation: "now", timezone: "Mars/Olympus" })).toMatch(
      /^invalid_timezone: Unknown time zone "Mars\/Olympus"/,
    );
    expect(await toolError("datetime", { operation: "day_of_week", date: "16/03/2026" })).toMatch(/^invalid_date/);
    expect(await toolError("datetime", { operation: "day_of_week", date: "2026-02-30" })).toMatch(
      /not a real calendar date/,
    );
    expect(await toolError("datetime", { operation: "add", date: "2026-03-16" })).toBe(
      'missing_parameter: missing required parameter: amount (operation "add" needs it)',
    );
    expect(await toolError("datetime", { operation: "diff" })).toMatch(/missing required parameter: date2/);
    expect(await server.call("datetime", { operation: "yesterday" })).toMatchObject({
      kind: "rpc_error",
      code: -32602,
    });
  });
});

describe("unit_converter", () => {
  it.each([
    [5, "km", "mi", 3.10685596118667, "length"],
    [1, "mile", "m", 1609.344, "length"],
    [12, "in", "cm", 30.48, "length"],
    [10, "lb", "kg", 4.5359237, "mass"],
    [100, "celsius", "fahrenheit", 212, "temperature"],
    [98.6, "F", "C", 37, "temperature"],
    [0, "K", "C", -273.15, "temperature"],
    [1, "gal", "l", 3.785411784, "volume"],
    [2, "cups", "ml", 473.176473, "volume"],
    [100, "km/h", "m/s", 27.7777777777778, "speed"],
    [30, "knots", "km/h", 55.56, "speed"],
    [2, "GB", "MB", 2000, "data"],
    [1, "GiB", "MiB", 1024, "data"],
    [100, "Mbit", "MB", 12.5, "data"],
    [3, "hours", "min", 180, "time"],
    [1, "year", "days", 365, "time"],
  ])("%d %s → %s = %d (%s)", async (value, from_unit, to_unit, result, category) => {
    expect(await server.ok("unit_converter", { value, from_unit, to_unit })).toMatchObject({ result, category });
  });

  it("formats the conversion with canonical symbols", async () => {
    expect(await server.ok("unit_converter", { value: 26.2, from_unit: "miles", to_unit: "kilometers" })).toEqual({
      value: 26.2,
      from_unit: "mi",
      to_unit: "km",
      category: "length",
      result: 42.1648128,
      formatted: "26.2 mi = 42.1648128 km",
    });
  });

  it("refuses unknown units, mixed categories and a wrong category", async () => {
    expect(await toolError("unit_converter", { value: 1, from_unit: "furlong", to_unit: "m" })).toMatch(
      /^unknown_unit: Unknown unit "furlong"/,
    );
    expect(await toolError("unit_converter", { value: 1, from_unit: "kg", to_unit: "km" })).toMatch(
      /^incompatible_units: Cannot convert kg \(mass\) to km \(length\)/,
    );
    expect(await toolError("unit_converter", { value: 1, from_unit: "kg", to_unit: "lb", category: "volume" })).toMatch(
      /"kg" is a mass unit, not volume; volume units: ml, l, m3/,
    );
  });
});

describe("text_processor", () => {
  const text =
    "Contact alice@acme.dev or bob.martinez@acme.dev. Docs: https://docs.acme.dev/start, v2 costs 1,299.50 USD.";

  it.each([
    [{ operation: "word_count", text: "  the quick  brown fox " }, { result: 4 }],
    [
      { operation: "char_count", text: "hi there" },
      { result: 8, without_spaces: 7 },
    ],
    [{ operation: "line_count", text: "a\nb\n\nc\n" }, { result: 4 }],
    [{ operation: "uppercase", text: "Acme" }, { result: "ACME" }],
    [{ operation: "lowercase", text: "Acme" }, { result: "acme" }],
    [{ operation: "titlecase", text: "the ACME release-notes" }, { result: "The Acme Release-Notes" }],
    [{ operation: "reverse", text: "stressed" }, { result: "desserts" }],
    [{ operation: "trim", text: "  padded \n" }, { result: "padded" }],
    [
      { operation: "find", text: "Acme builds; acme ships.", pattern: "acme" },
      { result: 2, count: 2, positions: [0, 13] },
    ],
    [
      { operation: "replace", text: "Acme v1, acme v1", pattern: "v1", replacement: "v2" },
      { result: "Acme v2, acme v2", count: 2 },
    ],
    [
      { operation: "extract_emails", text },
      { result: ["alice@acme.dev", "bob.martinez@acme.dev"], count: 2 },
    ],
    [
      { operation: "extract_urls", text },
      { result: ["https://docs.acme.dev/start"], count: 1 },
    ],
    [
      { operation: "extract_numbers", text },
      { result: [2, 1299.5], count: 2 },
    ],
  ])("%j", async (args, expected) => {
    expect(await server.ok("text_processor", args)).toEqual({ operation: args.operation, ...expected });
  });

  it("asks for the pattern that find and replace need", async () => {
    expect(await toolError("text_processor", { operation: "find", text: "abc" })).toMatch(
      /missing required parameter: pattern \(operation "find" needs it\)/,
    );
  });
});

describe("random_generator", () => {
  const generate = (args: Record<string, unknown>) => server.ok("random_generator", args);

  it("gives the same output for the same seed and different output for another", async () => {
    const first = await generate({ operation: "integer", min: 1, max: 1000, count: 5 });
    expect(await generate({ operation: "integer", min: 1, max: 1000, count: 5, seed: 42 })).toEqual(first);
    expect(await generate({ operation: "integer", min: 1, max: 1000, count: 5, seed: 7 })).not.toEqual(first);
    expect(first.seed).toBe(42);
    const values = first.result as number[];
    expect(values).toHaveLength(5);
    expect(values.every((value) => Number.isInteger(value) && value >= 1 && value <= 1000)).toBe(true);
  });

  it("draws floats, choices, shuffles and samples from the given items", async () => {
    const float = (await generate({ operation: "float", min: 2, max: 3 })).result as number;
    expect(float).toBeGreaterThanOrEqual(2);
    expect(float).toBeLessThanOrEqual(3);
    const colors = ["red", "green", "blue", "amber"];
    expect(colors).toContain((await generate({ operation: "choice", choices: colors })).result);
    expect([...((await generate({ operation: "shuffle", choices: colors })).result as string[])].sort()).toEqual(
      [...colors].sort(),
    );
    const sample = (await generate({ operation: "sample", choices: colors, count: 3 })).result as string[];
    expect(new Set(sample).size).toBe(3);
    expect(sample.every((item) => colors.includes(item))).toBe(true);
  });

  it("makes v4 UUIDs and passwords with every character class", async () => {
    const uuid = (await generate({ operation: "uuid" })).result as string;
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const password = (await generate({ operation: "password", length: 20 })).result as string;
    expect(password).toHaveLength(20);
    for (const pattern of [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/]) expect(password).toMatch(pattern);
    const plain = (await generate({ operation: "password", include_symbols: false, seed: 3 })).result as string;
    expect(plain).toMatch(/^[A-Za-z0-9]{16}$/);
  });

  it("rolls dice with a total and flips coins", async () => {
    const dice = await generate({ operation: "dice", count: 3, sides: 20 });
    const rolls = dice.result as number[];
    expect(rolls).toHaveLength(3);
    expect(dice.total).toBe(rolls.reduce((sum, roll) => sum + roll, 0));
    expect(["heads", "tails"]).toContain((await generate({ operation: "coin" })).result);
  });

  it("refuses impossible requests", async () => {
    expect(await toolError("random_generator", { operation: "integer", min: 10, max: 1 })).toMatch(
      /^invalid_range: min \(10\) must not be greater than max \(1\)/,
    );
    expect(await toolError("random_generator", { operation: "choice" })).toMatch(/missing required parameter: choices/);
    expect(await toolError("random_generator", { operation: "sample", choices: ["a", "b"], count: 3 })).toMatch(
      /Cannot sample 3 distinct items from 2 choices/,
    );
  });
});
