import type { StateCheck, StateCheckResult } from "../kit/types.ts";
import { normalizePosix } from "./paths.ts";
import { type FilesystemState, type FsNode, textOf } from "./tree.ts";

/** Checks accept the same spellings agents use: absolute, or relative to the first allowed directory. */
function lookup(state: FilesystemState, args: Record<string, unknown>): { path: string; node: FsNode | undefined } {
  const raw = String(args.path ?? "");
  const path = normalizePosix(raw.startsWith("/") ? raw : `${state.roots[0]}/${raw}`);
  return { path, node: state.nodes[path] };
}

const verdict = (pass: boolean, detail: string): StateCheckResult => ({ pass, detail });

const fileExists: StateCheck<FilesystemState> = (state, args) => {
  const { path, node } = lookup(state, args);
  return verdict(node?.type === "file", node ? `${path} is a ${node.type}` : `${path} does not exist`);
};

const fileAbsent: StateCheck<FilesystemState> = (state, args) => {
  const { path, node } = lookup(state, args);
  return verdict(!node, node ? `${path} exists (${node.type})` : `${path} does not exist`);
};

const directoryExists: StateCheck<FilesystemState> = (state, args) => {
  const { path, node } = lookup(state, args);
  return verdict(node?.type === "directory", node ? `${path} is a ${node.type}` : `${path} does not exist`);
};

const fileContains: StateCheck<FilesystemState> = (state, args) => {
  const { path, node } = lookup(state, args);
  const text = String(args.text ?? "");
  if (node?.type !== "file") return verdict(false, `${path} is not a file`);
  const found = textOf(node).includes(text);
  return verdict(found, `${path} ${found ? "contains" : "does not contain"} ${JSON.stringify(text)}`);
};

export const filesystemChecks: Record<string, StateCheck<FilesystemState>> = {
  file_exists: fileExists,
  file_absent: fileAbsent,
  file_contains: fileContains,
  directory_exists: directoryExists,
};
