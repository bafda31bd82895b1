/** YAML text to a plain value, its first syntax error as one line naming the file, line and column. */
import { parseDocument } from "yaml";
import type { InputError } from "../errors.ts";

export function yamlValue(
  text: string,
  file: string,
  options: { merge?: boolean },
  fail: (message: string, cause: unknown) => InputError,
): unknown {
  const document = parseDocument(text, { uniqueKeys: true, merge: options.merge === true });
  const yamlError = document.errors[0];
  if (yamlError) {
    const at = yamlError.linePos?.[0];
    throw fail(
      `${file}${at ? `:${at.line}:${at.col}` : ""}: not valid YAML: ${yamlError.message.split("\n")[0]}`,
      yamlError,
    );
  }
  return document.toJS();
}
