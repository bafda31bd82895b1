import { ToolError } from "../kit/errors.ts";

/** Where "~" points in the mock (outside every allowed root, as a real home directory would be). */
const HOME = "/home/agent";

/** POSIX path.resolve on an absolute path: collapses "//", ".", and ".." (never above "/"). */
export function normalizePosix(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

export function isWithin(path: string, root: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}

export function isAllowed(path: string, roots: string[]): boolean {
  return roots.some((root) => isWithin(path, root));
}

function outside(shown: string, roots: string[], why = ""): ToolError {
  return new ToolError(
    "access_denied",
    `Access denied - path outside allowed directories: ${shown} not in ${roots.join(", ")}${why}`,
  );
}

/**
 * Validates a requested path the way the reference server's validatePath does: expand "~", refuse Windows
 * drive paths, resolve relative paths against the allowed directories, normalise, and refuse anything that
 * ends up outside them ("..", absolute paths elsewhere). NUL bytes are refused outright.
 */
export function resolveAllowedPath(requested: string, roots: string[]): string {
  if (requested.includes("\0")) {
    throw outside(JSON.stringify(requested).slice(1, -1), roots, " (paths may not contain NUL bytes)");
  }
  const expanded = requested === "~" || requested.startsWith("~/") ? HOME + requested.slice(1) : requested;
  if (/^[A-Za-z]:(?:[\\/]|$)/.test(expanded)) {
    throw new ToolError("access_denied", `Access denied - Windows-style path received on a POSIX host: ${requested}`);
  }
  const absolute = expanded.startsWith("/") ? normalizePosix(expanded) : resolveRelative(expanded, roots);
  if (!isAllowed(absolute, roots)) throw outside(absolute, roots);
  return absolute;
}

/** A relative path resolves against the first allowed directory that keeps it inside; else the first one. */
function resolveRelative(relative: string, roots: string[]): string {
  for (const root of roots) {
    const candidate = normalizePosix(`${root}/${relative}`);
    if (isAllowed(candidate, roots)) return candidate;
  }
  return normalizePosix(`${roots[0] ?? ""}/${relative}`);
}

export function parentOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut <= 0 ? "/" : path.slice(0, cut);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** path.relative for a descendant (or the directory itself → ""). */
export function relativeTo(directory: string, path: string): string {
  return path === directory ? "" : path.slice(directory.length + 1);
}
