export { seededRandom } from "../../random.ts";
export { type BootstrapOptions, bootstrapPercentileCIs, type PercentileEstimate } from "./bootstrap.ts";
export { StatsArgumentError } from "./errors.ts";
export { groupSequentialBoundaries } from "./group-sequential.ts";
export { countPair, mcnemarExact, type PairedCounts, type PairedDifference, pairedDifferenceCI } from "./mcnemar.ts";
export { nearestRank, percentile } from "./percentile.ts";
export { type Interval, wilson, Z95 } from "./wilson.ts";
