/** Where things live: the repository root, and reports/ under it. */
import { isAbsolute, relative, resolve } from "node:path";
import { REPO_ROOT } from "../paths.ts";
export const REPORTS_DIR = resolve(REPO_ROOT, "reports");

/** A path as reports print it: relative to the repository when inside it, so it reads the same on every machine. */
export function shownPath(path: string): string {
  const inside = relative(REPO_ROOT, resolve(path));
  return inside.startsWith("..") || isAbsolute(inside) ? resolve(path) : inside;
}
