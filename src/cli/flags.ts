import { InputError } from "../errors.ts";

/** A bad command-line flag value; the message names the flag and what was expected. */
export class FlagError extends InputError {}

export type TransportFlag = "stdio" | "memory";

export function parseTransport(value: string): TransportFlag {
  if (value === "stdio" || value === "memory") return value;
  throw new FlagError("BAD_FLAG", `--transport must be stdio or memory, not "${value}"`);
}

/** commander's collector for a flag that may be given several times (`--registry A --registry B`). */
export function repeated(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `--registry FILE` (repeatable): a user's server registries, merged. */
export const REGISTRY_FLAG = {
  flags: "--registry <file>",
  description: "a registry.json of servers (repeatable: merged) instead of mock-servers/registry.json",
} as const;

export function parsePositiveInt(flag: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) {
    throw new FlagError("BAD_FLAG", `${flag} must be a whole number ≥ 1, not "${value}"`);
  }
  return number;
}

/** A number strictly between 0 and 1 (a rate or a probability). */
export function parseFraction(flag: string, value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0 || number >= 1) {
    throw new FlagError("BAD_FLAG", `${flag} must be a number between 0 and 1 (e.g. 0.05), not "${value}"`);
  }
  return number;
}

/** One of a flag's `choices`, typed as it; anything else is bad input naming them all. */
export function parseChoice<T extends string>(flag: string, value: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(value)) {
    throw new FlagError("BAD_FLAG", `${flag} must be one of ${choices.join(", ")}, not "${value}"`);
  }
  return value as T;
}

/** A TCP port: 0 (any free port) to 65535. */
export function parsePort(flag: string, value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535)
    throw new FlagError("BAD_FLAG", `${flag} must be a port from 0 to 65535, not "${value}"`);
  return port;
}
