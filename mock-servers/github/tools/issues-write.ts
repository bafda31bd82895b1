import { ToolError } from "../../kit/errors.ts";
import { githubTool, type RepoArgs } from "../define.ts";
import { newId, timestamp } from "../ids.ts";
import {
  findOrg,
  nextNumber,
  requireAssignees,
  requireIssue,
  requireIssueOrPull,
  requireLabels,
  requirePermission,
  requireRepo,
} from "../lookup.ts";
import { arrayOf, commentSchema, int, nullable, object, str } from "../schemas.ts";
import {
  addReaction,
  fullName,
  type GithubState,
  type Issue,
  type IssueLike,
  type ReactionContent,
  type Repo,
} from "../state.ts";
import { commentView, issueUrl } from "../views.ts";

interface IssueFieldInput {
  field_name: string;
  value?: string | number | boolean;
  field_option_name?: string;
  delete?: boolean;
}

interface IssueWriteArgs extends RepoArgs {
  method: "create" | "update";
  issue_number?: number;
  title?: string;
  body?: string;
  assignees?: string[];
  labels?: string[];
  milestone?: number;
  type?: string | null;
  state?: "open" | "closed";
  state_reason?: "completed" | "not_planned" | "duplicate";
  duplicate_of?: number;
  issue_fields?: IssueFieldInput[];
}

const missing = (name: string) => new ToolError("invalid_argument", `missing required parameter: ${name}`);

function requireMilestone(repo: Repo, number: number): number {
  if (!repo.milestones.some((milestone) => milestone.number === number)) {
    const known = repo.milestones.map((milestone) => `${milestone.number} (${milestone.title})`).join(", ") || "none";
    throw new ToolError(
      "unprocessable",
      `Validation Failed: milestone ${number} does not exist in ${fullName(repo)} (milestones: ${known})`,
    );
  }
  return number;
}

function requireIssueType(state: GithubState, repo: Repo, type: string | null): string | null {
  if (type === null) return null;
  const org = findOrg(state, repo.owner);
  const known = org?.issue_types ?? [];
  const found = known.find((candidate) => candidate.name.toLowerCase() === type.toLowerCase());
  if (!found) {
    const names = known.map((candidate) => candidate.name).join(", ");
    const why = org ? `available: ${names}` : `${repo.owner} is a user; issue types exist only in organizations`;
    throw new ToolError("unprocessable", `Validation Failed: issue type "${type}" does not exist (${why})`);
  }
  return found.name;
}

/** Applies issue_fields entries against the org's field definitions (a value must fit the field's type). */
function applyIssueFields(state: GithubState, repo: Repo, issue: Issue, inputs: IssueFieldInput[]): void {
  const fields = findOrg(state, repo.owner)?.issue_fields ?? [];
  for (const input of inputs) {
    const field = fields.find((candidate) => candidate.name.toLowerCase() === input.field_name.toLowerCase());
    if (!field) {
      const names = fields.map((candidate) => candidate.name).join(", ") || "none";
      throw new ToolError(
        "unprocessable",
        `Validation Failed: issue field "${input.field_name}" does not exist (fields: ${names})`,
      );
    }
    if (input.delete) {
      delete issue.field_values[field.name];
      continue;
    }
    const raw = field.data_type === "single_select" ? (input.field_option_name ?? input.value) : input.value;
    if (raw === undefined) throw new ToolError("invalid_argument", `issue_fields: give a value for "${field.name}"`);
    if (field.data_type === "single_select") {
      const option = field.options?.find((candidate) => candidate.name.toLowerCase() === String(raw).toLowerCase());
      if (!option) {
        const names = (field.options ?? []).map((candidate) => candidate.name).join(", ");
        throw new ToolError(
          "unprocessable",
          `Validation Failed: "${String(raw)}" is not an option of ${field.name} (${names})`,
        );
      }
      issue.field_values[field.name] = option.name;
    } else if (field.data_type === "number") {
      const value = Number(raw);
      if (Number.isNaN(value)) throw new ToolError("unprocessable", `Validation Failed: ${field.name} takes a number`);
      issue.field_values[field.name] = value;
    } else if (field.data_type === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(String(raw))) {
      throw new ToolError("unprocessable", `Validation Failed: ${field.name} takes a date like 2026-04-30`);
    } else {
      issue.field_values[field.name] = String(raw);
    }
  }
}

/** Closing and reopening, with GitHub's state_reason rules. */
function applyState(repo: Repo, item: IssueLike, args: IssueWriteArgs, now: string): void {
  const issue = repo.issues.includes(item as Issue) ? (item as Issue) : undefined;
  const target = args.state ?? (args.state_reason !== undefined ? item.state : undefined);
  if (target === undefined) return;
  if (target === "open") {
    if (args.state_reason !== undefined && args.state === undefined) {
      throw new ToolError("invalid_argument", `state_reason applies when closing: pass state="closed" too`);
    }
    if (item.state === "closed") {
      item.state = "open";
      item.closed_at = null;
      if (issue) issue.state_reason = "reopened";
    }
    return;
  }
  const reason = args.state_reason ?? "completed";
  if (issue && reason === "duplicate") {
    if (args.duplicate_of === undefined) throw missing("duplicate_of");
    if (args.duplicate_of === issue.number) throw new ToolError("invalid_argument", "an issue cannot duplicate itself");
    requireIssueOrPull(repo, args.duplicate_of);
    issue.duplicate_of = args.duplicate_of;
  }
  if (item.state === "open") item.closed_at = now;
  item.state = "closed";
  if (issue) issue.state_reason = reason;
}

function summary(repo: Repo, item: IssueLike) {
  const issue = repo.issues.includes(item as Issue) ? (item as Issue) : undefined;
  return {
    id: item.id,
    number: item.number,
    title: item.title,
    state: item.state,
    state_reason: issue?.state_reason ?? null,
    html_url: issueUrl(repo, item),
    labels: [...item.labels],
    assignees: [...item.assignees],
    milestone: item.milestone,
    type: issue?.type ?? null,
  };
}

function createIssue(state: GithubState, repo: Repo, args: IssueWriteArgs, now: string): Issue {
  if (args.title === undefined || !args.title.trim()) throw missing("title");
  requirePermission(state, repo, "pull", "open issues");
  const issue: Issue = {
    id: newId(state, "issue"),
    number: nextNumber(repo),
    title: args.title,
    body: args.body ?? "",
    state: "open",
    state_reason: null,
    user: state.viewer,
    labels: requireLabels(repo, args.labels ?? []),
    assignees: requireAssignees(state, repo, args.assignees ?? []),
    milestone: args.milestone === undefined ? null : requireMilestone(repo, args.milestone),
    type: args.type === undefined ? null : requireIssueType(state, repo, args.type),
    comments: [],
    reactions: {},
    created_at: now,
    updated_at: now,
    closed_at: null,
    duplicate_of: null,
    sub_issues: [],
    parent: null,
    field_values: {},
  };
  applyIssueFields(state, repo, issue, args.issue_fields ?? []);
  repo.issues.push(issue);
  return issue;
}

function updateIssueLike(state: GithubState, repo: Repo, args: IssueWriteArgs, now: string): IssueLike {
  if (args.issue_number === undefined) throw missing("issue_number");
  const { kind, item } = requireIssueOrPull(repo, args.issue_number);
  if (item.user !== state.viewer) requirePermission(state, repo, "triage", `edit #${item.number}`);
  if (args.title !== undefined) {
    if (!args.title.trim()) throw new ToolError("invalid_argument", "title must not be empty");
    item.title = args.title;
  }
  if (args.body !== undefined) item.body = args.body;
  if (args.labels !== undefined) item.labels = requireLabels(repo, args.labels);
  if (args.assignees !== undefined) item.assignees = requireAssignees(state, repo, args.assignees);
  if (args.milestone !== undefined) item.milestone = requireMilestone(repo, args.milestone);
  if (kind === "issue") {
    if (args.type !== undefined) item.type = requireIssueType(state, repo, args.type);
    applyIssueFields(state, repo, item, args.issue_fields ?? []);
  }
  applyState(repo, item, args, now);
  item.updated_at = now;
  return item;
}

export const issueWrite = githubTool<IssueWriteArgs>({
  name: "issue_write",
  title: "Create or update issue",
  description:
    "Create a new or update an existing issue in a GitHub repository. method 'create' needs title; method 'update' needs issue_number (state 'closed' with state_reason closes it; labels and assignees replace the current ones).",
  destructive: true,
  outputSchema: object(
    {
      id: int,
      number: int,
      title: str,
      state: str,
      state_reason: nullable(str),
      html_url: str,
      labels: arrayOf(str),
      assignees: arrayOf(str),
      milestone: nullable(int),
      type: nullable(str),
    },
    ["id", "number", "title", "state", "html_url"],
  ),
  handler: (args, { state, now }) => {
    const repo = requireRepo(state, args.owner, args.repo);
    const at = timestamp(now);
    const item = args.method === "create" ? createIssue(state, repo, args, at) : updateIssueLike(state, repo, args, at);
    return summary(repo, item);
  },
});

interface CommentArgs extends RepoArgs {
  issue_number: number;
  body?: string;
  comment_id?: number;
  reaction?: ReactionContent;
}

export const addIssueComment = githubTool<CommentArgs>({
  name: "add_issue_comment",
  title: "Add comment to issue",
  description:
    "Add a comment to a specific issue or pull request in a GitHub repository, and/or add a reaction (to the issue, or to one of its comments with comment_id).",
  destructive: false,
  outputSchema: object(
    {
      url: str,
      comment: commentSchema,
      reaction: object({ content: str, user: str, subject: str, subject_id: int }, ["content", "subject"]),
    },
    ["url"],
  ),
  handler: (args, { state, now }) => {
    const repo = requireRepo(state, args.owner, args.repo);
    const { item } = requireIssueOrPull(repo, args.issue_number);
    if (args.body === undefined && args.reaction === undefined) throw missing("body");
    if (args.comment_id !== undefined && args.reaction === undefined) {
      throw new ToolError("invalid_argument", "comment_id is only used together with reaction");
    }
    requirePermission(state, repo, "pull", "comment");
    const result: Record<string, unknown> = { url: issueUrl(repo, item) };
    if (args.body !== undefined) {
      const at = timestamp(now);
      const comment = {
        id: newId(state, "comment"),
        user: state.viewer,
        body: args.body,
        created_at: at,
        updated_at: at,
        reactions: {},
      };
      item.comments.push(comment);
      item.updated_at = at;
      result.comment = commentView(state, repo, item, comment);
      result.url = (result.comment as { html_url: string }).html_url;
    }
    if (args.reaction !== undefined) {
      const target = args.comment_id === undefined ? item : item.comments.find((c) => c.id === args.comment_id);
      if (!target) {
        throw new ToolError(
          "not_found",
          `Not Found: comment ${args.comment_id} does not exist on #${item.number} in ${fullName(repo)}`,
        );
      }
      addReaction(target.reactions, state.viewer, args.reaction);
      const subject = args.comment_id === undefined ? "issue" : "comment";
      result.reaction = { content: args.reaction, user: state.viewer, subject, subject_id: target.id };
    }
    return result;
  },
});

interface SubIssueArgs extends RepoArgs {
  method: string;
  issue_number: number;
  sub_issue_id: number;
  replace_parent?: boolean;
  after_id?: number;
  before_id?: number;
}

const SUB_ISSUE_METHODS = ["add", "remove", "reprioritize"];

/** sub_issue_id is an issue's ID, not its number (the real API's rule, and a common mistake). */
function requireIssueById(repo: Repo, id: number, role: string): Issue {
  const issue = repo.issues.find((candidate) => candidate.id === id);
  if (issue) return issue;
  const byNumber = repo.issues.find((candidate) => candidate.number === id);
  const hint = byNumber ? `; ${role} is an issue ID, not a number — issue #${id} has ID ${byNumber.id}` : "";
  throw new ToolError("not_found", `Not Found: no issue with ID ${id} in ${fullName(repo)}${hint}`);
}

function reprioritize(repo: Repo, parent: Issue, child: Issue, args: SubIssueArgs): void {
  if ((args.after_id === undefined) === (args.before_id === undefined)) {
    throw new ToolError("invalid_argument", "reprioritize needs exactly one of after_id or before_id");
  }
  const anchorId = (args.after_id ?? args.before_id)!;
  const anchor = requireIssueById(repo, anchorId, args.after_id !== undefined ? "after_id" : "before_id");
  if (anchor.parent !== parent.number || anchor.number === child.number) {
    throw new ToolError(
      "unprocessable",
      `Validation Failed: issue ${anchorId} is not another sub-issue of #${parent.number}`,
    );
  }
  const order = parent.sub_issues.filter((number) => number !== child.number);
  const at = order.indexOf(anchor.number) + (args.after_id !== undefined ? 1 : 0);
  order.splice(at, 0, child.number);
  parent.sub_issues = order;
}

export const subIssueWrite = githubTool<SubIssueArgs>({
  name: "sub_issue_write",
  title: "Change sub-issue",
  description:
    "Add a sub-issue to a parent issue, remove it, or reprioritize it among the parent's sub-issues. method: 'add', 'remove' or 'reprioritize'. sub_issue_id is the ID of the sub-issue (not its number; issue_read method 'get' shows the ID).",
  destructive: true,
  outputSchema: object(
    {
      method: str,
      parent_issue_number: int,
      sub_issue: object({ id: int, number: int, title: str, state: str, html_url: str }, ["id", "number"]),
      sub_issues: arrayOf(object({ id: int, number: int, title: str }, ["id", "number"])),
    },
    ["method", "parent_issue_number", "sub_issues"],
  ),
  handler: (args, { state, now }) => {
    if (!SUB_ISSUE_METHODS.includes(args.method)) {
      throw new ToolError(
        "invalid_argument",
        `invalid parameter method: must be one of ${SUB_ISSUE_METHODS.join(", ")}`,
      );
    }
    const repo = requireRepo(state, args.owner, args.repo);
    const parent = requireIssue(repo, args.issue_number);
    const child = requireIssueById(repo, args.sub_issue_id, "sub_issue_id");
    requirePermission(state, repo, "triage", "change sub-issues");
    if (args.method === "add") {
      if (child.number === parent.number)
        throw new ToolError("unprocessable", "Validation Failed: an issue cannot be its own sub-issue");
      if (child.parent === parent.number)
        throw new ToolError(
          "unprocessable",
          `Validation Failed: #${child.number} is already a sub-issue of #${parent.number}`,
        );
      if (child.parent !== null) {
        if (!args.replace_parent) {
          throw new ToolError(
            "unprocessable",
            `Validation Failed: #${child.number} already has a parent issue (#${child.parent}); pass replace_parent=true to move it`,
          );
        }
        const old = requireIssue(repo, child.parent);
        old.sub_issues = old.sub_issues.filter((number) => number !== child.number);
      }
      parent.sub_issues.push(child.number);
      child.parent = parent.number;
    } else {
      if (child.parent !== parent.number) {
        throw new ToolError("not_found", `Not Found: #${child.number} is not a sub-issue of #${parent.number}`);
      }
      if (args.method === "remove") {
        parent.sub_issues = parent.sub_issues.filter((number) => number !== child.number);
        child.parent = null;
      } else {
        reprioritize(repo, parent, child, args);
      }
    }
    parent.updated_at = timestamp(now);
    const brief = (issue: Issue) => ({ id: issue.id, number: issue.number, title: issue.title });
    return {
      method: args.method,
      parent_issue_number: parent.number,
      sub_issue: { ...brief(child), state: child.state, html_url: issueUrl(repo, child) },
      sub_issues: parent.sub_issues.map((number) => brief(requireIssue(repo, number))),
    };
  },
});
