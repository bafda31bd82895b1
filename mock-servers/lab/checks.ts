import type { StateCheck } from "../kit/types.ts";
import { LAB_ROOT, resolveLabPath } from "./paths.ts";
import type { LabState } from "./state.ts";

/** Resolves a check's path like the tools do; a path outside /lab simply does not exist. */
function checkedPath(args: Record<string, unknown>): string | undefined {
  try {
    return resolveLabPath(String(args.path ?? ""));
  } catch {
    return undefined;
  }
}

const contains = (haystack: string, needle: string) => haystack.toLowerCase().includes(needle.toLowerCase());

const excerpt = (text: string) => JSON.stringify(text.length > 120 ? `${text.slice(0, 120)}…` : text);

/** `file_exists {path}`: a file (not a directory) exists at the path. */
const fileExists: StateCheck<LabState> = (state, args) => {
  const path = checkedPath(args);
  if (path === undefined) return { pass: false, detail: `${String(args.path)} is outside ${LAB_ROOT}` };
  return state.files[path] !== undefined
    ? { pass: true, detail: `${path} exists (${Buffer.byteLength(state.files[path], "utf8")} bytes)` }
    : { pass: false, detail: `${path} does not exist` };
};

/** `file_contains {path, text}`: the file exists and contains the text (case-insensitive). */
const fileContains: StateCheck<LabState> = (state, args) => {
  const path = checkedPath(args);
  const text = String(args.text ?? "");
  const content = path === undefined ? undefined : state.files[path];
  if (content === undefined) return { pass: false, detail: `${path ?? String(args.path)} does not exist` };
  return contains(content, text)
    ? { pass: true, detail: `${path} contains ${JSON.stringify(text)}` }
    : { pass: false, detail: `${path} does not contain ${JSON.stringify(text)}; it starts with ${excerpt(content)}` };
};

/** `finished_with {text_contains}`: finish was called and the final answer contains the text (case-insensitive). */
const finishedWith: StateCheck<LabState> = (state, args) => {
  const expected = String(args.text_contains ?? "");
  if (!state.finish) return { pass: false, detail: "finish was never called" };
  return contains(state.finish.answer, expected)
    ? { pass: true, detail: `final answer contains ${JSON.stringify(expected)}` }
    : {
        pass: false,
        detail: `final answer ${excerpt(state.finish.answer)} does not contain ${JSON.stringify(expected)}`,
      };
};

export const labChecks: Record<string, StateCheck<LabState>> = {
  file_exists: fileExists,
  file_contains: fileContains,
  finished_with: finishedWith,
};
