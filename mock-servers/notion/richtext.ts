import { validationError } from "./errors.ts";

export interface RichText {
  type: "text";
  text: { content: string; link: { url: string } | null };
  annotations: {
    bold: boolean;
    italic: boolean;
    strikethrough: boolean;
    underline: boolean;
    code: boolean;
    color: string;
  };
  plain_text: string;
  href: string | null;
}

const PLAIN = { bold: false, italic: false, strikethrough: false, underline: false, code: false, color: "default" };

export function textItem(
  content: string,
  link: string | null = null,
  annotations: Partial<RichText["annotations"]> = {},
): RichText {
  return {
    type: "text",
    text: { content, link: link ? { url: link } : null },
    annotations: { ...PLAIN, ...annotations },
    plain_text: content,
    href: link,
  };
}

/** Rich text for a plain string ([] for the empty string, as Notion returns an empty title). */
export function richText(content: string): RichText[] {
  return content ? [textItem(content)] : [];
}

export function plainText(items: RichText[] | undefined): string {
  return (items ?? []).map((item) => item.plain_text).join("");
}

/** Parses request rich text ([{text:{content}}] or [{type:"text", text:{…}}]); anything else is a validation_error. */
export function parseRichText(input: unknown, path: string): RichText[] {
  if (!Array.isArray(input)) {
    throw validationError(
      `body failed validation: ${path} should be an array, instead was \`${JSON.stringify(input)}\`.`,
    );
  }
  return input.map((item, index) => {
    const where = `${path}[${index}]`;
    const text = (item as { text?: { content?: unknown; link?: { url?: unknown } | null } } | null)?.text;
    if (!text || typeof text.content !== "string") {
      throw validationError(
        `body failed validation: ${where}.text.content should be defined, instead was \`undefined\`.`,
      );
    }
    const link = typeof text.link?.url === "string" ? text.link.url : null;
    const annotations = (item as { annotations?: Partial<RichText["annotations"]> }).annotations ?? {};
    return textItem(text.content, link, annotations);
  });
}
