import { ToolError } from "../kit/errors.ts";
import filesFixture from "./fixtures/files.json" with { type: "json" };
import { baseName, isWithin, parentOf } from "./paths.ts";

interface NodeTimes {
  created: string;
  modified: string;
  /** Permission bits as the reference server prints them, e.g. "644". */
  mode: string;
}

export interface FileNode extends NodeTimes {
  type: "file";
  content: string;
  /** utf8 for text; base64 for binary files (images, audio). */
  encoding: "utf8" | "base64";
}

export interface DirectoryNode extends NodeTimes {
  type: "directory";
}

export type FsNode = FileNode | DirectoryNode;

/** The whole in-memory file system: absolute POSIX path → node. */
export interface FilesystemState {
  roots: string[];
  nodes: Record<string, FsNode>;
}

interface FixtureFile {
  path: string;
  created: string;
  modified: string;
  mode: string;
  content?: string[];
  base64?: string;
}

/** A fresh tree from fixtures/files.json; directories are implied by the file paths. */
export function createFilesystemState(): FilesystemState {
  const fixture = filesFixture as {
    roots: string[];
    directoryTime: string;
    emptyDirectories: string[];
    files: FixtureFile[];
  };
  const state: FilesystemState = { roots: [...fixture.roots], nodes: {} };
  const directory = (): DirectoryNode => ({
    type: "directory",
    created: fixture.directoryTime,
    modified: fixture.directoryTime,
    mode: "755",
  });
  for (const root of fixture.roots) state.nodes[root] = directory();
  const ensureDirectory = (path: string) => {
    for (const ancestor of ancestorsOf(path)) state.nodes[ancestor] ??= directory();
  };
  for (const path of fixture.emptyDirectories) ensureDirectory(path);
  for (const file of fixture.files) {
    ensureDirectory(parentOf(file.path));
    state.nodes[file.path] = {
      type: "file",
      content: file.base64 ?? (file.content ?? []).join("\n"),
      encoding: file.base64 === undefined ? "utf8" : "base64",
      created: file.created,
      modified: file.modified,
      mode: file.mode,
    };
  }
  return state;
}

/** "/a/b/c" → ["/a", "/a/b", "/a/b/c"]. */
function ancestorsOf(path: string): string[] {
  const parts = path.split("/").filter(Boolean);
  return parts.map((_, i) => `/${parts.slice(0, i + 1).join("/")}`);
}

export function bytesOf(file: FileNode): Buffer {
  return Buffer.from(file.content, file.encoding);
}

/** Size as stat reports it: bytes for files, one 4 KiB block for directories. */
export function sizeOf(node: FsNode): number {
  return node.type === "file" ? bytesOf(node).length : 4096;
}

export function textOf(file: FileNode): string {
  return bytesOf(file).toString("utf8");
}

/** Node's error texts (errno: message, syscall 'path'), so agents see what the real server shows. */
const ERRNO = {
  ENOENT: ["not_found", "no such file or directory"],
  ENOTDIR: ["not_a_directory", "not a directory"],
  EISDIR: ["is_a_directory", "illegal operation on a directory"],
  EEXIST: ["already_exists", "file already exists"],
  EINVAL: ["invalid_argument", "invalid argument"],
  EBUSY: ["busy", "resource busy or locked"],
} as const;

export function fsError(errno: keyof typeof ERRNO, syscall: string, target: string): ToolError {
  const [code, text] = ERRNO[errno];
  return new ToolError(code, `${errno}: ${text}, ${syscall} '${target}'`);
}

export function requireFile(state: FilesystemState, path: string, syscall = "open"): FileNode {
  const node = state.nodes[path];
  if (!node) throw fsError("ENOENT", syscall, path);
  if (node.type === "directory")
    throw new ToolError("is_a_directory", "EISDIR: illegal operation on a directory, read");
  return node;
}

export function requireDirectory(state: FilesystemState, path: string): DirectoryNode {
  const node = state.nodes[path];
  if (!node) throw fsError("ENOENT", "scandir", path);
  if (node.type !== "directory") throw fsError("ENOTDIR", "scandir", path);
  return node;
}

export interface DirectoryEntry {
  name: string;
  path: string;
  node: FsNode;
}

/** Direct children of a directory, sorted by name (byte order, like most file systems list them). */
export function childrenOf(state: FilesystemState, directory: string): DirectoryEntry[] {
  const prefix = directory === "/" ? "/" : `${directory}/`;
  return Object.keys(state.nodes)
    .filter((path) => path.startsWith(prefix) && !path.slice(prefix.length).includes("/") && path !== directory)
    .sort()
    .map((path) => ({ name: baseName(path), path, node: state.nodes[path]! }));
}

/** Paths at or below `path`. */
export function subtreeOf(state: FilesystemState, path: string): string[] {
  return Object.keys(state.nodes).filter((candidate) => isWithin(candidate, path));
}

/** Marks a directory as changed (its mtime moves when an entry is added, removed or renamed). */
export function touchDirectory(state: FilesystemState, path: string, now: Date): void {
  const node = state.nodes[path];
  if (node?.type === "directory") node.modified = now.toISOString();
}
