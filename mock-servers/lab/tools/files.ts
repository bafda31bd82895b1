import { ToolError } from "../../kit/errors.ts";
import type { ToolSpec } from "../../kit/types.ts";
import { entriesOf, LAB_ROOT, parentOf, resolveLabPath } from "../paths.ts";
import type { LabState } from "../state.ts";

const DEFAULT_MAX_BYTES = 8192;
const MAX_BYTES_LIMIT = 1_048_576;

function listing(state: LabState, directory: string): string {
  const entries = entriesOf(directory, state.files, state.directories);
  return entries.length > 0 ? entries.join(", ") : "(empty)";
}

/** The deepest existing directory on the way to `path`, to show the agent what is actually there. */
function nearestDirectory(state: LabState, path: string): string {
  let dir = parentOf(path);
  while (!state.directories.includes(dir) && dir !== LAB_ROOT) dir = parentOf(dir);
  return dir;
}

/** Cuts UTF-8 text to at most `maxBytes` bytes without splitting a character. */
function truncateUtf8(content: string, maxBytes: number): { text: string; bytes: number } {
  const encoded = Buffer.from(content, "utf8");
  if (encoded.length <= maxBytes) return { text: content, bytes: encoded.length };
  let cut = maxBytes;
  while (cut > 0 && (encoded[cut]! & 0xc0) === 0x80) cut -= 1;
  return { text: encoded.subarray(0, cut).toString("utf8"), bytes: cut };
}

export const fileReadTool: ToolSpec<LabState> = {
  name: "file_read",
  description: `Read a text file under ${LAB_ROOT}. Relative paths start at ${LAB_ROOT}. Long files are cut at max_bytes (default ${DEFAULT_MAX_BYTES}).`,
  inputSchema: {
    type: "object",
    properties: {
      path: { type: "string", description: "File path, e.g. '/lab/notes/ideas.txt' or 'data/customers.json'." },
      max_bytes: {
        type: "integer",
        minimum: 1,
        maximum: MAX_BYTES_LIMIT,
        default: DEFAULT_MAX_BYTES,
        description: `Read at most this many bytes (default ${DEFAULT_MAX_BYTES}).`,
      },
    },
    required: ["path"],
  },
  outputSchema: {
    type: "object",
    properties: {
      path: { type: "string", description: "Absolute path that was read." },
      content: { type: "string" },
      bytes: { type: "integer", description: "Bytes returned in content." },
      total_bytes: { type: "integer", description: "Size of the whole file." },
      truncated: { type: "boolean", description: "True when content stops before the end of the file." },
    },
    required: ["path", "content", "bytes", "total_bytes", "truncated"],
    additionalProperties: false,
  },
  annotations: { title: "Read file", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, { state }) => {
    const path = resolveLabPath(String(args.path));
    if (state.directories.includes(path)) {
      throw new ToolError("is_directory", `${path} is a directory; it contains: ${listing(state, path)}`);
    }
    const content = state.files[path];
    if (content === undefined) {
      const near = nearestDirectory(state, path);
      throw new ToolError("not_found", `No such file: ${path} (${near} contains: ${listing(state, near)})`);
    }
    const maxBytes = Number(args.max_bytes ?? DEFAULT_MAX_BYTES);
    const total = Buffer.byteLength(content, "utf8");
    const { text, bytes } = truncateUtf8(content, maxBytes);
    return { path, content: text, bytes, total_bytes: total, truncated: bytes < total };
  },
};

export const fileWriteTool: ToolSpec<LabState> = {
  name: "file_write",
  description:
    `Write a text file under ${LAB_ROOT}, replacing it if it exists. The parent directory must exist unless ` +
    "create_parents is true.",
  inputSchema: {
    type: "object",
    properties: {
      path: { type: "string", description: "File path, e.g. '/lab/reports/summary.md'." },
      content: { type: "string", description: "The full text to write." },
      create_parents: {
        type: "boolean",
        default: false,
        description: "Create missing parent directories (default false).",
      },
    },
    required: ["path", "content"],
  },
  outputSchema: {
    type: "object",
    properties: {
      path: { type: "string" },
      bytes: { type: "integer", description: "Bytes written." },
      created: { type: "boolean", description: "True for a new file, false when an existing file was replaced." },
      created_directories: { type: "array", items: { type: "string" } },
    },
    required: ["path", "bytes", "created", "created_directories"],
    additionalProperties: false,
  },
  annotations: {
    title: "Write file",
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  handler: (args, { state }) => {
    const path = resolveLabPath(String(args.path));
    if (state.directories.includes(path)) throw new ToolError("is_directory", `${path} is a directory, not a file`);
    const missing: string[] = [];
    for (let dir = parentOf(path); !state.directories.includes(dir); dir = parentOf(dir)) {
      if (state.files[dir] !== undefined) {
        throw new ToolError("not_a_directory", `Cannot write ${path}: ${dir} is a file, not a directory`);
      }
      missing.unshift(dir);
    }
    if (missing.length > 0 && args.create_parents !== true) {
      throw new ToolError(
        "not_found",
        `Parent directory ${missing[missing.length - 1]} does not exist; pass create_parents: true to create it`,
      );
    }
    if (missing.length > 0) state.directories = [...state.directories, ...missing].sort();
    const content = String(args.content);
    const created = state.files[path] === undefined;
    state.files[path] = content;
    return { path, bytes: Buffer.byteLength(content, "utf8"), created, created_directories: missing };
  },
};
