import { ToolError } from "../../kit/errors.ts";
import { githubTool, type RepoArgs } from "../define.ts";
import { ancestors, createCommit, mergeTrees } from "../git.ts";
import { newId, timestamp } from "../ids.ts";
import {
  findAccount,
  nextNumber,
  permissionOf,
  requireBranch,
  requirePermission,
  requirePull,
  requireRepo,
} from "../lookup.ts";
import { baseSha, combinedState, headSha, latestVerdicts, mergeability, pullCommits } from "../pull-git.ts";
import { bool, object, pullSummarySchema, str } from "../schemas.ts";
import { fullName, type GithubState, type Pull, type Repo } from "../state.ts";
import { issueUrl, pullSummary } from "../views.ts";

/** Review requests go to users who can read the repo, never to the PR's author (GitHub's 422). */
function requireReviewers(state: GithubState, repo: Repo, pull: Pick<Pull, "user">, logins: string[]): string[] {
  return logins.map((login) => {
    const account = findAccount(state, login);
    if (account?.type !== "User" || permissionOf(state, repo, account.login) === null) {
      throw new ToolError(
        "unprocessable",
        `Validation Failed: ${login} is not a collaborator of ${fullName(repo)} and cannot be requested for review`,
      );
    }
    if (account.login === pull.user) {
      throw new ToolError(
        "unprocessable",
        "Validation Failed: review cannot be requested from the pull request author",
      );
    }
    return account.login;
  });
}

/** "acme:feature-x" (the REST form) or "feature-x"; forks are not modelled, so the owner must be the repo's. */
function headRef(repo: Repo, head: string): string {
  if (!head.includes(":")) return head;
  const [owner, ref = ""] = head.split(":", 2);
  if (owner?.toLowerCase() !== repo.owner.toLowerCase()) {
    throw new ToolError(
      "unprocessable",
      `Validation Failed: head ${head} must be a branch of ${fullName(repo)} (cross-repository pull requests are not supported)`,
    );
  }
  return ref;
}

interface CreatePullArgs extends RepoArgs {
  title: string;
  head: string;
  base: string;
  body?: string;
  draft?: boolean;
  maintainer_can_modify?: boolean;
  reviewers?: string[];
}

export const createPullRequest = githubTool<CreatePullArgs>({
  name: "create_pull_request",
  title: "Open new pull request",
  description:
    "Create a new pull request in a GitHub repository, from the head branch into the base branch (both must exist and head must have commits base does not).",
  destructive: false,
  outputSchema: pullSummarySchema,
  handler: (args, { state, now }) => {
    const repo = requireRepo(state, args.owner, args.repo);
    const head = requireBranch(repo, headRef(repo, args.head));
    const base = requireBranch(repo, args.base);
    requirePermission(state, repo, "push", "open pull requests from its branches");
    if (head.name === base.name)
      throw new ToolError("unprocessable", "Validation Failed: head and base must be different branches");
    const open = repo.pulls.find((p) => p.state === "open" && p.head.ref === head.name && p.base.ref === base.name);
    if (open)
      throw new ToolError(
        "unprocessable",
        `Validation Failed: a pull request already exists for ${repo.owner}:${head.name} (#${open.number})`,
      );
    if (ancestors(repo, base.sha).has(head.sha)) {
      throw new ToolError("unprocessable", `Validation Failed: no commits between ${base.name} and ${head.name}`);
    }
    const at = timestamp(now);
    const pull: Pull = {
      id: newId(state, "pull"),
      number: nextNumber(repo),
      title: args.title,
      body: args.body ?? "",
      state: "open",
      user: state.viewer,
      labels: [],
      assignees: [],
      milestone: null,
      comments: [],
      reactions: {},
      created_at: at,
      updated_at: at,
      closed_at: null,
      draft: args.draft ?? false,
      head: { ref: head.name, sha: head.sha },
      base: { ref: base.name, sha: base.sha },
      merged: false,
      merged_at: null,
      merged_by: null,
      merge_commit_sha: null,
      maintainer_can_modify: args.maintainer_can_modify ?? true,
      requested_reviewers: [],
      reviews: [],
      threads: [],
      checks: [],
    };
    pull.requested_reviewers = requireReviewers(state, repo, pull, args.reviewers ?? []);
    repo.pulls.push(pull);
    return pullSummary(repo, pull);
  },
});

/** Freezes head/base shas when a PR stops following its branches. */
function freeze(repo: Repo, pull: Pull): void {
  pull.head.sha = headSha(repo, pull);
  pull.base.sha = baseSha(repo, pull);
}

interface UpdatePullArgs extends RepoArgs {
  pullNumber: number;
  title?: string;
  body?: string;
  state?: "open" | "closed";
  base?: string;
  draft?: boolean;
  maintainer_can_modify?: boolean;
  reviewers?: string[];
}

function reopen(repo: Repo, pull: Pull): void {
  if (pull.merged)
    throw new ToolError("unprocessable", `Validation Failed: #${pull.number} is merged and cannot be reopened`);
  const branch = repo.branches.find((candidate) => candidate.name === pull.head.ref);
  if (!branch)
    throw new ToolError(
      "unprocessable",
      `Validation Failed: cannot reopen #${pull.number}: its head branch ${pull.head.ref} was deleted`,
    );
  pull.state = "open";
  pull.closed_at = null;
}

export const updatePullRequest = githubTool<UpdatePullArgs>({
  name: "update_pull_request",
  title: "Edit pull request",
  description:
    "Update an existing pull request in a GitHub repository: title, body, base branch, state (open/closed), draft status, maintainer_can_modify, or request reviewers.",
  destructive: true,
  outputSchema: pullSummarySchema,
  handler: (args, { state, now }) => {
    const repo = requireRepo(state, args.owner, args.repo);
    const pull = requirePull(repo, args.pullNumber);
    if (pull.user !== state.viewer) requirePermission(state, repo, "push", `edit pull request #${pull.number}`);
    const fields = ["title", "body", "state", "base", "draft", "maintainer_can_modify", "reviewers"] as const;
    if (fields.every((field) => args[field] === undefined)) {
      throw new ToolError("invalid_argument", `nothing to update: give at least one of ${fields.join(", ")}`);
    }
    if (pull.merged && (args.base !== undefined || args.state !== undefined)) {
      throw new ToolError("unprocessable", `Validation Failed: #${pull.number} is already merged`);
    }
    if (args.base !== undefined) {
      const base = requireBranch(repo, args.base);
      if (base.name === pull.head.ref)
        throw new ToolError("unprocessable", "Validation Failed: base must differ from the head branch");
      pull.base = { ref: base.name, sha: base.sha };
    }
    if (args.title !== undefined) pull.title = args.title;
    if (args.body !== undefined) pull.body = args.body;
    if (args.draft !== undefined) pull.draft = args.draft;
    if (args.maintainer_can_modify !== undefined) pull.maintainer_can_modify = args.maintainer_can_modify;
    if (args.reviewers !== undefined) {
      const added = requireReviewers(state, repo, pull, args.reviewers);
      pull.requested_reviewers = [...new Set([...pull.requested_reviewers, ...added])];
    }
    const at = timestamp(now);
    if (args.state === "closed" && pull.state === "open") {
      freeze(repo, pull);
      pull.state = "closed";
      pull.closed_at = at;
    } else if (args.state === "open" && pull.state === "closed") {
      reopen(repo, pull);
    }
    pull.updated_at = at;
    return pullSummary(repo, pull);
  },
});

/** What a protected base branch demands before merging: an approval, no change requests, no failing checks. */
function protectionProblem(repo: Repo, pull: Pull): string | undefined {
  const base = repo.branches.find((branch) => branch.name === pull.base.ref);
  if (!base?.protected) return undefined;
  const verdicts = latestVerdicts(pull);
  if (verdicts.some((review) => review.state === "CHANGES_REQUESTED")) {
    return "Changes were requested; the review must be approved by the same reviewer first";
  }
  if (!verdicts.some((review) => review.state === "APPROVED")) {
    return `At least 1 approving review is required by reviewers with write access (${base.name} is protected)`;
  }
  const failing = pull.checks.find((check) => check.conclusion === "failure" || check.conclusion === "timed_out");
  if (failing) return `Required status check "${failing.name}" is failing`;
  if (combinedState(pull) === "pending") return "Required status checks are still pending";
  return undefined;
}

function refuseUnmergeable(repo: Repo, pull: Pull): void {
  const refuse = (why: string) => {
    throw new ToolError("not_mergeable", `Pull Request is not mergeable: ${why}`);
  };
  if (pull.merged) refuse(`#${pull.number} was already merged (merge commit ${pull.merge_commit_sha?.slice(0, 7)})`);
  if (pull.state === "closed") refuse(`#${pull.number} is closed; reopen it first`);
  if (pull.draft) refuse(`#${pull.number} is still a draft; mark it ready for review first`);
  const { conflicts } = mergeability(repo, pull);
  if (conflicts.length > 0) refuse(`merge conflict in ${conflicts.join(", ")}`);
  const problem = protectionProblem(repo, pull);
  if (problem) refuse(problem);
}

const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+#(\d+)/gi;

/** Merging into the default branch closes the issues the PR body says it fixes, as GitHub does. */
function closeLinkedIssues(repo: Repo, pull: Pull, at: string): void {
  if (pull.base.ref !== repo.default_branch) return;
  for (const match of pull.body.matchAll(CLOSING)) {
    const issue = repo.issues.find((candidate) => candidate.number === Number(match[1]));
    if (!issue || issue.state === "closed") continue;
    issue.state = "closed";
    issue.state_reason = "completed";
    issue.closed_at = at;
    issue.updated_at = at;
  }
}

interface MergeArgs extends RepoArgs {
  pullNumber: number;
  commit_title?: string;
  commit_message?: string;
  merge_method?: "merge" | "squash" | "rebase";
}

/** Writes the merge onto the base branch: a merge commit, one squashed commit, or the PR's commits replayed. */
function mergeCommits(state: GithubState, repo: Repo, pull: Pull, args: MergeArgs, now: Date): string {
  const base = requireBranch(repo, pull.base.ref);
  const head = headSha(repo, pull);
  const { tree } = mergeTrees(repo, base.sha, head);
  const detail = args.commit_message ? `\n\n${args.commit_message}` : "";
  const method = args.merge_method ?? "merge";
  if (method === "rebase") {
    let tip = base.sha;
    for (const commit of pullCommits(repo, pull)) {
      const replayed = mergeTrees(repo, tip, commit.sha).tree;
      tip = createCommit(state, repo, { parents: [tip], tree: replayed, message: commit.message, now }).sha;
    }
    return tip;
  }
  const title =
    args.commit_title ??
    (method === "squash"
      ? `${pull.title} (#${pull.number})`
      : `Merge pull request #${pull.number} from ${repo.owner}/${pull.head.ref}`);
  const parents = method === "squash" ? [base.sha] : [base.sha, head];
  return createCommit(state, repo, { parents, tree, message: `${title}${detail}`, now }).sha;
}

export const mergePullRequest = githubTool<MergeArgs>({
  name: "merge_pull_request",
  title: "Merge pull request",
  description:
    "Merge a pull request in a GitHub repository. merge_method: merge (default), squash or rebase. Refused for closed, draft or conflicting PRs and when the protected base branch's rules are not met.",
  destructive: true,
  outputSchema: object({ sha: str, merged: bool, message: str }, ["sha", "merged", "message"]),
  handler: (args, { state, now }) => {
    const repo = requireRepo(state, args.owner, args.repo);
    const pull = requirePull(repo, args.pullNumber);
    requirePermission(state, repo, "push", `merge pull request #${pull.number}`);
    refuseUnmergeable(repo, pull);
    freeze(repo, pull);
    const base = requireBranch(repo, pull.base.ref);
    const sha = mergeCommits(state, repo, pull, args, now);
    base.sha = sha;
    const at = timestamp(now);
    Object.assign(pull, {
      state: "closed",
      merged: true,
      merged_at: at,
      merged_by: state.viewer,
      closed_at: at,
      updated_at: at,
    });
    pull.merge_commit_sha = sha;
    closeLinkedIssues(repo, pull, at);
    return { sha, merged: true, message: "Pull Request successfully merged" };
  },
});

export const updatePullRequestBranch = githubTool<RepoArgs & { pullNumber: number; expectedHeadSha?: string }>({
  name: "update_pull_request_branch",
  title: "Update pull request branch",
  description:
    "Update the head branch of a pull request with the latest changes from the base branch (a merge commit on the head branch). expectedHeadSha guards against a concurrent push.",
  destructive: false,
  outputSchema: object({ message: str, url: str, head_sha: str }, ["message", "url"]),
  handler: ({ owner, repo: name, pullNumber, expectedHeadSha }, { state, now }) => {
    const repo = requireRepo(state, owner, name);
    const pull = requirePull(repo, pullNumber);
    if (pull.state !== "open") throw new ToolError("unprocessable", `Validation Failed: #${pull.number} is not open`);
    requirePermission(state, repo, "push", `update the branch of #${pull.number}`);
    const head = requireBranch(repo, pull.head.ref);
    if (expectedHeadSha !== undefined && expectedHeadSha.toLowerCase() !== head.sha) {
      throw new ToolError(
        "unprocessable",
        `Validation Failed: expected head sha ${expectedHeadSha} didn't match current head ref (${head.sha})`,
      );
    }
    const base = baseSha(repo, pull);
    if (ancestors(repo, head.sha).has(base)) {
      throw new ToolError(
        "unprocessable",
        `Validation Failed: there are no new commits on the base branch ${pull.base.ref}`,
      );
    }
    const merged = mergeTrees(repo, head.sha, base);
    if (merged.conflicts.length > 0) {
      throw new ToolError(
        "unprocessable",
        `Validation Failed: merge conflict between base and head (${merged.conflicts.join(", ")})`,
      );
    }
    const message = `Merge branch '${pull.base.ref}' into ${pull.head.ref}`;
    head.sha = createCommit(state, repo, { parents: [head.sha, base], tree: merged.tree, message, now }).sha;
    pull.updated_at = timestamp(now);
    return { message: "Updating pull request branch.", url: issueUrl(repo, pull), head_sha: head.sha };
  },
});
