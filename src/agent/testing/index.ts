/** The agent's test helpers for other parts' tests and measurements: sample definitions, a fake tool host, the fuzz corpus. */

export { SAMPLE_TOOLS } from "./definitions.ts";
export { FakeToolHost, succeed } from "./fake-host.ts";
export { type FuzzInput, fuzzCorpus } from "./fuzz-corpus.ts";
