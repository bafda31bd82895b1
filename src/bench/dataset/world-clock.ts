/** The mock world's clock as the planner reads it: the mock servers answer as of MOCK_NOW. */
import { MOCK_NOW } from "../../../mock-servers/kit/types.ts";

/** Facts every query's planner gets (the mock world's date); `pnpm agent` gives the same. */
export const MOCK_WORLD_CONTEXT = `Today is ${MOCK_NOW.toLocaleDateString("en-US", {
  weekday: "long",
  year: "numeric",
  month: "long",
  day: "numeric",
  timeZone: "UTC",
})}, ${MOCK_NOW.toISOString().slice(11, 16)} UTC.`;
