/**
 * The environments against BFCL's own: every ground-truth call of a category runs through the Python
 * originals (bfcl_oracle.py, with python3) and through the TypeScript environments; each result
 * string and, after each turn, each instance's public state must be identical.
 */

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { REPO_ROOT } from "../../../paths.ts";
import { DEFAULT_BFCL_V4_DATA_DIR, DEFAULT_BFCL_V4_ROOT, v4AnswersFile, v4QuestionsFile } from "../../paths.ts";
import { isLongContext, type MultiTurnCategory, readCategory } from "../entries.ts";
import { EnvironmentSet } from "../execute.ts";

export const BFCL_PYTHON_DIR = join(DEFAULT_BFCL_V4_ROOT, "python");
const ORACLE = join(REPO_ROOT, "src", "bfcl", "multi-turn", "testing", "bfcl_oracle.py");

/** A python3 that can import BFCL's environments (math_api needs mpmath), or why there is none. */
export function pythonForOracle(): { python: string } | { missing: string } {
  if (!existsSync(BFCL_PYTHON_DIR)) return { missing: `no BFCL Python sources at ${BFCL_PYTHON_DIR}` };
  const tried: string[] = [];
  for (const python of ["/usr/bin/python3", "python3"]) {
    const probe = spawnSync(python, ["-c", "import mpmath"], { encoding: "utf8" });
    if (probe.status === 0) return { python };
    tried.push(
      `${python}: ${probe.error ? probe.error.message : (probe.stderr.trim().split("\n").at(-1) ?? "failed")}`,
    );
  }
  return { missing: `no python3 with mpmath (${tried.join("; ")}); Debian: apt-get install python3-mpmath` };
}

interface OracleTurn {
  readonly results: string[];
  readonly state: Record<string, unknown>;
}

export interface ParityReport {
  readonly entries: number;
  readonly turns: number;
  readonly calls: number;
  readonly mismatches: string[];
}

export function compareCategory(
  python: string,
  category: MultiTurnCategory,
  dataDir = DEFAULT_BFCL_V4_DATA_DIR,
): ParityReport {
  const run = spawnSync(
    python,
    [ORACLE, BFCL_PYTHON_DIR, v4QuestionsFile(dataDir, category), v4AnswersFile(dataDir, category)],
    { encoding: "utf8", maxBuffer: 1 << 30 },
  );
  if (run.status !== 0) throw new Error(`bfcl_oracle.py failed on ${category}: ${run.stderr || run.error?.message}`);
  const oracle = new Map<string, OracleTurn[]>(
    run.stdout
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => {
        const entry = JSON.parse(line) as { id: string; turns: OracleTurn[] };
        return [entry.id, entry.turns] as const;
      }),
  );
  const { entries, groundTruth } = readCategory(dataDir, category);
  const mismatches: string[] = [];
  let turns = 0;
  let calls = 0;
  for (const entry of entries) {
    const expected = oracle.get(entry.id);
    const truth = groundTruth.get(entry.id) ?? [];
    if (!expected) {
      mismatches.push(`${entry.id}: the oracle wrote nothing`);
      continue;
    }
    const envs = new EnvironmentSet(entry.involvedClasses, entry.initialConfig, isLongContext(entry.id));
    truth.forEach((turnCalls, t) => {
      turns++;
      const results = envs.execute(turnCalls);
      results.forEach((result, i) => {
        calls++;
        const want = expected[t]?.results[i];
        if (result !== want)
          mismatches.push(`${entry.id} turn ${t} call ${i} ${turnCalls[i]}:\n  python: ${want}\n  ts:     ${result}`);
      });
      const state = envs.canonicalState();
      for (const [name, want] of Object.entries(expected[t]?.state ?? {}))
        if (!isDeepStrictEqual(state[name], want))
          mismatches.push(
            `${entry.id} turn ${t}: ${name} state differs:\n  python: ${JSON.stringify(want).slice(0, 600)}\n  ts:     ${JSON.stringify(state[name]).slice(0, 600)}`,
          );
    });
  }
  return { entries: entries.length, turns, calls, mismatches };
}
