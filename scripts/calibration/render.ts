/**
 * reports/sim-calibration.md from a calibration run: how it is measured, then per profile and type the
 * configured base rate, the expected effective rate on the dataset, what the simulator drew and what the
 * scorer measured, with the interval on the observable units (95% for all types together). Deterministic: no
 * dates, no timings.
 */

import { SIM_ERROR_TYPES } from "../../src/models/sim/index.ts";
import { CALIBRATION_LEVEL, judge, PER_TYPE_LEVEL } from "./judge.ts";
import { OBSERVABLE_RULES } from "./observable.ts";
import type { CalibrationRun } from "./run.ts";
import type { ProfileTally, TypeTally } from "./tally.ts";

export const REGENERATE_COMMAND = "pnpm exec tsx scripts/calibrate-sim.ts";

export function renderCalibrationReport(run: CalibrationRun): string {
  const level = `${Math.round(CALIBRATION_LEVEL * 100)}%`;
  const perType = `${(PER_TYPE_LEVEL * 100).toFixed(2)}%`;
  return [
    "# Simulator calibration (simulated)",
    "",
    "> **Simulated.** Every number on this page comes from the simulator (`sim`) answering from the dataset's own",
    "> gold labels. It checks the simulator's configured rates and the scorer's planner-output classifier against",
    "> each other; it says nothing about how a real model behaves.",
    "",
    `Regenerate with \`${REGENERATE_COMMAND}\` (it rewrites this file). \`test/e2e/calibration.slow.test.ts\` fails when`,
    "this file differs from what the script produces, and when a measured count of `sim:slm-3b` falls outside its",
    "interval.",
    "",
    "## How it is measured",
    "",
    `- **Run**: each profile over the whole dataset (${run.dataset.items} items, dataset hash \`${run.dataset.hash}\`)`,
    `  through the pipeline's ReWOO planner — a bench run of configuration \`${run.config}\` (the agent's own tool`,
    `  filter, skill detection and planner prompt), seed ${run.seed}, one planner request per item.`,
    "- **Expected**: the simulator's effective rate of the type for that exact prompt (`SimEngine.analyse`: base rate",
    "  × tools, skill and fix factors, capped per level), summed over the units; the expected rate is their mean.",
    "- **Drawn**: the mistakes the simulator drew for the request (`SimEngine.analyse(…).decision`).",
    "- **Measured**: what the scorer's classifier (`classifyPlannerOutput`, stored by the bench in",
    "  `ItemScore.planner`) finds in the planner's output: request-level types once per output, call-level types",
    "  once per step it flags.",
    "- **Units**: planner outputs for request-level types; gold calls written for call-level ones (none when the",
    "  simulator answered directly).",
    `- **Interval**: the ${perType} two-sided acceptance interval of a binomial (n, expected rate), so that the`,
    `  ${SIM_ERROR_TYPES.length} types' intervals hold together at ${level} (Bonferroni): at ${level} per type, about one type in twenty`,
    "  would fall outside by chance alone. Rates vary per prompt, so the count's true law is Poisson-binomial,",
    "  whose variance is smaller: the interval is the conservative one. The verdict (`inside`) compares the",
    "  measured count with it on the observable units.",
    "- **Observable units**: where the classifier can see an injection by construction, decided from the gold",
    "  labels, the tools the prompt showed and the request-level draw — never from the classifier's verdict. The",
    "  `all units` columns show everything, the invisible injections included.",
    "",
    "| type | observable units |",
    "| --- | --- |",
    ...SIM_ERROR_TYPES.map((type) => `| ${type} | ${OBSERVABLE_RULES[type]} |`),
    "| type_error | every gold call written: the classifier's own type, which the simulator never injects (a control) |",
    "",
    ...run.profiles.flatMap(renderProfile),
  ].join("\n");
}

function renderProfile(profile: ProfileTally): string[] {
  const calls = profile.types.find((tally) => tally.level === "call")!.all.n;
  const inside = profile.types.filter((tally) => judge(tally.observable).inside).length;
  const disagreements = profile.types.filter((tally) => tally.disagreements.length > 0);
  const outside = profile.types.filter((tally) => !judge(tally.observable).inside);
  return [
    `## sim:${profile.profile} (simulated)`,
    "",
    `${profile.requests} planner requests, ${calls} gold calls written. Measured inside the interval: ${inside} of ` +
      `${profile.types.length} types.`,
    "",
    "| type | level | base rate | all units: n | expected | drawn | measured | observable: n | expected | interval | drawn | measured | inside |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ...profile.types.map(renderRow),
    "",
    ...outside.map((tally) => outsideNote(tally)),
    ...(outside.length > 0 ? [""] : []),
    ...(disagreements.length === 0
      ? ["The classifier and the simulator agree on every observable unit.", ""]
      : [
          "Where the classifier and the simulator disagree on observable units (item: drawn → measured):",
          "",
          ...disagreements.map(
            (tally) =>
              `- ${tally.type}: ${tally.disagreements.map((d) => `${d.itemId} ${d.drawn}→${d.measured}`).join(", ")}`,
          ),
          "",
        ]),
  ];
}

/** Whose count left the interval: the simulator's draws, or the classifier's reading of them. */
function outsideNote(tally: TypeTally): string {
  const { observable } = tally;
  const { lo, hi } = judge(observable).interval;
  const drawnInside = observable.drawn >= lo && observable.drawn <= hi;
  return (
    `Outside: ${tally.type} measured ${observable.measured}, interval ${lo}–${hi}; the simulator drew ` +
    `${observable.drawn}, ${drawnInside ? "inside: the gap is the classifier's" : "outside too: the draws on this dataset and seed left the interval, not the classifier"}.`
  );
}

function renderRow(tally: TypeTally): string {
  const { all, observable } = tally;
  const verdict = judge(observable);
  const { lo, hi } = verdict.interval;
  const rateOf = (count: number, n: number) => (n === 0 ? "–" : pct(count / n));
  const cells = [
    tally.type,
    tally.level,
    pct(tally.baseRate),
    all.n,
    rateOf(all.expected, all.n),
    all.drawn,
    all.measured,
    observable.n,
    rateOf(observable.expected, observable.n),
    observable.n === 0 ? "–" : `${lo}–${hi} (${pct(lo / observable.n)}–${pct(hi / observable.n)})`,
    observable.drawn,
    `${observable.measured} (${rateOf(observable.measured, observable.n)})`,
    verdict.inside ? "yes" : "**no**",
  ];
  return `| ${cells.join(" | ")} |`;
}

function pct(value: number): string {
  return `${(value * 100).toFixed(2)}%`;
}
