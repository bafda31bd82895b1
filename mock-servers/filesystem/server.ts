import type { ServerSpec } from "../kit/types.ts";
import { filesystemChecks } from "./checks.ts";
import {
  directoryTreeTool,
  getFileInfoTool,
  listAllowedDirectoriesTool,
  listDirectoryTool,
  listDirectoryWithSizesTool,
  searchFilesTool,
} from "./tools/list.ts";
import { readFileTool, readMediaFileTool, readMultipleFilesTool, readTextFileTool } from "./tools/read.ts";
import { createDirectoryTool, editFileTool, moveFileTool, writeFileTool } from "./tools/write.ts";
import { createFilesystemState, type FilesystemState } from "./tree.ts";

/**
 * The reference filesystem server (modelcontextprotocol/servers src/filesystem, HEAD 76d64c82): its 14 tools,
 * in its order, over an in-memory tree rooted at /workspace and /shared. No real disk I/O.
 */
export const filesystemServer: ServerSpec<FilesystemState> = {
  name: "filesystem",
  version: "0.2.0",
  purpose:
    "A sandboxed file system in the style of the reference MCP filesystem server, limited to /workspace and /shared.",
  createState: createFilesystemState,
  tools: [
    readFileTool,
    readTextFileTool,
    readMediaFileTool,
    readMultipleFilesTool,
    writeFileTool,
    editFileTool,
    createDirectoryTool,
    listDirectoryTool,
    listDirectoryWithSizesTool,
    directoryTreeTool,
    moveFileTool,
    searchFilesTool,
    getFileInfoTool,
    listAllowedDirectoriesTool,
  ],
  checks: filesystemChecks,
};
