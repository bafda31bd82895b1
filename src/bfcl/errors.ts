import { InputError } from "../errors.ts";

/**
 * Bad BFCL input: a missing folder or file, an unreadable file, a malformed line. The message names
 * the file (and line); `context` carries them for the record. The CLI exits with code 2.
 */
export class BfclInputError extends InputError {}
