/** The world's clock as the planner reads it: a suite's `clock` (suite.ts) turned into the prompt's date line. */

/** The date line every query's planner gets (`pnpm agent` gives the same); none without a clock. */
export function worldContext(clock: string | undefined): string | undefined {
  if (clock === undefined || clock === "none") return undefined;
  const now = new Date(clock);
  const day = now.toLocaleDateString("en-US", {
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
  return `Today is ${day}, ${now.toISOString().slice(11, 16)} UTC.`;
}
