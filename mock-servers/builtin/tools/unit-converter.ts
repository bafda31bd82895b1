import { ToolError } from "../../kit/errors.ts";
import type { ToolSpec } from "../../kit/types.ts";
import { tidyNumber } from "../../lab/expression.ts";
import {
  convertUnits,
  findUnit,
  UNIT_CATEGORIES,
  type UnitCategory,
  type UnitDefinition,
  unitSymbols,
} from "./units.ts";

/** Finds a unit, optionally of a given category; errors list the units the caller could have meant. */
function resolveUnit(name: string, category: UnitCategory | undefined): UnitDefinition {
  const unit = findUnit(name);
  if (!unit) {
    const known = category
      ? `${category} units: ${unitSymbols(category).join(", ")}`
      : `categories: ${UNIT_CATEGORIES.join(", ")}; see the tool description for their units`;
    throw new ToolError("unknown_unit", `Unknown unit "${name}" (${known})`);
  }
  if (category && unit.category !== category) {
    throw new ToolError(
      "incompatible_units",
      `"${name}" is a ${unit.category} unit, not ${category}; ${category} units: ${unitSymbols(category).join(", ")}`,
    );
  }
  return unit;
}

export const unitConverterTool: ToolSpec<unknown> = {
  name: "unit_converter",
  description:
    "Convert a value between units of length (mm, cm, m, km, in, ft, yd, mi, nmi), mass (mg, g, kg, t, oz, lb, st, ton), " +
    "temperature (C, F, K), volume (ml, l, m3, tsp, tbsp, fl oz, cup, pt, qt, gal = US gallon, imp gal), speed (m/s, km/h, " +
    "mph, knot, ft/s), data (bit, byte, KB/MB/GB/TB = powers of 1000, KiB/MiB/GiB/TiB = powers of 1024, kbit/Mbit/Gbit) " +
    "and time (ms, s, min, h, day, week, year = 365 days). Full names like 'miles' or 'celsius' work too.",
  inputSchema: {
    type: "object",
    properties: {
      value: { type: "number", description: "The number to convert, e.g. 5." },
      from_unit: { type: "string", description: "Unit of the value, e.g. 'km', 'lb', 'celsius'." },
      to_unit: { type: "string", description: "Unit to convert to, e.g. 'mi', 'kg', 'fahrenheit'." },
      category: {
        type: "string",
        enum: [...UNIT_CATEGORIES],
        description: "Optional: the kind of quantity, to catch mixed-up units.",
      },
    },
    required: ["value", "from_unit", "to_unit"],
  },
  outputSchema: {
    type: "object",
    properties: {
      value: { type: "number" },
      from_unit: { type: "string", description: "Canonical symbol of the source unit." },
      to_unit: { type: "string", description: "Canonical symbol of the target unit." },
      category: { type: "string", enum: [...UNIT_CATEGORIES] },
      result: { type: "number" },
      formatted: { type: "string", description: "e.g. '5 km = 3.10685596118667 mi'" },
    },
    required: ["value", "from_unit", "to_unit", "category", "result", "formatted"],
    additionalProperties: false,
  },
  annotations: { title: "Unit converter", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args) => {
    const value = Number(args.value);
    const category = args.category as UnitCategory | undefined;
    const from = resolveUnit(String(args.from_unit), category);
    const to = resolveUnit(String(args.to_unit), category);
    if (from.category !== to.category) {
      throw new ToolError(
        "incompatible_units",
        `Cannot convert ${from.symbol} (${from.category}) to ${to.symbol} (${to.category}); ` +
          `${from.category} units: ${unitSymbols(from.category).join(", ")}`,
      );
    }
    const result = tidyNumber(convertUnits(value, from, to));
    return {
      value,
      from_unit: from.symbol,
      to_unit: to.symbol,
      category: from.category,
      result,
      formatted: `${value} ${from.symbol} = ${result} ${to.symbol}`,
    };
  },
};
