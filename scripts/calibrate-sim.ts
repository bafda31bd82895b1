/**
 * Writes reports/sim-calibration.md (SIMULATED numbers): runs the simulator profiles over the whole
 * dataset through the ReWOO planner and compares, per error type, the rate the scorer measures with the
 * rate the simulator was configured to inject. Run it after a change to the simulator, the agent's
 * planner prompt, the scorer's classifier or the dataset: `pnpm exec tsx scripts/calibrate-sim.ts`.
 * test/e2e/calibration.slow.test.ts checks that the committed file is what this produces.
 */

import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { renderCalibrationReport } from "./calibration/render.ts";
import { CALIBRATION_PROFILES, calibrateProfiles } from "./calibration/run.ts";

export const CALIBRATION_REPORT = fileURLToPath(new URL("../reports/sim-calibration.md", import.meta.url));

const run = await calibrateProfiles(CALIBRATION_PROFILES);
writeFileSync(CALIBRATION_REPORT, renderCalibrationReport(run));
process.stderr.write(`wrote ${CALIBRATION_REPORT}\n`);
