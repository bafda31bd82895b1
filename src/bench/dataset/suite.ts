/**
 * A dataset's suite: a sidecar `suite.yaml` in its folder, or `<name>.suite.yaml` beside `<name>.jsonl`,
 * saying which servers the dataset needs, its clock (the "today" the planner is told, or `none`) and its
 * default exposure. Without a suite a dataset has no clock and needs every server of the registry.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { parse } from "yaml";
import { InputError } from "../../errors.ts";
import { EXPOSURES, type Exposure } from "./exposure.ts";

export interface Suite {
  /** The suite files it was read from (one, or several that agree). */
  files: string[];
  name?: string;
  /** The servers the dataset needs: the run connects these (default: every server of the registry). */
  servers?: string[];
  /** The world's "now" as an ISO date-time, or `none` for no date line in the prompt. */
  clock?: string;
  exposure?: Exposure;
}

/** A suite file that is not what it must be: one line naming the file, exit 2. */
export class SuiteError extends InputError {}

const KEYS = ["name", "servers", "clock", "exposure"] as const;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** Reads and validates one suite file. */
export function loadSuite(file: string): Suite {
  const fail = (problem: string): never => {
    throw new SuiteError("SUITE_INVALID", `${file}: ${problem}`, { context: { file } });
  };
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, "utf8"));
  } catch (cause) {
    return fail(`not a readable YAML file (${(cause as Error).message.split("\n")[0]})`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    return fail("expected a mapping of name, servers, clock, exposure");
  const data = raw as Record<string, unknown>;
  const unknown = Object.keys(data).filter((key) => !(KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) fail(`unknown key "${unknown[0]}" (a suite has: ${KEYS.join(", ")})`);
  const { name, servers, clock, exposure } = data;
  if (name !== undefined && (typeof name !== "string" || name === "")) fail("name must be a non-empty string");
  if (servers !== undefined && !(Array.isArray(servers) && servers.every((server) => typeof server === "string"))) {
    fail("servers must be a list of server names");
  }
  if (clock !== undefined && clock !== "none") {
    if (typeof clock !== "string" || !ISO_DATE_TIME.test(clock) || Number.isNaN(Date.parse(clock))) {
      fail(`clock must be an ISO date-time like 2026-03-16T09:30:00Z, or none (not ${JSON.stringify(clock)})`);
    }
  }
  if (exposure !== undefined && !(EXPOSURES as readonly unknown[]).includes(exposure)) {
    fail(`exposure must be one of ${EXPOSURES.join(", ")}`);
  }
  return {
    files: [file],
    ...(name === undefined ? {} : { name: name as string }),
    ...(servers === undefined ? {} : { servers: servers as string[] }),
    ...(clock === undefined ? {} : { clock: clock as string }),
    ...(exposure === undefined ? {} : { exposure: exposure as Exposure }),
  };
}

/** The suite file that governs a dataset file: its own `<name>.suite.yaml`, else its folder's `suite.yaml`. */
export function suiteFileFor(datasetFile: string): string | undefined {
  const own = join(dirname(datasetFile), `${basename(datasetFile, ".jsonl")}.suite.yaml`);
  if (existsSync(own)) return own;
  const folder = join(dirname(datasetFile), "suite.yaml");
  return existsSync(folder) ? folder : undefined;
}

/**
 * The suite of a run's dataset files: none when no file has one; the servers of all of them; one clock
 * and one exposure, which the suites must agree on (a run has one "today").
 */
export function suiteOf(datasetFiles: readonly string[]): Suite | undefined {
  const files = [...new Set(datasetFiles.map(suiteFileFor).filter((file): file is string => file !== undefined))];
  if (files.length === 0) return undefined;
  const suites = files.map(loadSuite);
  const agreed = <K extends "clock" | "exposure" | "name">(key: K): Suite[K] => {
    const values = [...new Set(suites.map((suite) => suite[key]))];
    if (values.length > 1 && key !== "name") {
      throw new SuiteError(
        "SUITE_CONFLICT",
        `${files.join(", ")}: the suites of the run's dataset files disagree on ${key} (${values.map((value) => value ?? "unset").join(" vs ")})`,
      );
    }
    return values.length === 1 ? values[0] : undefined;
  };
  const servers = suites.some((suite) => suite.servers === undefined)
    ? undefined
    : [...new Set(suites.flatMap((suite) => suite.servers ?? []))];
  const name = agreed("name");
  const clock = agreed("clock");
  const exposure = agreed("exposure");
  return {
    files,
    ...(name === undefined ? {} : { name }),
    ...(servers === undefined ? {} : { servers }),
    ...(clock === undefined ? {} : { clock }),
    ...(exposure === undefined ? {} : { exposure }),
  };
}
