import type { JsonSchema } from "../kit/types.ts";
import { resolveAllowedPath } from "./paths.ts";
import type { FilesystemState } from "./tree.ts";

/** Most reference tools return structuredContent { content: "<text>" }. */
export const TEXT_OUTPUT: JsonSchema = {
  type: "object",
  properties: { content: { type: "string" } },
  required: ["content"],
};

/** list_directory_with_sizes, directory_tree and move_file return { content: [{ type: "text", text }] }. */
export const BLOCK_OUTPUT: JsonSchema = {
  type: "object",
  properties: {
    content: {
      type: "array",
      items: {
        type: "object",
        properties: { type: { type: "string", enum: ["text"] }, text: { type: "string" } },
        required: ["type", "text"],
      },
    },
  },
  required: ["content"],
};

export const textResult = (content: string) => ({ content });
export const blockResult = (text: string) => ({ content: [{ type: "text", text }] });

/** The `path` parameter as the reference server declares it (a bare zod string: no description). */
export const PATH_PARAM: JsonSchema = { type: "string" };

export const resolveIn = (state: FilesystemState, requested: unknown) =>
  resolveAllowedPath(String(requested), state.roots);

/** The reference server's formatSize: "0 B", "512 B", "1.50 KB", "2.00 MB" … */
export function formatSize(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  if (bytes <= 0) return "0 B";
  const i = Math.floor(Math.log(bytes) / Math.log(1024));
  if (i <= 0) return `${bytes} ${units[0]}`;
  const unit = Math.min(i, units.length - 1);
  return `${(bytes / 1024 ** unit).toFixed(2)} ${units[unit]}`;
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Date#toString as a server running in UTC prints it (get_file_info interpolates Date objects). */
export function utcDateString(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return (
    `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${pad(d.getUTCDate())} ${d.getUTCFullYear()} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} GMT+0000 (Coordinated Universal Time)`
  );
}
