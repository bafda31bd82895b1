import { ToolError } from "../../kit/errors.ts";
import type { ToolSpec } from "../../kit/types.ts";
import { PATH_PARAM, resolveIn, TEXT_OUTPUT, textResult } from "../results.ts";
import { bytesOf, type FilesystemState, requireFile, textOf } from "../tree.ts";

/** tailFile: the last N pieces of the text split on "\n" (a trailing newline counts as an empty last line). */
function tail(text: string, lines: number): string {
  return text.replace(/\r\n/g, "\n").split("\n").slice(-lines).join("\n");
}

/** headFile: the first N complete lines, or the unterminated remainder when the file is shorter. */
function head(text: string, lines: number): string {
  const parts = text.split("\n");
  const remainder = parts.pop()!;
  const taken = parts.slice(0, lines);
  if (taken.length < lines && remainder.length > 0) taken.push(remainder);
  return taken.join("\n");
}

const readTextInput = {
  type: "object",
  properties: {
    path: PATH_PARAM,
    tail: { type: "number", description: "If provided, returns only the last N lines of the file" },
    head: { type: "number", description: "If provided, returns only the first N lines of the file" },
  },
  required: ["path"],
};

const readText: ToolSpec<FilesystemState>["handler"] = (args, { state }) => {
  const path = resolveIn(state, args.path);
  if (args.head && args.tail) {
    throw new ToolError("invalid_request", "Cannot specify both head and tail parameters simultaneously");
  }
  const text = textOf(requireFile(state, path));
  if (args.tail) return textResult(tail(text, Number(args.tail)));
  if (args.head) return textResult(head(text, Number(args.head)));
  return textResult(text);
};

export const readFileTool: ToolSpec<FilesystemState> = {
  name: "read_file",
  description: "Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.",
  inputSchema: readTextInput,
  outputSchema: TEXT_OUTPUT,
  annotations: { title: "Read File (Deprecated)", readOnlyHint: true },
  handler: readText,
};

export const readTextFileTool: ToolSpec<FilesystemState> = {
  name: "read_text_file",
  description:
    "Read the complete contents of a file from the file system as text. Handles various text encodings and provides detailed error messages if the file cannot be read. Use this tool when you need to examine the contents of a single file. Use the 'head' parameter to read only the first N lines of a file, or the 'tail' parameter to read only the last N lines of a file. Operates on the file as text regardless of extension. Only works within allowed directories.",
  inputSchema: readTextInput,
  outputSchema: TEXT_OUTPUT,
  annotations: { title: "Read Text File", readOnlyHint: true },
  handler: readText,
};

const MIME_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".bmp": "image/bmp",
  ".svg": "image/svg+xml",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".ogg": "audio/ogg",
  ".flac": "audio/flac",
};

function mediaKind(mimeType: string): "image" | "audio" | "blob" {
  if (mimeType.startsWith("image/")) return "image";
  if (mimeType.startsWith("audio/")) return "audio";
  return "blob";
}

export const readMediaFileTool: ToolSpec<FilesystemState> = {
  name: "read_media_file",
  description:
    "Read an image or audio file. Returns the base64 encoded data and MIME type. Only works within allowed directories.",
  inputSchema: { type: "object", properties: { path: PATH_PARAM }, required: ["path"] },
  outputSchema: {
    type: "object",
    properties: {
      content: {
        type: "array",
        items: {
          type: "object",
          properties: {
            type: { type: "string", enum: ["image", "audio", "blob"] },
            data: { type: "string" },
            mimeType: { type: "string" },
          },
          required: ["type", "data", "mimeType"],
        },
      },
    },
    required: ["content"],
  },
  annotations: { title: "Read Media File", readOnlyHint: true },
  handler: (args, { state }) => {
    const path = resolveIn(state, args.path);
    const file = requireFile(state, path);
    const dot = path.lastIndexOf(".");
    const extension = dot > path.lastIndexOf("/") ? path.slice(dot).toLowerCase() : "";
    const mimeType = MIME_TYPES[extension] ?? "application/octet-stream";
    return { content: [{ type: mediaKind(mimeType), data: bytesOf(file).toString("base64"), mimeType }] };
  },
};

export const readMultipleFilesTool: ToolSpec<FilesystemState> = {
  name: "read_multiple_files",
  description:
    "Read the contents of multiple files simultaneously. This is more efficient than reading files one by one when you need to analyze or compare multiple files. Each file's content is returned with its path as a reference. Failed reads for individual files won't stop the entire operation. Only works within allowed directories.",
  inputSchema: {
    type: "object",
    properties: {
      paths: {
        type: "array",
        items: { type: "string" },
        minItems: 1,
        description:
          "Array of file paths to read. Each path must be a string pointing to a valid file within allowed directories.",
      },
    },
    required: ["paths"],
  },
  outputSchema: TEXT_OUTPUT,
  annotations: { title: "Read Multiple Files", readOnlyHint: true },
  handler: (args, { state }) => {
    const sections = (args.paths as string[]).map((requested) => {
      try {
        return `${requested}:\n${textOf(requireFile(state, resolveIn(state, requested)))}\n`;
      } catch (error) {
        if (!(error instanceof ToolError)) throw error;
        return `${requested}: Error - ${error.message}`;
      }
    });
    return textResult(sections.join("\n---\n"));
  },
};
