/** The search engine behind search_issues and search_pull_requests (GitHub issue-search syntax). */
import { ToolError } from "../kit/errors.ts";
import type { PageArgs } from "./define.ts";
import { findRepo, visibleRepos } from "./lookup.ts";
import { paginate, project, sortByKey } from "./paging.ts";
import { latestVerdicts } from "./pull-git.ts";
import {
  compareRange,
  matchesTerms,
  parseSearchQuery,
  qualifiersHold,
  type SearchQuery,
  sortDirection,
} from "./search-query.ts";
import { fullName, type GithubState, type Issue, type IssueLike, type Pull, type Repo } from "./state.ts";
import { issueView, reactionsView } from "./views.ts";

export type IssueSort =
  | "comments"
  | "reactions"
  | "reactions-+1"
  | "reactions--1"
  | "reactions-smile"
  | "reactions-thinking_face"
  | "reactions-heart"
  | "reactions-tada"
  | "interactions"
  | "created"
  | "updated";

export interface IssueSearchArgs extends PageArgs {
  query: string;
  owner?: string;
  repo?: string;
  sort?: IssueSort;
  order?: "asc" | "desc";
  fields?: string[];
}

const QUALIFIERS = [
  "repo",
  "org",
  "user",
  "is",
  "state",
  "label",
  "author",
  "assignee",
  "mentions",
  "no",
  "in",
  "created",
  "updated",
  "closed",
  "merged",
  "comments",
  "milestone",
  "type",
  "reason",
  "base",
  "head",
  "review",
  "review-requested",
  "reviewed-by",
  "draft",
] as const;

interface Candidate {
  repo: Repo;
  item: IssueLike;
  pull?: Pull;
}

/** owner/repo parameters narrow the search the way the real server does (it appends repo:/user: qualifiers). */
function scopeRepos(state: GithubState, query: SearchQuery, args: IssueSearchArgs): Repo[] {
  if (args.repo !== undefined && args.owner === undefined) {
    throw new ToolError(
      "invalid_argument",
      "owner is required when repo is given (pass both, e.g. owner=acme repo=webapp)",
    );
  }
  const repoQualifiers = query.qualifiers
    .filter((q) => q.key === "repo" && !q.negated)
    .map((q) => q.value.toLowerCase());
  if (args.owner !== undefined && args.repo !== undefined)
    repoQualifiers.push(`${args.owner}/${args.repo}`.toLowerCase());
  for (const name of repoQualifiers) {
    const [owner = "", repo = ""] = name.split("/");
    if (!findRepo(state, owner, repo)) {
      throw new ToolError(
        "unprocessable",
        `Validation Failed: the repository ${name} does not exist or you do not have access`,
      );
    }
  }
  const owners = query.qualifiers
    .filter((q) => (q.key === "org" || q.key === "user") && !q.negated)
    .map((q) => q.value.toLowerCase());
  if (args.owner !== undefined && args.repo === undefined) owners.push(args.owner.toLowerCase());
  return visibleRepos(state).filter(
    (repo) =>
      (repoQualifiers.length === 0 || repoQualifiers.includes(fullName(repo).toLowerCase())) &&
      owners.every((owner) => repo.owner.toLowerCase() === owner),
  );
}

function textFor(candidate: Candidate, within: string[]): string {
  const { item } = candidate;
  const parts: Record<string, string> = {
    title: item.title,
    body: item.body,
    comments: item.comments.map((comment) => comment.body).join("\n"),
  };
  const chosen = within.length > 0 ? within : ["title", "body", "comments"];
  return chosen.map((part) => parts[part] ?? "").join("\n");
}

function isQualifier(candidate: Candidate, value: string): boolean {
  const { item, pull } = candidate;
  switch (value.toLowerCase()) {
    case "open":
    case "closed":
      return item.state === value.toLowerCase();
    case "issue":
      return !pull;
    case "pr":
    case "pull-request":
      return pull !== undefined;
    case "merged":
      return pull?.merged === true;
    case "unmerged":
      return pull !== undefined && !pull.merged && pull.state === "closed";
    case "draft":
      return pull?.draft === true;
    case "public":
      return !candidate.repo.private;
    case "private":
      return candidate.repo.private;
    default:
      return false;
  }
}

function noQualifier(item: IssueLike, value: string): boolean {
  if (value === "label") return item.labels.length === 0;
  if (value === "assignee") return item.assignees.length === 0;
  if (value === "milestone") return item.milestone === null;
  return false;
}

function reviewQualifier(pull: Pull | undefined, value: string): boolean {
  if (!pull) return false;
  const verdicts = latestVerdicts(pull).map((review) => review.state);
  if (value === "none") return pull.reviews.length === 0;
  if (value === "approved") return verdicts.includes("APPROVED") && !verdicts.includes("CHANGES_REQUESTED");
  if (value === "changes_requested") return verdicts.includes("CHANGES_REQUESTED");
  return false;
}

function matches(state: GithubState, candidate: Candidate, query: SearchQuery): boolean {
  const { item, pull, repo } = candidate;
  const issue = pull ? undefined : (item as Issue);
  const within = query.qualifiers.filter((q) => q.key === "in").flatMap((q) => q.value.split(","));
  const same = (a: string | null | undefined, b: string) => (a ?? "").toLowerCase() === b.toLowerCase();
  const milestone = repo.milestones.find((m) => m.number === item.milestone)?.title;
  // GitHub reads @me as the viewer in every user qualifier.
  const user = (value: string) => (value === "@me" ? state.viewer : value);
  const checks: [string, (value: string) => boolean][] = [
    ["is", (value) => isQualifier(candidate, value)],
    ["state", (value) => same(item.state, value)],
    ["label", (value) => value.split(",").some((label) => item.labels.some((name) => same(name, label)))],
    ["author", (value) => same(item.user, user(value))],
    ["assignee", (value) => item.assignees.some((login) => same(login, user(value)))],
    [
      "mentions",
      (value) =>
        textFor(candidate, [])
          .toLowerCase()
          .includes(`@${user(value).toLowerCase()}`),
    ],
    ["no", (value) => noQualifier(item, value.toLowerCase())],
    ["created", (value) => compareRange(item.created_at, value)],
    ["updated", (value) => compareRange(item.updated_at, value)],
    ["closed", (value) => item.closed_at !== null && compareRange(item.closed_at, value)],
    ["merged", (value) => pull?.merged_at != null && compareRange(pull.merged_at, value)],
    ["comments", (value) => compareRange(item.comments.length, value)],
    ["milestone", (value) => same(milestone, value)],
    ["type", (value) => same(issue?.type, value)],
    ["reason", (value) => same(issue?.state_reason?.replace("_", " "), value.replace(/[_"]/g, " ").trim())],
    ["base", (value) => same(pull?.base.ref, value)],
    ["head", (value) => same(pull?.head.ref, value)],
    ["review", (value) => reviewQualifier(pull, value.toLowerCase())],
    ["review-requested", (value) => pull?.requested_reviewers.some((login) => same(login, user(value))) ?? false],
    ["reviewed-by", (value) => pull?.reviews.some((review) => same(review.user, user(value))) ?? false],
    ["draft", (value) => String(pull?.draft ?? false) === value.toLowerCase()],
  ];
  return (
    matchesTerms(textFor(candidate, within), query.terms) &&
    checks.every(([key, test]) => qualifiersHold(query, key, test))
  );
}

function sortKey(candidate: Candidate, sort: IssueSort): number | string {
  const reactions = reactionsView(candidate.item.reactions) as Record<string, number>;
  const byReaction: Record<string, string> = {
    "reactions-+1": "+1",
    "reactions--1": "-1",
    "reactions-smile": "laugh",
    "reactions-thinking_face": "confused",
    "reactions-heart": "heart",
    "reactions-tada": "hooray",
  };
  if (sort === "created") return candidate.item.created_at;
  if (sort === "updated") return candidate.item.updated_at;
  if (sort === "comments") return candidate.item.comments.length;
  if (sort === "reactions") return reactions.total_count ?? 0;
  if (sort === "interactions") return candidate.item.comments.length + (reactions.total_count ?? 0);
  return reactions[byReaction[sort] ?? ""] ?? 0;
}

/** Searches issues or pull requests of the visible repositories; results newest first unless sorted otherwise. */
export function searchIssueLike(state: GithubState, kind: "issue" | "pr", args: IssueSearchArgs) {
  const query = parseSearchQuery(args.query, QUALIFIERS);
  const candidates = scopeRepos(state, query, args).flatMap((repo): Candidate[] =>
    kind === "issue"
      ? repo.issues.map((item) => ({ repo, item }))
      : repo.pulls.map((pull) => ({ repo, item: pull, pull })),
  );
  const found = candidates.filter((candidate) => matches(state, candidate, query));
  // Ties keep newest-first order, so equal counts still list recent items first.
  const newest = sortByKey(found, (candidate) => candidate.item.created_at, -1);
  const sorted = sortByKey(
    newest,
    (candidate) => sortKey(candidate, args.sort ?? "created"),
    sortDirection(args.order),
  );
  const items = paginate(sorted, args.page, args.perPage).map((candidate) => ({
    ...issueView(state, candidate.repo, candidate.item),
    ...(candidate.pull ? { draft: candidate.pull.draft } : {}),
    repository_url: `https://api.github.com/repos/${fullName(candidate.repo)}`,
  }));
  return { total_count: found.length, incomplete_results: false, items: project(items, args.fields) };
}
