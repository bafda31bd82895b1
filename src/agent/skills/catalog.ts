/**
 * Per-API prompt rules (DESIGN §2 "Skills"): what small models get wrong about each API, said once in
 * the prompt. Tool-name fragments mark the API among the active tools; query words are the fallback.
 */

export interface Skill {
  /** The built-in skills: github, slack, notion, search, code, builtin; runAgent's `skills` adds others. */
  name: string;
  title: string;
  /** Fragments of tool names (lower case) that belong to this API; each must start at a word of the name. */
  toolKeywords: readonly string[];
  /** Query patterns that point to this API. */
  queryKeywords: readonly RegExp[];
  rules: readonly string[];
}

export const SKILLS: readonly Skill[] = [
  {
    name: "github",
    title: "GitHub",
    toolKeywords: [
      "issue",
      "pull_request",
      "repositor",
      "branch",
      "commit",
      "get_me",
      "file_contents",
      "create_or_update_file",
      "push_files",
      "release",
      "get_tag",
      "list_tags",
      "fork",
      "search_code",
      "search_users",
      "collaborator",
    ],
    queryKeywords: [
      /\bgithub\b/i,
      /\brepo(sitor(y|ies))?s?\b/i,
      /\bissues?\b/i,
      /\bpull requests?\b|\bprs?\b/i,
      /\bbranch(es)?\b/i,
      /\bcommits?\b/i,
      /\bmerge\b/i,
      /\b[a-z][\w.-]*\/[\w.-]+\b/i,
    ],
    rules: [
      'Split "owner/repo" into owner="owner" and repo="repo"; never pass "owner/repo" as one value.',
      'issue_write needs method: method="create" with title (and body) opens an issue; method="update" with issue_number changes one (state="closed" closes it).',
      'issue_read needs method="get" (or "get_comments", "get_labels") and issue_number.',
      'list_issues takes state="OPEN" or state="CLOSED" in upper case.',
      'Pull request tools take pullNumber; issue tools take issue_number. Numbers are plain, without "#".',
      'pull_request_read needs method="get" (or "get_diff", "get_files", "get_status", "get_reviews").',
      "get_me() returns the signed-in user; use it when the task says me or my without naming an owner.",
    ],
  },
  {
    name: "slack",
    title: "Slack",
    toolKeywords: ["slack_"],
    queryKeywords: [
      /\bslack\b/i,
      /\bchannels?\b/i,
      /\bdms?\b|\bdirect message\b/i,
      /\bpost\b/i,
      /\bmessages?\b/i,
      /(^|\s)#[a-z][\w-]*/i,
    ],
    rules: [
      'Post with slack_post_message(channel_id="C0123ABCD", text="..."). Channel ids look like C0123ABCD.',
      "If you only know a channel name such as #general, call slack_list_channels first and pass the id from its result, e.g. channel_id=#E1.channels[0].id.",
      "User ids look like U0123ABCD. Read recent messages with slack_get_channel_history(channel_id=...).",
    ],
  },
  {
    name: "notion",
    title: "Notion",
    toolKeywords: ["api-", "notion"],
    queryKeywords: [/\bnotion\b/i, /\bpages?\b/i, /\bdatabases?\b/i, /\bworkspace\b/i, /\bwiki\b/i],
    rules: [
      'To use a page you know by title, call API-post-search(query="<title>") first and take its id from the result, e.g. page_id=#E1.results[0].id.',
      "Page ids are UUIDs such as 59833787-2cf9-4fdf-8782-e53db20768a5; never invent one.",
      'A new page needs a parent: parent={"page_id": "<uuid>"}.',
    ],
  },
  {
    name: "search",
    title: "Web search",
    toolKeywords: ["tavily", "web_search", "extract", "crawl"],
    queryKeywords: [
      /\bweb\b/i,
      /\bsearch\b/i,
      /\bnews\b/i,
      /\blatest\b/i,
      /\bonline\b/i,
      /\binternet\b/i,
      /\blook up\b/i,
    ],
    rules: [
      'tavily_search(query="...") finds web pages; keep the query to the key words of the task.',
      'tavily_extract(urls=["https://..."]) reads pages whose URLs you already have.',
    ],
  },
  {
    name: "code",
    title: "Code",
    toolKeywords: ["run_code", "execute", "python", "javascript", "sandbox"],
    queryKeywords: [
      /\bcode\b/i,
      /\bscript\b/i,
      /\bpython\b/i,
      /\bjavascript\b|\bjs\b/i,
      /\bexecute\b/i,
      /\bprogram\b/i,
    ],
    rules: [
      "Pass the whole program as one code string and print the result so it appears in the output.",
      "Use the language the task names; otherwise python.",
    ],
  },
  {
    name: "builtin",
    title: "Built-in tools",
    toolKeywords: ["calculat", "datetime", "date", "time", "convert", "unit", "text_process", "process_text", "random"],
    queryKeywords: [
      /\bcalculate\b|\bcompute\b/i,
      /\bconvert\b/i,
      /\bwhat time\b|\bdate\b|\btoday\b/i,
      /\brandom\b/i,
      /\bpercent\b|%/,
      /\d\s*[-+*/^]\s*\d/,
      /\b(upper|lower)case\b|\bcount (the )?words\b/i,
    ],
    rules: [
      'Give arithmetic as one expression string, e.g. expression="(12 + 3) * 4".',
      'Dates are YYYY-MM-DD; units are plain words such as "km" or "miles".',
      "Use a tool for arithmetic, dates and conversions instead of computing in your head.",
    ],
  },
];
