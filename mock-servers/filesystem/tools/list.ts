import type { ToolSpec } from "../../kit/types.ts";
import { matchesGlob } from "../glob.ts";
import { relativeTo } from "../paths.ts";
import {
  BLOCK_OUTPUT,
  blockResult,
  formatSize,
  PATH_PARAM,
  resolveIn,
  TEXT_OUTPUT,
  textResult,
  utcDateString,
} from "../results.ts";
import { childrenOf, type FilesystemState, fsError, requireDirectory, sizeOf } from "../tree.ts";

const pathOnly = { type: "object", properties: { path: PATH_PARAM }, required: ["path"] };
const excludePatternsParam = { type: "array", items: { type: "string" }, default: [] };

const entryLabel = (isDirectory: boolean) => (isDirectory ? "[DIR]" : "[FILE]");

export const listDirectoryTool: ToolSpec<FilesystemState> = {
  name: "list_directory",
  description:
    "Get a detailed listing of all files and directories in a specified path. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is essential for understanding directory structure and finding specific files within a directory. Only works within allowed directories.",
  inputSchema: pathOnly,
  outputSchema: TEXT_OUTPUT,
  annotations: { title: "List Directory", readOnlyHint: true },
  handler: (args, { state }) => {
    const path = resolveIn(state, args.path);
    requireDirectory(state, path);
    const lines = childrenOf(state, path).map(
      (entry) => `${entryLabel(entry.node.type === "directory")} ${entry.name}`,
    );
    return textResult(lines.join("\n"));
  },
};

export const listDirectoryWithSizesTool: ToolSpec<FilesystemState> = {
  name: "list_directory_with_sizes",
  description:
    "Get a detailed listing of all files and directories in a specified path, including sizes. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is useful for understanding directory structure and finding specific files within a directory. Only works within allowed directories.",
  inputSchema: {
    type: "object",
    properties: {
      path: PATH_PARAM,
      sortBy: { type: "string", enum: ["name", "size"], default: "name", description: "Sort entries by name or size" },
    },
    required: ["path"],
  },
  outputSchema: BLOCK_OUTPUT,
  annotations: { title: "List Directory with Sizes", readOnlyHint: true },
  handler: (args, { state }) => {
    const path = resolveIn(state, args.path);
    requireDirectory(state, path);
    const entries = childrenOf(state, path).map((entry) => ({
      name: entry.name,
      isDirectory: entry.node.type === "directory",
      size: sizeOf(entry.node),
    }));
    const sorted = [...entries].sort((a, b) =>
      args.sortBy === "size"
        ? b.size - a.size || a.name.localeCompare(b.name, "en")
        : a.name.localeCompare(b.name, "en"),
    );
    const lines = sorted.map(
      (entry) =>
        `${entryLabel(entry.isDirectory)} ${entry.name.padEnd(30)} ${entry.isDirectory ? "" : formatSize(entry.size).padStart(10)}`,
    );
    const files = entries.filter((entry) => !entry.isDirectory);
    const totalSize = files.reduce((sum, entry) => sum + entry.size, 0);
    const summary = [
      "",
      `Total: ${files.length} files, ${entries.length - files.length} directories`,
      `Combined size: ${formatSize(totalSize)}`,
    ];
    return blockResult([...lines, ...summary].join("\n"));
  },
};

interface TreeEntry {
  name: string;
  type: "file" | "directory";
  children?: TreeEntry[];
}

/** directory_tree's exclusion: a pattern without "*" also matches that name at any depth, and below it. */
function excludedFromTree(relativePath: string, patterns: string[]): boolean {
  return patterns.some((pattern) =>
    pattern.includes("*")
      ? matchesGlob(relativePath, pattern)
      : [pattern, `**/${pattern}`, `**/${pattern}/**`].some((variant) => matchesGlob(relativePath, variant)),
  );
}

export const directoryTreeTool: ToolSpec<FilesystemState> = {
  name: "directory_tree",
  description:
    "Get a recursive tree view of files and directories as a JSON structure. Each entry includes 'name', 'type' (file/directory), and 'children' for directories. Files have no children array, while directories always have a children array (which may be empty). The output is formatted with 2-space indentation for readability. Only works within allowed directories.",
  inputSchema: {
    type: "object",
    properties: { path: PATH_PARAM, excludePatterns: excludePatternsParam },
    required: ["path"],
  },
  outputSchema: BLOCK_OUTPUT,
  annotations: { title: "Directory Tree", readOnlyHint: true },
  handler: (args, { state }) => {
    const root = resolveIn(state, args.path);
    const patterns = (args.excludePatterns as string[] | undefined) ?? [];
    const build = (directory: string): TreeEntry[] => {
      requireDirectory(state, directory);
      return childrenOf(state, directory)
        .filter((entry) => !excludedFromTree(relativeTo(root, entry.path), patterns))
        .map((entry) =>
          entry.node.type === "directory"
            ? { name: entry.name, type: "directory", children: build(entry.path) }
            : { name: entry.name, type: "file" },
        );
    };
    return blockResult(JSON.stringify(build(root), null, 2));
  },
};

export const searchFilesTool: ToolSpec<FilesystemState> = {
  name: "search_files",
  description:
    "Recursively search for files and directories matching a pattern. The patterns should be glob-style patterns that match paths relative to the working directory. Use pattern like '*.ext' to match files in current directory, and '**/*.ext' to match files in all subdirectories. Returns full paths to all matching items. Great for finding files when you don't know their exact location. Only searches within allowed directories.",
  inputSchema: {
    type: "object",
    properties: { path: PATH_PARAM, pattern: { type: "string" }, excludePatterns: excludePatternsParam },
    required: ["path", "pattern"],
  },
  outputSchema: TEXT_OUTPUT,
  annotations: { title: "Search Files", readOnlyHint: true },
  handler: (args, { state }) => {
    const root = resolveIn(state, args.path);
    requireDirectory(state, root);
    const pattern = String(args.pattern);
    const excludes = (args.excludePatterns as string[] | undefined) ?? [];
    const matches: string[] = [];
    const walk = (directory: string) => {
      for (const entry of childrenOf(state, directory)) {
        const relative = relativeTo(root, entry.path);
        // An excluded entry is skipped together with everything below it.
        if (excludes.some((exclude) => matchesGlob(relative, exclude))) continue;
        if (matchesGlob(relative, pattern)) matches.push(entry.path);
        if (entry.node.type === "directory") walk(entry.path);
      }
    };
    walk(root);
    return textResult(matches.length > 0 ? matches.join("\n") : "No matches found");
  },
};

export const getFileInfoTool: ToolSpec<FilesystemState> = {
  name: "get_file_info",
  description:
    "Retrieve detailed metadata about a file or directory. Returns comprehensive information including size, creation time, last modified time, permissions, and type. This tool is perfect for understanding file characteristics without reading the actual content. Only works within allowed directories.",
  inputSchema: pathOnly,
  outputSchema: TEXT_OUTPUT,
  annotations: { title: "Get File Info", readOnlyHint: true },
  handler: (args, { state }) => {
    const path = resolveIn(state, args.path);
    const node = state.nodes[path];
    if (!node) throw fsError("ENOENT", "stat", path);
    const info = {
      size: sizeOf(node),
      created: utcDateString(node.created),
      modified: utcDateString(node.modified),
      accessed: utcDateString(node.modified),
      isDirectory: node.type === "directory",
      isFile: node.type === "file",
      permissions: node.mode,
    };
    return textResult(
      Object.entries(info)
        .map(([key, value]) => `${key}: ${value}`)
        .join("\n"),
    );
  },
};

export const listAllowedDirectoriesTool: ToolSpec<FilesystemState> = {
  name: "list_allowed_directories",
  description:
    "Returns the list of directories that this server is allowed to access. Subdirectories within these allowed directories are also accessible. Use this to understand which directories and their nested paths are available before trying to access files.",
  inputSchema: { type: "object", properties: {} },
  outputSchema: TEXT_OUTPUT,
  annotations: { title: "List Allowed Directories", readOnlyHint: true },
  handler: (_args, { state }) => textResult(`Allowed directories:\n${state.roots.join("\n")}`),
};
