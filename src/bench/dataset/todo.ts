/**
 * Starter items (`dataset new` writes one per tool, tagged `todo`, its query starting `TODO:` and its text
 * arguments "TODO") are drafts: the check names each one still marked and says what is left to do before it
 * can benchmark anything. A finished item may well speak of a TODO (a TODO in a file, a todo.md): only the
 * starter's own marks count.
 */
import type { DatasetProblem } from "./errors.ts";
import type { LoadedItem } from "./types.ts";

export const TODO_TAG = "todo";
export const TODO_MARK = "TODO";

export function todoProblems(items: readonly LoadedItem[]): DatasetProblem[] {
  const problems: DatasetProblem[] = [];
  for (const { item, file, line } of items) {
    const draftQuery = item.query.trimStart().startsWith(`${TODO_MARK}:`);
    const draftArgs = item.calls.some((call) => holdsMark(call.args));
    if (!item.tags.includes(TODO_TAG) && !draftQuery && !draftArgs) continue;
    const steps = [
      draftQuery ? "write the query as a user would ask it (no TODO left)" : undefined,
      draftArgs ? "replace the TODO argument values with the query's" : undefined,
      item.state || item.answer
        ? undefined
        : item.tags.includes("write")
          ? 'add a "state" check: a read-only tool call whose result shows the change ({"call": {…}, "expect": {"contains": …}})'
          : 'add an "answer" check: what the answer must say ({"contains": […]})',
      item.tags.includes(TODO_TAG) ? 'drop the "todo" tag' : undefined,
    ].filter((step): step is string => step !== undefined);
    problems.push({ file, line, id: item.id, message: `starter item still marked TODO: ${steps.join("; ")}` });
  }
  return problems;
}

/** Does a gold value, or one inside it (a list of alternatives, an object), equal the starter's mark? */
function holdsMark(value: unknown): boolean {
  if (value === TODO_MARK) return true;
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).some(holdsMark);
}
