/** BFCL's test helpers for other parts' tests: sample data and shared paths. */

export { SAMPLE_MODEL, writeSample } from "./sample.ts";
export { sharedBfclPresent } from "./shared.ts";
