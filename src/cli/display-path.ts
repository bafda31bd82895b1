/** A path as a message shows it: relative to the working folder when inside it (`results/ID`), else absolute. */
import { isAbsolute, relative } from "node:path";

export function displayPath(path: string, from: string = process.cwd()): string {
  const inside = relative(from, path);
  return inside === "" || inside.startsWith("..") || isAbsolute(inside) ? path : inside;
}
