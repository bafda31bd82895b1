import { InputError } from "../errors.ts";

/** A bad command-line flag value; the message names the flag and what was expected. */
export class FlagError extends InputError {}

export type TransportFlag = "stdio" | "memory";

export function parseTransport(value: string): TransportFlag {
  if (value === "stdio" || value === "memory") return value;
  throw new FlagError("BAD_FLAG", `--transport must be stdio or memory, not "${value}"`);
}

export function parsePositiveInt(flag: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) {
    throw new FlagError("BAD_FLAG", `${flag} must be a whole number ≥ 1, not "${value}"`);
  }
  return number;
}

/** A TCP port: 0 (any free port) to 65535. */
export function parsePort(flag: string, value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535)
    throw new FlagError("BAD_FLAG", `${flag} must be a port from 0 to 65535, not "${value}"`);
  return port;
}
