import { ToolError } from "../../kit/errors.ts";
import type { ToolSpec } from "../../kit/types.ts";
import { fencedDiff, unifiedDiff } from "../diff.ts";
import { applyEdits, type FileEdit } from "../edits.ts";
import { isWithin, parentOf } from "../paths.ts";
import { BLOCK_OUTPUT, blockResult, PATH_PARAM, resolveIn, TEXT_OUTPUT, textResult } from "../results.ts";
import { type FilesystemState, fsError, requireFile, subtreeOf, textOf, touchDirectory } from "../tree.ts";

/** The parent of a new entry must already be a directory (write_file and move_file do not create parents). */
function requireParentDirectory(state: FilesystemState, path: string, syscall: string, shown = path): void {
  const parent = state.nodes[parentOf(path)];
  if (!parent) throw fsError("ENOENT", syscall, shown);
  if (parent.type !== "directory") throw fsError("ENOTDIR", syscall, shown);
}

function putFile(state: FilesystemState, path: string, content: string, now: Date): void {
  const existing = state.nodes[path];
  if (existing?.type === "directory") throw fsError("EISDIR", "open", path);
  if (!existing) {
    requireParentDirectory(state, path, "open");
    touchDirectory(state, parentOf(path), now);
  }
  state.nodes[path] = {
    type: "file",
    content,
    encoding: "utf8",
    created: existing?.created ?? now.toISOString(),
    modified: now.toISOString(),
    // An overwrite keeps the original permission bits, as the reference server restores them.
    mode: existing?.mode ?? "644",
  };
}

export const writeFileTool: ToolSpec<FilesystemState> = {
  name: "write_file",
  description:
    "Create a new file or completely overwrite an existing file with new content. Use with caution as it will overwrite existing files without warning. Handles text content with proper encoding. Only works within allowed directories.",
  inputSchema: {
    type: "object",
    properties: { path: PATH_PARAM, content: { type: "string" } },
    required: ["path", "content"],
  },
  outputSchema: TEXT_OUTPUT,
  annotations: { title: "Write File", readOnlyHint: false, idempotentHint: true, destructiveHint: true },
  handler: (args, { state, now }) => {
    putFile(state, resolveIn(state, args.path), String(args.content), now);
    return textResult(`Successfully wrote to ${String(args.path)}`);
  },
};

export const editFileTool: ToolSpec<FilesystemState> = {
  name: "edit_file",
  description:
    "Make line-based edits to a text file. Each edit replaces exact line sequences with new content. Returns a git-style diff showing the changes made. Only works within allowed directories.",
  inputSchema: {
    type: "object",
    properties: {
      path: PATH_PARAM,
      edits: {
        type: "array",
        items: {
          type: "object",
          properties: {
            oldText: { type: "string", description: "Text to search for - must match exactly" },
            newText: { type: "string", description: "Text to replace with" },
          },
          required: ["oldText", "newText"],
        },
      },
      dryRun: { type: "boolean", default: false, description: "Preview changes using git-style diff format" },
    },
    required: ["path", "edits"],
  },
  outputSchema: TEXT_OUTPUT,
  annotations: { title: "Edit File", readOnlyHint: false, idempotentHint: false, destructiveHint: true },
  handler: (args, { state, now }) => {
    const path = resolveIn(state, args.path);
    const original = textOf(requireFile(state, path)).replace(/\r\n/g, "\n");
    const modified = applyEdits(original, args.edits as FileEdit[]);
    if (args.dryRun !== true) putFile(state, path, modified, now);
    return textResult(fencedDiff(unifiedDiff(original, modified, path)));
  },
};

export const createDirectoryTool: ToolSpec<FilesystemState> = {
  name: "create_directory",
  description:
    "Create a new directory or ensure a directory exists. Can create multiple nested directories in one operation. If the directory already exists, this operation will succeed silently. Perfect for setting up directory structures for projects or ensuring required paths exist. Only works within allowed directories.",
  inputSchema: { type: "object", properties: { path: PATH_PARAM }, required: ["path"] },
  outputSchema: TEXT_OUTPUT,
  annotations: { title: "Create Directory", readOnlyHint: false, idempotentHint: true, destructiveHint: false },
  handler: (args, { state, now }) => {
    const path = resolveIn(state, args.path);
    const root = state.roots.find((candidate) => isWithin(path, candidate))!;
    const missing: string[] = [];
    for (let current = path; current !== root && !state.nodes[current]; current = parentOf(current)) {
      missing.unshift(current);
    }
    const deepestExisting = parentOf(missing[0] ?? `${path}/x`);
    if (state.nodes[path]?.type === "file") throw fsError("EEXIST", "mkdir", path);
    if (state.nodes[deepestExisting]?.type === "file") throw fsError("ENOTDIR", "mkdir", path);
    for (const directory of missing) {
      state.nodes[directory] = {
        type: "directory",
        created: now.toISOString(),
        modified: now.toISOString(),
        mode: "755",
      };
    }
    if (missing.length > 0) touchDirectory(state, deepestExisting, now);
    return textResult(`Successfully created directory ${String(args.path)}`);
  },
};

export const moveFileTool: ToolSpec<FilesystemState> = {
  name: "move_file",
  description:
    "Move or rename files and directories. Can move files between directories and rename them in a single operation. If the destination exists, the operation will fail. Works across different directories and can be used for simple renaming within the same directory. Both source and destination must be within allowed directories.",
  inputSchema: {
    type: "object",
    properties: { source: { type: "string" }, destination: { type: "string" } },
    required: ["source", "destination"],
  },
  outputSchema: BLOCK_OUTPUT,
  annotations: { title: "Move File", readOnlyHint: false, idempotentHint: false, destructiveHint: false },
  handler: (args, { state, now }) => {
    const source = resolveIn(state, args.source);
    const destination = resolveIn(state, args.destination);
    const pair = `${source}' -> '${destination}`;
    if (!state.nodes[source]) throw fsError("ENOENT", "rename", pair);
    if (state.roots.includes(source)) throw fsError("EBUSY", "rename", pair);
    if (state.nodes[destination]) throw new ToolError("already_exists", `Destination already exists: ${destination}`);
    if (isWithin(destination, source)) throw fsError("EINVAL", "rename", pair);
    requireParentDirectory(state, destination, "rename", pair);
    for (const path of subtreeOf(state, source)) {
      state.nodes[destination + path.slice(source.length)] = state.nodes[path]!;
      delete state.nodes[path];
    }
    touchDirectory(state, parentOf(source), now);
    touchDirectory(state, parentOf(destination), now);
    return blockResult(`Successfully moved ${String(args.source)} to ${String(args.destination)}`);
  },
};
