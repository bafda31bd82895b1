import { InputError } from "../../errors.ts";

/** One defect in a dataset, located at file:line (line 0 = the file as a whole). */
export interface DatasetProblem {
  file: string;
  line: number;
  /** Item id, when the line parsed far enough to have one. */
  id?: string;
  message: string;
}

/** A dataset that must not run: unreadable, or with invalid lines. Carries every problem found. */
export class DatasetError extends InputError {
  readonly problems: DatasetProblem[];

  constructor(code: string, problems: DatasetProblem[], options: { cause?: unknown } = {}) {
    const shown = problems.slice(0, 5).map(formatProblem);
    const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : "";
    super(code, `${shown.join("; ")}${more}`, { cause: options.cause, context: { problems: problems.length } });
    this.problems = problems;
  }
}

export function formatProblem(problem: DatasetProblem): string {
  const where = problem.line > 0 ? `${problem.file}:${problem.line}` : problem.file;
  return showInvisible(`${where}${problem.id ? ` (${problem.id})` : ""}: ${problem.message}`);
}

// control and format characters (BOM, zero-width space/joiners, direction marks …), line and paragraph
// separators, and spaces other than the plain one
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|(?! )\p{Zs}/gu;

/**
 * Text with every invisible or look-alike character written as its escape (`\uFEFF`, `\t`): a line
 * rejected for a character the reader cannot see must show it.
 */
export function showInvisible(text: string): string {
  return text.replace(INVISIBLE, (char) => {
    const named = { "\t": "\\t", "\n": "\\n", "\r": "\\r" }[char];
    const code = char.codePointAt(0)!.toString(16).toUpperCase();
    return named ?? (code.length > 4 ? `\\u{${code}}` : `\\u${code.padStart(4, "0")}`);
  });
}
