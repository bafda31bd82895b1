import { ToolError } from "../kit/errors.ts";

export interface FileEdit {
  oldText: string;
  newText: string;
}

const normalizeLineEndings = (text: string) => text.replace(/\r\n/g, "\n");

/**
 * Applies edits in order, as the reference server does: an exact match replaces the first occurrence;
 * otherwise a line-by-line match ignoring leading/trailing whitespace, re-indented to the original.
 */
export function applyEdits(content: string, edits: FileEdit[]): string {
  let modified = normalizeLineEndings(content);
  for (const edit of edits) {
    const oldText = normalizeLineEndings(edit.oldText);
    const newText = normalizeLineEndings(edit.newText);
    if (modified.includes(oldText)) {
      modified = modified.replace(oldText, () => newText);
      continue;
    }
    const replaced = replaceIgnoringIndentation(modified, oldText, newText);
    if (replaced === undefined)
      throw new ToolError("no_match", `Could not find exact match for edit:\n${edit.oldText}`);
    modified = replaced;
  }
  return modified;
}

function replaceIgnoringIndentation(content: string, oldText: string, newText: string): string | undefined {
  const oldLines = oldText.split("\n");
  const lines = content.split("\n");
  for (let i = 0; i <= lines.length - oldLines.length; i++) {
    const window = lines.slice(i, i + oldLines.length);
    if (!oldLines.every((oldLine, j) => oldLine.trim() === window[j]!.trim())) continue;
    const indent = lines[i]!.match(/^\s*/)?.[0] ?? "";
    const replacement = newText.split("\n").map((line, j) => {
      if (j === 0) return indent + line.trimStart();
      const oldIndent = oldLines[j]?.match(/^\s*/)?.[0] ?? "";
      const newIndent = line.match(/^\s*/)?.[0] ?? "";
      if (oldIndent && newIndent)
        return indent + " ".repeat(Math.max(0, newIndent.length - oldIndent.length)) + line.trimStart();
      return line;
    });
    lines.splice(i, oldLines.length, ...replacement);
    return lines.join("\n");
  }
  return undefined;
}
