/** The export part's public surface: turn an agent configuration into a runnable bundle (script, Docker, service). */

export { exportAgent, parseFormat } from "./export.ts";
