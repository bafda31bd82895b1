import databases from "./fixtures/databases.json" with { type: "json" };
import pages from "./fixtures/pages.json" with { type: "json" };
import users from "./fixtures/users.json" with { type: "json" };

/** Fixture IDs by title, for the Notion tests. */
export const pageId = (title: string) => pages.find((page) => page.title === title)!.id;
const rows = databases.flatMap((db) => db.rows as { id: string; title: string }[]);
export const rowId = (title: string) => rows.find((row) => row.title === title)!.id;
export const TASKS = databases.find((db) => db.title === "Tasks")!;
export const DOCS = databases.find((db) => db.title === "Docs")!;
export const userId = (handle: string) => users.people.find((person) => person.handle === handle)!.id;
export const paragraph = (content: string) => ({
  type: "paragraph",
  paragraph: { rich_text: [{ type: "text", text: { content } }] },
});
