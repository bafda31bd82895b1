/** The run's test helpers for other parts' tests: record lines written as a run writes them. */

export { readRunLines, writeRunLines } from "./run-lines.ts";
