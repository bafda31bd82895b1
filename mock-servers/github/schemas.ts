/** Output-schema building blocks: the shapes of views.ts, described once. */
import type { JsonSchema } from "../kit/types.ts";

export const str: JsonSchema = { type: "string" };
export const int: JsonSchema = { type: "integer" };
export const bool: JsonSchema = { type: "boolean" };
export const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: "null" }] });
export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: "array", items });
export const object = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: "object",
  properties,
  required,
});

/** The same object without required properties: for list items a `fields` parameter may trim. */
export const partial = (schema: JsonSchema): JsonSchema => ({ ...schema, required: [] });

export const userRefSchema = object({ login: str, id: int, type: str, html_url: str }, ["login"]);

export const reactionsSchema = object(
  Object.fromEntries(
    ["total_count", "+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"].map((k) => [k, int]),
  ),
  ["total_count"],
);

const milestoneSchema = nullable(object({ number: int, title: str, state: str }, ["number", "title"]));

export const issueSchema = object(
  {
    id: int,
    number: int,
    title: str,
    body: str,
    state: { enum: ["open", "closed"] },
    state_reason: nullable(str),
    html_url: str,
    repository: str,
    user: userRefSchema,
    labels: arrayOf(str),
    assignees: arrayOf(userRefSchema),
    milestone: milestoneSchema,
    comments: int,
    reactions: reactionsSchema,
    created_at: str,
    updated_at: str,
    closed_at: nullable(str),
    type: nullable(str),
    field_values: { type: "object" },
    sub_issues_summary: object({ total: int, completed: int, percent_completed: int }, ["total"]),
    parent_issue_number: nullable(int),
    duplicate_of: nullable(int),
    pull_request: object({ html_url: str, merged_at: nullable(str) }, ["html_url"]),
  },
  ["id", "number", "title", "state", "html_url", "user", "labels"],
);

export const commentSchema = object(
  {
    id: int,
    body: str,
    user: userRefSchema,
    created_at: str,
    updated_at: str,
    html_url: str,
    reactions: reactionsSchema,
  },
  ["id", "body", "user", "created_at"],
);

const personSchema = object({ name: str, email: str, date: str }, ["name", "date"]);

export const commitSchema = object(
  {
    sha: str,
    html_url: str,
    commit: object({ message: str, author: personSchema, committer: personSchema }, ["message", "author"]),
    author: nullable(userRefSchema),
    committer: nullable(userRefSchema),
    parents: arrayOf(object({ sha: str, html_url: str }, ["sha"])),
  },
  ["sha", "commit"],
);

export const fileChangeSchema = object(
  { filename: str, status: str, additions: int, deletions: int, changes: int, patch: str, sha: nullable(str) },
  ["filename", "status", "additions", "deletions"],
);

const refSchema = object({ ref: str, sha: str, label: str, repo: str }, ["ref", "sha"]);

export const pullSchema = object(
  {
    id: int,
    number: int,
    title: str,
    body: str,
    state: { enum: ["open", "closed"] },
    draft: bool,
    merged: bool,
    mergeable: nullable(bool),
    mergeable_state: str,
    html_url: str,
    user: userRefSchema,
    labels: arrayOf(str),
    assignees: arrayOf(userRefSchema),
    requested_reviewers: arrayOf(userRefSchema),
    head: refSchema,
    base: refSchema,
    additions: int,
    deletions: int,
    changed_files: int,
    commits: int,
    comments: int,
    review_comments: int,
    milestone: milestoneSchema,
    maintainer_can_modify: bool,
    created_at: str,
    updated_at: str,
    closed_at: nullable(str),
    merged_at: nullable(str),
    merged_by: nullable(userRefSchema),
    merge_commit_sha: nullable(str),
  },
  ["id", "number", "title", "state", "merged", "head", "base", "html_url"],
);

export const reviewSchema = object(
  { id: int, user: userRefSchema, state: str, body: str, commit_id: str, submitted_at: nullable(str), html_url: str },
  ["id", "user", "state"],
);

export const reviewCommentSchema = object(
  {
    id: int,
    body: str,
    user: userRefSchema,
    created_at: str,
    in_reply_to_id: nullable(int),
    pending: bool,
    reactions: reactionsSchema,
    html_url: str,
  },
  ["id", "body", "user"],
);

export const threadSchema = object(
  {
    id: str,
    path: str,
    subject_type: str,
    line: nullable(int),
    start_line: nullable(int),
    side: str,
    is_resolved: bool,
    resolved_by: nullable(userRefSchema),
    comments: arrayOf(reviewCommentSchema),
  },
  ["id", "path", "is_resolved", "comments"],
);

export const releaseSchema = object(
  {
    id: int,
    tag_name: str,
    name: str,
    body: str,
    html_url: str,
    draft: bool,
    prerelease: bool,
    created_at: str,
    published_at: nullable(str),
    author: userRefSchema,
    tarball_url: str,
    zipball_url: str,
  },
  ["id", "tag_name", "name"],
);

const repoProperties: Record<string, JsonSchema> = {
  id: int,
  name: str,
  full_name: str,
  description: str,
  html_url: str,
  language: nullable(str),
  stargazers_count: int,
  forks_count: int,
  open_issues_count: int,
  topics: arrayOf(str),
  private: bool,
  fork: bool,
  archived: bool,
  default_branch: str,
  created_at: str,
  updated_at: str,
};

export const minimalRepoSchema = object(repoProperties, ["id", "full_name"]);

export const repoSchema = object(
  {
    ...repoProperties,
    owner: userRefSchema,
    visibility: str,
    parent: nullable(str),
    homepage: str,
    license: nullable(str),
    watchers_count: int,
    pushed_at: str,
    clone_url: str,
  },
  ["id", "name", "full_name", "owner", "private", "default_branch"],
);

export const pageInfoSchema = object(
  { hasNextPage: bool, hasPreviousPage: bool, startCursor: nullable(str), endCursor: nullable(str) },
  ["hasNextPage", "endCursor"],
);

/** What a file write returns: the new content entry and the commit that made it. */
export const commitRefSchema = object({ sha: str, message: str, html_url: str, author: userRefSchema }, ["sha"]);

export const searchResultSchema = (items: JsonSchema): JsonSchema =>
  object({ total_count: int, incomplete_results: bool, items: arrayOf(items) }, ["total_count", "items"]);

export const pullSummarySchema = object(
  {
    id: int,
    number: int,
    title: str,
    state: str,
    draft: bool,
    merged: bool,
    html_url: str,
    head: str,
    base: str,
    user: str,
    requested_reviewers: arrayOf(str),
  },
  ["id", "number", "title", "state", "html_url", "head", "base"],
);
