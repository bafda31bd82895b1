/**
 * Fault injection settings of the mock servers (DESIGN §5): what `--faults JSON`, `MOCK_MCP_FAULTS` and the
 * hidden `__faults` tool take. Off by default; every draw is seeded, so a run with faults repeats exactly.
 */
import { InputError } from "../errors.ts";

/** Faults injected per call. Rates are probabilities in [0, 1]. */
export interface FaultConfig {
  seed?: number;
  /** Extra latency per call, in milliseconds: fixed, or uniform in [min, max]. */
  latencyMs?: number | { min: number; max: number };
  /** JSON-RPC -32603 (retryable). */
  transientRate?: number;
  /** JSON-RPC -32002 (permanent). */
  permanentRate?: number;
  /** A result whose structuredContent breaks the tool's output schema. */
  malformedRate?: number;
  /** The server dies when this many tool calls have been made (counting from its start). */
  crashAfter?: number;
}

/** Environment variable carrying a JSON FaultConfig (passed through to stdio servers by the registry). */
export const FAULTS_ENV = "MOCK_MCP_FAULTS";

/** Bad fault settings: names where they came from (a flag, the variable) and what was expected. */
export class FaultConfigError extends InputError {}

const RATES = ["transientRate", "permanentRate", "malformedRate"] as const;

/** Parses and checks a FaultConfig; `source` names where the text came from (`--faults`, `MOCK_MCP_FAULTS`). */
export function parseFaults(text: string, source: string): FaultConfig {
  const fail = (problem: string): never => {
    throw new FaultConfigError("BAD_FAULTS", `${source}: ${problem}`, { context: { source } });
  };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    return fail(`not valid JSON (${(cause as Error).message}); e.g. '{"transientRate":0.1,"seed":1}'`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return fail("expected a JSON object");
  const config = raw as Record<string, unknown>;
  const known = new Set(["seed", "latencyMs", ...RATES, "crashAfter"]);
  for (const key of Object.keys(config)) {
    if (!known.has(key)) fail(`unknown field "${key}" (known: ${[...known].join(", ")})`);
  }
  for (const key of RATES) {
    const value = config[key];
    if (value !== undefined && !(typeof value === "number" && value >= 0 && value <= 1)) {
      fail(`${key} must be a number from 0 to 1`);
    }
  }
  for (const key of ["seed", "crashAfter"] as const) {
    const value = config[key];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) {
      fail(`${key} must be a whole number ≥ 0`);
    }
  }
  const latency = config.latencyMs;
  const isMs = (value: unknown) => typeof value === "number" && value >= 0;
  if (
    latency !== undefined &&
    !isMs(latency) &&
    !(
      typeof latency === "object" &&
      latency !== null &&
      isMs((latency as { min?: unknown }).min) &&
      isMs((latency as { max?: unknown }).max)
    )
  ) {
    fail('latencyMs must be milliseconds ≥ 0 or {"min": …, "max": …}');
  }
  return config as FaultConfig;
}
