/** Typed errors of `pnpm export`: all bad input (exit 2), each message one line naming the flag or file. */
import { InputError } from "../errors.ts";

/** A flag of `export` is missing or wrong (format, output folder, model the format cannot take). */
export class ExportFlagError extends InputError {}

/** A registry or model entry carries a secret-looking value: it would be written into the export. */
export class InlineSecretError extends InputError {}
