import { OnsetlabError } from "../../errors.ts";

/** A statistic asked of impossible counts or options (a caller's bug, not a user's input). */
export class StatsArgumentError extends OnsetlabError {
  constructor(message: string, context: Record<string, unknown>) {
    super("STATS_BAD_ARGUMENT", message, { context });
  }
}
