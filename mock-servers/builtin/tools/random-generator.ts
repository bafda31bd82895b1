import { seededRandom } from "../../../src/random.ts";
import { ToolError } from "../../kit/errors.ts";
import type { ToolSpec } from "../../kit/types.ts";
import { requireParameter } from "./arguments.ts";

const OPERATIONS = ["integer", "float", "choice", "shuffle", "sample", "uuid", "password", "dice", "coin"] as const;
type Operation = (typeof OPERATIONS)[number];

const DEFAULT_SEED = 42;
const MAX_COUNT = 100;
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS = "0123456789";
const SYMBOLS = "!@#$%^&*()-_=+[]{};:,.?";

type Random = () => number;
type Value = number | string;

interface Generated {
  result: Value | Value[];
  total?: number;
}

const integerBetween = (random: Random, min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** Fisher–Yates on a copy. */
function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** One value, or an array of `count` values when more than one was asked for. */
function repeat(count: number, make: () => Value): Value | Value[] {
  if (count === 1) return make();
  return Array.from({ length: count }, make);
}

function uuidV4(random: Random): string {
  const bytes = Array.from({ length: 16 }, () => Math.floor(random() * 256));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** At least one character of each class, the rest from all classes, then shuffled. */
function password(random: Random, length: number, symbols: boolean): string {
  const classes = symbols ? [LOWER, UPPER, DIGITS, SYMBOLS] : [LOWER, UPPER, DIGITS];
  const all = classes.join("");
  const chars = classes.map((set) => pick(random, [...set]));
  while (chars.length < length) chars.push(pick(random, [...all]));
  return shuffled(random, chars).join("");
}

function bounds(args: Record<string, unknown>, defaults: [number, number]): [number, number] {
  const min = Number(args.min ?? defaults[0]);
  const max = Number(args.max ?? defaults[1]);
  if (min > max) throw new ToolError("invalid_range", `min (${min}) must not be greater than max (${max})`);
  return [min, max];
}

function choices(args: Record<string, unknown>, operation: string): string[] {
  const items = requireParameter<string[]>(args, "choices", operation);
  if (items.length === 0)
    throw new ToolError("invalid_argument", `choices is empty; ${operation} needs at least one item`);
  return items;
}

const GENERATORS: Record<Operation, (random: Random, args: Record<string, unknown>, count: number) => Generated> = {
  integer: (random, args, count) => {
    const [min, max] = bounds(args, [1, 100]);
    const low = Math.ceil(min);
    const high = Math.floor(max);
    if (low > high) throw new ToolError("invalid_range", `There is no integer between ${min} and ${max}`);
    return { result: repeat(count, () => integerBetween(random, low, high)) };
  },
  float: (random, args, count) => {
    const [min, max] = bounds(args, [0, 1]);
    return { result: repeat(count, () => Math.round((min + random() * (max - min)) * 1e6) / 1e6) };
  },
  choice: (random, args, count) => {
    const items = choices(args, "choice");
    return { result: repeat(count, () => pick(random, items)) };
  },
  shuffle: (random, args) => ({ result: shuffled(random, choices(args, "shuffle")) }),
  sample: (random, args, count) => {
    const items = choices(args, "sample");
    if (count > items.length) {
      throw new ToolError("invalid_argument", `Cannot sample ${count} distinct items from ${items.length} choices`);
    }
    return { result: shuffled(random, items).slice(0, count) };
  },
  uuid: (random, _args, count) => ({ result: repeat(count, () => uuidV4(random)) }),
  password: (random, args, count) => {
    const length = Number(args.length ?? 16);
    return { result: repeat(count, () => password(random, length, args.include_symbols !== false)) };
  },
  dice: (random, args, count) => {
    const sides = Number(args.sides ?? 6);
    const rolls = Array.from({ length: count }, () => integerBetween(random, 1, sides));
    return { result: rolls, total: rolls.reduce((sum, roll) => sum + roll, 0) };
  },
  coin: (random, _args, count) => ({ result: repeat(count, () => pick(random, ["heads", "tails"])) }),
};

export const randomGeneratorTool: ToolSpec<unknown> = {
  name: "random_generator",
  description:
    "Generate random values: integers or floats in a range, pick/shuffle/sample from choices, UUIDs, passwords, " +
    `dice rolls, coin flips. Seeded: the same seed (default ${DEFAULT_SEED}) always gives the same output.`,
  inputSchema: {
    type: "object",
    properties: {
      operation: { type: "string", enum: [...OPERATIONS], description: "What to generate." },
      min: { type: "number", description: "Lower bound, inclusive (integer default 1, float default 0)." },
      max: { type: "number", description: "Upper bound, inclusive (integer default 100, float default 1)." },
      count: {
        type: "integer",
        minimum: 1,
        maximum: MAX_COUNT,
        default: 1,
        description: "How many values (sample: how many distinct items; dice: how many dice).",
      },
      choices: {
        type: "array",
        items: { type: "string" },
        description: "Items for choice, shuffle and sample, e.g. ['red', 'green', 'blue'].",
      },
      length: { type: "integer", minimum: 8, maximum: 128, default: 16, description: "Password length." },
      include_symbols: { type: "boolean", default: true, description: "Password: include symbols." },
      sides: { type: "integer", minimum: 2, maximum: 100, default: 6, description: "Dice: sides per die." },
      seed: { type: "integer", default: DEFAULT_SEED, description: "Random seed; the same seed repeats the output." },
    },
    required: ["operation"],
  },
  outputSchema: {
    type: "object",
    properties: {
      operation: { type: "string", enum: [...OPERATIONS] },
      seed: { type: "integer" },
      result: {
        type: ["number", "string", "array"],
        items: { type: ["number", "string"] },
        description: "The value, or an array when count > 1 (shuffle, sample and dice always give arrays).",
      },
      total: { type: "integer", description: "dice: sum of the rolls." },
    },
    required: ["operation", "seed", "result"],
    additionalProperties: false,
  },
  annotations: { title: "Random generator", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args) => {
    const operation = String(args.operation) as Operation;
    const seed = Number(args.seed ?? DEFAULT_SEED);
    const count = Number(args.count ?? 1);
    return { operation, seed, ...GENERATORS[operation](seededRandom(seed), args, count) };
  },
};
