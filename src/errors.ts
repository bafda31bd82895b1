/**
 * The base of every typed error in the project: a stable `code` for machines, a message for people,
 * context for the record, and the cause kept (never swallowed).
 */
export class OnsetlabError extends Error {
  readonly code: string;
  readonly context: Record<string, unknown>;

  constructor(code: string, message: string, options: { context?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.context = options.context ?? {};
  }
}

/** Bad input from a user: a flag, a file, a config entry. The CLI maps it to exit code 2. */
export class InputError extends OnsetlabError {}
