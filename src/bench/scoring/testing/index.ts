/** The scorer's test helpers for other parts' tests: trace and item fixtures. */

export { CREATE_ISSUE, call, item, TOOLS, trace } from "./fixtures.ts";
