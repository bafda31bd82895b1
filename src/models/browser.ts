/** What the viewer's browser code may load from models: provenance and the reasons an item is invalid. */

export { inProcessSimulator, isDeterministicProvenance, type ModelProvenance, type Provenance } from "./provenance.ts";
export type { InvalidReason } from "./types.ts";
