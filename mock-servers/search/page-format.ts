import type { SearchDocument } from "./corpus.ts";

export type PageFormat = "markdown" | "text";

/** A page as Tavily's markdown extraction renders it: the title as a heading, then the body. */
export function markdownOf(doc: SearchDocument): string {
  return `# ${doc.title}\n\n${doc.content}`;
}

/** Plain text: markdown markers (headings, code ticks, emphasis, link syntax) removed. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/^#{1,6}\s+/gm, "")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]+\)/g, "$1");
}

export function renderPage(doc: SearchDocument, format: PageFormat): string {
  const markdown = markdownOf(doc);
  return format === "text" ? plainText(markdown) : markdown;
}
