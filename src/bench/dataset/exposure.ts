/**
 * Which servers a query runs with (DESIGN §3), a setting of the bench, not of the agent (which uses
 * whatever tools it is given): `own` = the item's own servers and the built-ins (a user who connected
 * exactly what the query needs); `session` = those plus a few distractors (what a user connects);
 * `all` = every server (a stress test). A configuration of models.yaml, a suite or `--exposure` sets it.
 */

/** The exposures, fewest servers first. */
export const EXPOSURES = ["own", "session", "all"] as const;

export type Exposure = (typeof EXPOSURES)[number];

export const DEFAULT_EXPOSURE: Exposure = "session";
