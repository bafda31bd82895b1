import type { ToolSpec } from "../../kit/types.ts";
import { pageTitleOf } from "../blocks.ts";
import { paginate, parseJsonParam } from "../lookup.ts";
import { renderDataSource, renderPage } from "../render.ts";
import { plainText } from "../richtext.ts";
import { listOutput, PAGE_SIZE, START_CURSOR, withStringFallback } from "../schemas.ts";
import type { Json, NotionState } from "../state.ts";

interface Hit {
  id: string;
  title: string;
  kind: "page" | "data_source";
  edited: string;
}

/** Title search, as the API's: case-insensitive, every word of the query must appear in the title. */
function titleMatches(title: string, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const lower = title.toLowerCase();
  return words.every((word) => lower.includes(word));
}

export const postSearch: ToolSpec<NotionState> = {
  name: "API-post-search",
  description: "Notion | Search by title",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", description: "The text that the API compares page and database titles against." },
      sort: withStringFallback({
        type: "object",
        description:
          'A set of criteria, `direction` and `timestamp` keys, that orders the results. The **only** supported timestamp value is `"last_edited_time"`. Supported `direction` values are `"ascending"` and `"descending"`. If `sort` is not provided, then the most recently edited results are returned first.',
        properties: {
          direction: { type: "string", enum: ["ascending", "descending"] },
          timestamp: { type: "string", enum: ["last_edited_time"] },
        },
        required: ["direction", "timestamp"],
      }),
      filter: withStringFallback({
        type: "object",
        description:
          'A set of criteria, `value` and `property` keys, that limits the results to either only pages or only data sources. Possible `value` values are `"page"` or `"data_source"`. The only supported `property` value is `"object"`.',
        properties: {
          value: { type: "string", enum: ["page", "data_source"] },
          property: { type: "string", enum: ["object"] },
        },
        required: ["value", "property"],
      }),
      start_cursor: START_CURSOR,
      page_size: PAGE_SIZE,
    },
  },
  outputSchema: listOutput({ type: "object", required: ["object", "id"] }),
  annotations: { title: "Search by title", readOnlyHint: true },
  handler: (args, { state }) => {
    const query = String(args.query ?? "");
    const filter = parseJsonParam(args.filter, "body.filter") as { value?: string } | undefined;
    const sort = parseJsonParam(args.sort, "body.sort") as { direction?: string } | undefined;
    const hits: Hit[] = [];
    for (const page of Object.values(state.pages)) {
      if (!page.in_trash)
        hits.push({ id: page.id, title: pageTitleOf(state, page.id), kind: "page", edited: page.last_edited_time });
    }
    for (const source of Object.values(state.dataSources)) {
      if (!source.in_trash) {
        hits.push({
          id: source.id,
          title: plainText(source.title),
          kind: "data_source",
          edited: source.last_edited_time,
        });
      }
    }
    const ascending = sort?.direction === "ascending";
    const matches = hits
      .filter((hit) => (!filter?.value || hit.kind === filter.value) && titleMatches(hit.title, query))
      .sort((a, b) => (ascending ? 1 : -1) * a.edited.localeCompare(b.edited) || a.id.localeCompare(b.id));
    const list = paginate(matches, (hit) => hit.id, args);
    const results: Json[] = list.results.map((hit) =>
      hit.kind === "page"
        ? renderPage(state, state.pages[hit.id]!)
        : renderDataSource(state, state.dataSources[hit.id]!),
    );
    return { ...list, results, type: "page_or_data_source", page_or_data_source: {} };
  },
};
