/**
 * Unit tables with exact factors to each category's base unit (metre, kilogram, litre, metre/second, byte,
 * second). Factors are the legal definitions (1 in = 0.0254 m, 1 lb = 0.45359237 kg, 1 US gal = 3.785411784 L …).
 * Temperature is affine and handled separately. Aliases are matched case-insensitively.
 */

export const UNIT_CATEGORIES = ["length", "mass", "temperature", "volume", "speed", "data", "time"] as const;
export type UnitCategory = (typeof UNIT_CATEGORIES)[number];

export interface UnitDefinition {
  symbol: string;
  category: UnitCategory;
  /** Multiply by this to reach the base unit (temperature: unused). */
  factor: number;
  aliases: string[];
}

type Row = [symbol: string, factor: number, aliases: string[]];

const TABLE: Record<UnitCategory, Row[]> = {
  length: [
    ["mm", 0.001, ["millimeter", "millimeters", "millimetre", "millimetres"]],
    ["cm", 0.01, ["centimeter", "centimeters", "centimetre", "centimetres"]],
    ["m", 1, ["meter", "meters", "metre", "metres"]],
    ["km", 1000, ["kilometer", "kilometers", "kilometre", "kilometres"]],
    ["in", 0.0254, ["inch", "inches"]],
    ["ft", 0.3048, ["foot", "feet"]],
    ["yd", 0.9144, ["yard", "yards"]],
    ["mi", 1609.344, ["mile", "miles"]],
    ["nmi", 1852, ["nautical mile", "nautical miles"]],
  ],
  mass: [
    ["mg", 1e-6, ["milligram", "milligrams"]],
    ["g", 0.001, ["gram", "grams"]],
    ["kg", 1, ["kilogram", "kilograms", "kilo", "kilos"]],
    ["t", 1000, ["tonne", "tonnes", "metric ton", "metric tons"]],
    ["oz", 0.028349523125, ["ounce", "ounces"]],
    ["lb", 0.45359237, ["lbs", "pound", "pounds"]],
    ["st", 6.35029318, ["stone", "stones"]],
    ["ton", 907.18474, ["tons", "short ton", "short tons", "us ton"]],
  ],
  temperature: [
    ["C", 1, ["celsius", "°c", "degc", "centigrade"]],
    ["F", 1, ["fahrenheit", "°f", "degf"]],
    ["K", 1, ["kelvin", "kelvins"]],
  ],
  volume: [
    ["ml", 0.001, ["milliliter", "milliliters", "millilitre", "millilitres"]],
    ["l", 1, ["liter", "liters", "litre", "litres"]],
    ["m3", 1000, ["cubic meter", "cubic meters", "cubic metre", "cubic metres"]],
    ["tsp", 0.00492892159375, ["teaspoon", "teaspoons"]],
    ["tbsp", 0.01478676478125, ["tablespoon", "tablespoons"]],
    ["fl oz", 0.0295735295625, ["floz", "fluid ounce", "fluid ounces"]],
    ["cup", 0.2365882365, ["cups"]],
    ["pt", 0.473176473, ["pint", "pints"]],
    ["qt", 0.946352946, ["quart", "quarts"]],
    ["gal", 3.785411784, ["gallon", "gallons", "us gallon", "us gallons"]],
    ["imp gal", 4.54609, ["imperial gallon", "imperial gallons"]],
  ],
  speed: [
    ["m/s", 1, ["mps", "meters per second", "metres per second"]],
    ["km/h", 1 / 3.6, ["kmh", "kph", "kilometers per hour", "kilometres per hour"]],
    ["mph", 0.44704, ["mi/h", "miles per hour"]],
    ["knot", 1852 / 3600, ["knots", "kn", "kt"]],
    ["ft/s", 0.3048, ["fps", "feet per second"]],
  ],
  data: [
    ["bit", 0.125, ["bits"]],
    ["byte", 1, ["bytes", "B"]],
    ["kbit", 125, ["kilobit", "kilobits", "kbps"]],
    ["Mbit", 125_000, ["megabit", "megabits", "mbps"]],
    ["Gbit", 125_000_000, ["gigabit", "gigabits", "gbps"]],
    ["KB", 1e3, ["kilobyte", "kilobytes"]],
    ["MB", 1e6, ["megabyte", "megabytes"]],
    ["GB", 1e9, ["gigabyte", "gigabytes"]],
    ["TB", 1e12, ["terabyte", "terabytes"]],
    ["PB", 1e15, ["petabyte", "petabytes"]],
    ["KiB", 1024, ["kibibyte", "kibibytes"]],
    ["MiB", 1024 ** 2, ["mebibyte", "mebibytes"]],
    ["GiB", 1024 ** 3, ["gibibyte", "gibibytes"]],
    ["TiB", 1024 ** 4, ["tebibyte", "tebibytes"]],
  ],
  time: [
    ["ms", 0.001, ["millisecond", "milliseconds"]],
    ["s", 1, ["sec", "secs", "second", "seconds"]],
    ["min", 60, ["mins", "minute", "minutes"]],
    ["h", 3600, ["hr", "hrs", "hour", "hours"]],
    ["day", 86_400, ["days", "d"]],
    ["week", 604_800, ["weeks", "wk", "wks"]],
    ["year", 31_536_000, ["years", "yr", "yrs"]],
  ],
};

const normalize = (name: string) => name.trim().toLowerCase().replace(/\s+/g, " ").replace(/\.$/, "");

const BY_NAME = new Map<string, UnitDefinition>();
for (const category of UNIT_CATEGORIES) {
  for (const [symbol, factor, aliases] of TABLE[category]) {
    const unit: UnitDefinition = { symbol, category, factor, aliases };
    for (const name of [symbol, ...aliases]) {
      const key = normalize(name);
      if (BY_NAME.has(key)) throw new Error(`unit table: "${name}" is defined twice`);
      BY_NAME.set(key, unit);
    }
  }
}

export function findUnit(name: string): UnitDefinition | undefined {
  return BY_NAME.get(normalize(name));
}

export function unitSymbols(category: UnitCategory): string[] {
  return TABLE[category].map(([symbol]) => symbol);
}

const TO_KELVIN: Record<string, (value: number) => number> = {
  C: (c) => c + 273.15,
  F: (f) => ((f - 32) * 5) / 9 + 273.15,
  K: (k) => k,
};
const FROM_KELVIN: Record<string, (kelvin: number) => number> = {
  C: (k) => k - 273.15,
  F: (k) => ((k - 273.15) * 9) / 5 + 32,
  K: (k) => k,
};

/** Converts between two units of the same category (the caller has checked that). */
export function convertUnits(value: number, from: UnitDefinition, to: UnitDefinition): number {
  if (from.category === "temperature") return FROM_KELVIN[to.symbol]!(TO_KELVIN[from.symbol]!(value));
  return (value * from.factor) / to.factor;
}
