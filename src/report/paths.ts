/** How a report or a message shows a path. */
import { isAbsolute, relative, resolve } from "node:path";
import { REPO_ROOT } from "../paths.ts";

/**
 * A path as a message or a report prints it: relative to `from` when inside it, else absolute. Reports
 * take the repository (so a path reads the same on every machine); the CLI's messages the working folder.
 */
export function shownPath(path: string, from: string = REPO_ROOT): string {
  const inside = relative(from, resolve(path));
  return inside === "" || inside.startsWith("..") || isAbsolute(inside) ? resolve(path) : inside;
}
