import { ToolError } from "../../kit/errors.ts";
import { githubTool, type PageArgs, type RepoArgs } from "../define.ts";
import { type IssueSearchArgs, searchIssueLike } from "../issue-search.ts";
import { findOrg, requireAccount, requireIssue, requireIssueOrPull, requireRepo } from "../lookup.ts";
import { decodeCursor, encodeCursor, paginate, project, sortByKey } from "../paging.ts";
import {
  arrayOf,
  bool,
  commentSchema,
  int,
  issueSchema,
  nullable,
  object,
  pageInfoSchema,
  partial,
  searchResultSchema,
  str,
} from "../schemas.ts";
import type { GithubState, Issue, Org } from "../state.ts";
import { commentView, issueView } from "../views.ts";

interface ListIssuesArgs extends RepoArgs {
  state?: "OPEN" | "CLOSED";
  labels?: string[];
  orderBy?: "CREATED_AT" | "UPDATED_AT" | "COMMENTS";
  direction?: "ASC" | "DESC";
  since?: string;
  perPage?: number;
  after?: string;
  fields?: string[];
  field_filters?: { field_name: string; value: string }[];
}

function requireTimestamp(value: string, name: string): string {
  if (Number.isNaN(Date.parse(value))) {
    throw new ToolError(
      "invalid_argument",
      `${name}: "${value}" is not an ISO 8601 timestamp (e.g. 2026-03-01T00:00:00Z)`,
    );
  }
  return new Date(value).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function fieldValueMatches(issue: Issue, filter: { field_name: string; value: string }): boolean {
  const entry = Object.entries(issue.field_values).find(
    ([name]) => name.toLowerCase() === filter.field_name.toLowerCase(),
  );
  return entry !== undefined && String(entry[1]).toLowerCase() === filter.value.toLowerCase();
}

export const listIssues = githubTool<ListIssuesArgs>({
  name: "list_issues",
  title: "List issues",
  description:
    "List issues in a GitHub repository. For pagination, use the 'endCursor' from the previous response's 'pageInfo' in the 'after' parameter. state is OPEN or CLOSED (both when omitted).",
  outputSchema: object({ issues: arrayOf(partial(issueSchema)), pageInfo: pageInfoSchema, totalCount: int }, [
    "issues",
    "pageInfo",
    "totalCount",
  ]),
  handler: (args, { state }) => {
    const repo = requireRepo(state, args.owner, args.repo);
    const since = args.since === undefined ? undefined : requireTimestamp(args.since, "since");
    const wanted = (args.labels ?? []).map((label) => label.toLowerCase());
    const found = repo.issues.filter(
      (issue) =>
        (args.state === undefined || issue.state === args.state.toLowerCase()) &&
        (wanted.length === 0 || issue.labels.some((label) => wanted.includes(label.toLowerCase()))) &&
        (since === undefined || issue.updated_at >= since) &&
        (args.field_filters ?? []).every((filter) => fieldValueMatches(issue, filter)),
    );
    const order = args.orderBy ?? "CREATED_AT";
    const sorted = sortByKey(
      found,
      (issue) =>
        order === "COMMENTS" ? issue.comments.length : order === "UPDATED_AT" ? issue.updated_at : issue.created_at,
      args.direction === "ASC" ? 1 : -1,
    );
    const offset = args.after === undefined ? 0 : decodeCursor(args.after);
    const size = args.perPage ?? 30;
    const page = sorted.slice(offset, offset + size);
    const end = offset + page.length;
    return {
      issues: project(
        page.map((issue) => issueView(state, repo, issue)),
        args.fields,
      ),
      pageInfo: {
        hasNextPage: end < sorted.length,
        hasPreviousPage: offset > 0,
        startCursor: page.length > 0 ? encodeCursor(offset) : null,
        endCursor: page.length > 0 ? encodeCursor(end) : null,
      },
      totalCount: sorted.length,
    };
  },
});

interface IssueReadArgs extends RepoArgs, PageArgs {
  method: "get" | "get_comments" | "get_sub_issues" | "get_parent" | "get_labels";
  issue_number: number;
}

export const issueRead = githubTool<IssueReadArgs>({
  name: "issue_read",
  title: "Read issue",
  description:
    "Get information about a specific issue in a GitHub repository. method: 'get' (the issue's details), 'get_comments', 'get_sub_issues', 'get_parent' or 'get_labels'.",
  outputSchema: object(
    {
      method: str,
      issue: issueSchema,
      comments: arrayOf(commentSchema),
      sub_issues: arrayOf(issueSchema),
      parent: nullable(issueSchema),
      labels: arrayOf(object({ name: str, color: str, description: str }, ["name"])),
      total_count: int,
    },
    ["method"],
  ),
  handler: (args, { state }) => {
    const repo = requireRepo(state, args.owner, args.repo);
    const { item } = requireIssueOrPull(repo, args.issue_number);
    switch (args.method) {
      case "get":
        return { method: args.method, issue: issueView(state, repo, item) };
      case "get_comments":
        return {
          method: args.method,
          comments: paginate(item.comments, args.page, args.perPage).map((c) => commentView(state, repo, item, c)),
          total_count: item.comments.length,
        };
      case "get_sub_issues": {
        const issue = requireIssue(repo, args.issue_number);
        const children = issue.sub_issues.map((number) => requireIssue(repo, number));
        return {
          method: args.method,
          sub_issues: paginate(children, args.page, args.perPage).map((child) => issueView(state, repo, child)),
          total_count: children.length,
        };
      }
      case "get_parent": {
        const issue = requireIssue(repo, args.issue_number);
        const parent = issue.parent === null ? null : issueView(state, repo, requireIssue(repo, issue.parent));
        return { method: args.method, parent };
      }
      case "get_labels": {
        const labels = item.labels.map((name) => {
          const label = repo.labels.find((candidate) => candidate.name === name);
          return { name, color: label?.color ?? "ededed", description: label?.description ?? "" };
        });
        return { method: args.method, labels, total_count: labels.length };
      }
    }
  },
});

export const searchIssues = githubTool<IssueSearchArgs>({
  name: "search_issues",
  title: "Search issues",
  description:
    "Search for issues in GitHub repositories using issues search syntax already scoped to is:issue (e.g. 'login is:open label:bug repo:acme/webapp'). owner and repo narrow the search to one repository.",
  outputSchema: searchResultSchema(partial(issueSchema)),
  handler: (args, { state }) => searchIssueLike(state, "issue", args),
});

export const getLabel = githubTool<RepoArgs & { name: string }>({
  name: "get_label",
  title: "Get a label",
  description: "Get a specific label from a repository by its name.",
  outputSchema: object({ id: int, name: str, color: str, description: str, default: bool }, ["id", "name", "color"]),
  handler: ({ owner, repo: name, name: labelName }, { state }) => {
    const repo = requireRepo(state, owner, name);
    const label = repo.labels.find((candidate) => candidate.name.toLowerCase() === labelName.toLowerCase());
    if (!label) {
      const known = repo.labels.map((candidate) => candidate.name).join(", ");
      throw new ToolError(
        "not_found",
        `Not Found: label "${labelName}" does not exist in ${owner}/${name} (labels: ${known})`,
      );
    }
    return { ...label };
  },
});

/** Issue types and issue fields are organization settings; a user account has none. */
function requireOrgOwner(state: GithubState, owner: string, repo: string | undefined, what: string): Org {
  if (repo !== undefined) requireRepo(state, owner, repo);
  const account = requireAccount(state, owner);
  const org = findOrg(state, account.login);
  if (!org)
    throw new ToolError(
      "not_found",
      `Not Found: ${what} are only available for organizations; ${account.login} is a user`,
    );
  return org;
}

export const listIssueTypes = githubTool<{ owner: string; repo?: string }>({
  name: "list_issue_types",
  title: "List available issue types",
  description:
    "List supported issue types for a repository owner (organization). Use one of these names as the 'type' of issue_write.",
  outputSchema: object(
    { owner: str, issue_types: arrayOf(object({ id: int, name: str, description: str, color: str }, ["id", "name"])) },
    ["owner", "issue_types"],
  ),
  handler: ({ owner, repo }, { state }) => {
    const org = requireOrgOwner(state, owner, repo, "issue types");
    return { owner: org.login, issue_types: structuredClone(org.issue_types) };
  },
});

export const listIssueFields = githubTool<{ owner: string; repo?: string }>({
  name: "list_issue_fields",
  title: "List issue fields",
  description:
    "List the custom issue fields (e.g. Priority, Estimate) defined for an organization, with their data types and options. Set them with issue_write's issue_fields.",
  outputSchema: object(
    {
      owner: str,
      fields: arrayOf(
        object(
          {
            id: int,
            name: str,
            data_type: str,
            description: str,
            options: arrayOf(object({ name: str, description: str }, ["name"])),
          },
          ["id", "name", "data_type"],
        ),
      ),
    },
    ["owner", "fields"],
  ),
  handler: ({ owner, repo }, { state }) => {
    const org = requireOrgOwner(state, owner, repo, "issue fields");
    return { owner: org.login, fields: structuredClone(org.issue_fields) };
  },
});
