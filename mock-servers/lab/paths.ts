import { posix } from "node:path";
import { ToolError } from "../kit/errors.ts";

export const LAB_ROOT = "/lab";

export function parentOf(path: string): string {
  return posix.dirname(path);
}

/**
 * Resolves a user path to an absolute path under /lab: relative paths start at /lab, "." and ".." are applied,
 * backslashes count as separators. Anything that ends up outside /lab is refused.
 */
export function resolveLabPath(input: string): string {
  const trimmed = input.trim().replaceAll("\\", "/");
  if (trimmed === "")
    throw new ToolError("invalid_path", "The path is empty; give a path under /lab, e.g. /lab/notes/ideas.txt");
  const resolved = posix.resolve(LAB_ROOT, trimmed);
  if (resolved !== LAB_ROOT && !resolved.startsWith(`${LAB_ROOT}/`)) {
    throw new ToolError(
      "access_denied",
      `Access denied: "${input}" resolves to ${resolved}, outside the allowed root ${LAB_ROOT}`,
    );
  }
  return resolved;
}

/** Names directly inside a directory ("notes/" for sub-directories), sorted, for listings in error messages. */
export function entriesOf(directory: string, files: Record<string, string>, directories: string[]): string[] {
  const children = [
    ...directories
      .filter((dir) => dir !== directory && parentOf(dir) === directory)
      .map((dir) => `${posix.basename(dir)}/`),
    ...Object.keys(files)
      .filter((file) => parentOf(file) === directory)
      .map((file) => posix.basename(file)),
  ];
  return children.sort();
}
