/** The simulator's public surface: the provider, the profile catalogue, and the calibration hooks. */

export { type SimCatalogue, type SimProfile, simCatalogue, simProfile, simProfileNames } from "./catalog.ts";
export type { SimDecision } from "./decide.ts";
export { type SimAnalysis, SimEngine, type SimOptions } from "./engine.ts";
export {
  CALL_ERROR_TYPES,
  type CallErrorType,
  REQUEST_ERROR_TYPES,
  type RequestErrorType,
  SIM_ERROR_TYPES,
  type SimErrorType,
} from "./error-types.ts";
export { SimProfileDataError, UnknownSimProfileError } from "./errors.ts";
export { type GoldCall, goldCalls, type SimGoldItem } from "./gold.ts";
export { madeUpNames } from "./mistakes.ts";
export { createSimProvider, type SimProviderOptions } from "./provider.ts";
export { effectiveRates, type SimFeatures, type SimRates } from "./rates.ts";
export type { SimRequest } from "./reading.ts";
