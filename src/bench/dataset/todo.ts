/**
 * Starter items (`dataset new` writes one per tool, tagged `todo` with TODO in the query) are drafts: the
 * check names each one still marked and says what is left to do before it can benchmark anything.
 */
import type { DatasetProblem } from "./errors.ts";
import type { LoadedItem } from "./types.ts";

export const TODO_TAG = "todo";
export const TODO_MARK = "TODO";

export function todoProblems(items: readonly LoadedItem[]): DatasetProblem[] {
  const problems: DatasetProblem[] = [];
  for (const { item, file, line } of items) {
    const marked =
      item.tags.includes(TODO_TAG) || item.query.includes(TODO_MARK) || JSON.stringify(item.calls).includes(TODO_MARK);
    if (!marked) continue;
    const steps = [
      item.query.includes(TODO_MARK) ? "write the query as a user would ask it (no TODO left)" : undefined,
      JSON.stringify(item.calls).includes(TODO_MARK) ? "replace the TODO argument values with the query's" : undefined,
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
