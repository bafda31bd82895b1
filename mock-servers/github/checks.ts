/** End-state checks the dataset uses ("an issue titled X exists in acme/webapp" …); one per kind of write. */
import type { StateCheck, StateCheckResult } from "../kit/types.ts";
import { ancestors, resolveRef } from "./git.ts";
import { baseSha, headSha } from "./pull-git.ts";
import { fullName, type GithubState, type IssueLike, type Pull, type Repo } from "./state.ts";

type Args = Record<string, unknown>;

const norm = (value: unknown) =>
  String(value ?? "")
    .trim()
    .replace(/\s+/g, " ")
    .toLowerCase();
const contains = (text: string, needle: unknown) => needle === undefined || norm(text).includes(norm(needle));
const pass = (detail: string): StateCheckResult => ({ pass: true, detail });
const fail = (detail: string): StateCheckResult => ({ pass: false, detail });

function repoOf(state: GithubState, args: Args): Repo | undefined {
  const wanted = `${norm(args.owner)}/${norm(args.repo)}`;
  return Object.values(state.repos).find((repo) => fullName(repo).toLowerCase() === wanted);
}

/** Runs a check against a repository, failing with a clear detail when the repository is missing. */
function withRepo(check: (repo: Repo, state: GithubState, args: Args) => StateCheckResult): StateCheck<GithubState> {
  return (state, args) => {
    const repo = repoOf(state, args);
    return repo
      ? check(repo, state, args)
      : fail(`repository ${String(args.owner)}/${String(args.repo)} does not exist`);
  };
}

/** Each listed expectation (labels ⊆, assignees ⊆, equal state …) that the item does not meet, as text. */
function mismatches(item: IssueLike, args: Args): string[] {
  const problems: string[] = [];
  if (args.state !== undefined && norm(item.state) !== norm(args.state)) problems.push(`state is ${item.state}`);
  if (args.title !== undefined && norm(item.title) !== norm(args.title)) problems.push(`title is "${item.title}"`);
  if (!contains(item.body, args.body_contains)) problems.push(`body lacks "${String(args.body_contains)}"`);
  for (const key of ["labels", "assignees"] as const) {
    const wanted = (args[key] as string[] | undefined) ?? [];
    const missing = wanted.filter((value) => !item[key].some((have) => norm(have) === norm(value)));
    if (missing.length > 0) problems.push(`${key} [${item[key].join(", ")}] lack ${missing.join(", ")}`);
  }
  if (args.milestone !== undefined && item.milestone !== Number(args.milestone))
    problems.push(`milestone is ${item.milestone}`);
  return problems;
}

function byNumber<T extends IssueLike>(items: T[], number: unknown): T | undefined {
  return items.find((item) => item.number === Number(number));
}

function describeTitles(items: IssueLike[]): string {
  return items.map((item) => `#${item.number} "${item.title}" (${item.state})`).join("; ") || "none";
}

const issueExists = withRepo((repo, _state, args) => {
  const titled = repo.issues.filter((issue) =>
    args.title !== undefined ? norm(issue.title) === norm(args.title) : contains(issue.title, args.title_contains),
  );
  const hit = titled.find((issue) => mismatches(issue, { ...args, title: undefined }).length === 0);
  if (hit) return pass(`#${hit.number} "${hit.title}" matches in ${fullName(repo)}`);
  const near = titled.map(
    (issue) => `#${issue.number}: ${mismatches(issue, { ...args, title: undefined }).join(", ")}`,
  );
  return fail(
    near.length > 0
      ? `issues with that title do not match: ${near.join("; ")}`
      : `no issue titled "${String(args.title ?? args.title_contains)}" in ${fullName(repo)}`,
  );
});

const issueMatches = withRepo((repo, _state, args) => {
  const issue = byNumber(repo.issues, args.issue_number);
  if (!issue) return fail(`issue #${String(args.issue_number)} does not exist in ${fullName(repo)}`);
  const problems = mismatches(issue, args);
  if (args.state_reason !== undefined && norm(issue.state_reason) !== norm(args.state_reason)) {
    problems.push(`state_reason is ${issue.state_reason}`);
  }
  if (args.type !== undefined && norm(issue.type) !== norm(args.type)) problems.push(`type is ${issue.type}`);
  for (const [field, value] of Object.entries((args.field_values as Record<string, unknown> | undefined) ?? {})) {
    if (norm(issue.field_values[field]) !== norm(value))
      problems.push(`${field} is ${String(issue.field_values[field])}`);
  }
  return problems.length === 0 ? pass(`#${issue.number} matches`) : fail(`#${issue.number}: ${problems.join(", ")}`);
});

/** Comments of the viewer (the agent's writes) on an issue or PR conversation. */
const issueHasComment = withRepo((repo, state, args) => {
  const item = byNumber<IssueLike>([...repo.issues, ...repo.pulls], args.issue_number);
  if (!item) return fail(`#${String(args.issue_number)} does not exist in ${fullName(repo)}`);
  const mine = item.comments.filter((comment) => comment.user === state.viewer);
  const hit = mine.find((comment) => contains(comment.body, args.body_contains));
  return hit
    ? pass(`comment ${hit.id} on #${item.number} contains "${String(args.body_contains)}"`)
    : fail(
        `no comment by ${state.viewer} on #${item.number} contains "${String(args.body_contains)}" (${mine.length} by ${state.viewer})`,
      );
});

const reactionAdded = withRepo((repo, state, args) => {
  const item = byNumber<IssueLike>([...repo.issues, ...repo.pulls], args.issue_number);
  if (!item) return fail(`#${String(args.issue_number)} does not exist in ${fullName(repo)}`);
  const target =
    args.comment_id === undefined ? item : item.comments.find((comment) => comment.id === Number(args.comment_id));
  const users = target?.reactions[String(args.content) as keyof typeof item.reactions] ?? [];
  return users.includes(state.viewer)
    ? pass(`${state.viewer} reacted ${String(args.content)}`)
    : fail(
        `no ${String(args.content)} reaction by ${state.viewer} on #${item.number}${args.comment_id ? ` comment ${String(args.comment_id)}` : ""}`,
      );
});

const subIssueLinked = withRepo((repo, _state, args) => {
  const parent = byNumber(repo.issues, args.parent_number);
  const child = byNumber(repo.issues, args.sub_issue_number);
  if (!parent || !child)
    return fail(`#${String(args.parent_number)} or #${String(args.sub_issue_number)} does not exist`);
  const linked = child.parent === parent.number;
  const expected = args.linked !== false;
  const detail = `#${child.number} ${linked ? "is" : "is not"} a sub-issue of #${parent.number} (sub-issues: ${parent.sub_issues.join(", ") || "none"})`;
  if (
    linked === expected &&
    args.position !== undefined &&
    parent.sub_issues.indexOf(child.number) !== Number(args.position)
  ) {
    return fail(`${detail}; position is ${parent.sub_issues.indexOf(child.number)}`);
  }
  return linked === expected ? pass(detail) : fail(detail);
});

function pullMismatches(repo: Repo, pull: Pull, args: Args): string[] {
  const problems = mismatches(pull, args);
  if (args.head !== undefined && pull.head.ref !== args.head) problems.push(`head is ${pull.head.ref}`);
  if (args.base !== undefined && pull.base.ref !== args.base) problems.push(`base is ${pull.base.ref}`);
  if (args.draft !== undefined && pull.draft !== args.draft) problems.push(`draft is ${pull.draft}`);
  const reviewers = (args.reviewers as string[] | undefined) ?? [];
  const missing = reviewers.filter((login) => !pull.requested_reviewers.includes(login));
  if (missing.length > 0) problems.push(`reviewers lack ${missing.join(", ")}`);
  if (args.up_to_date === true && !ancestors(repo, headSha(repo, pull)).has(baseSha(repo, pull))) {
    problems.push(`head does not contain ${pull.base.ref}`);
  }
  return problems;
}

const prExists = withRepo((repo, _state, args) => {
  const hit = repo.pulls.find((pull) => pullMismatches(repo, pull, args).length === 0);
  return hit
    ? pass(`#${hit.number} "${hit.title}" (${hit.head.ref} → ${hit.base.ref}) matches`)
    : fail(`no matching pull request in ${fullName(repo)} (${describeTitles(repo.pulls)})`);
});

const prMatches = withRepo((repo, _state, args) => {
  const pull = byNumber(repo.pulls, args.pullNumber);
  if (!pull) return fail(`pull request #${String(args.pullNumber)} does not exist in ${fullName(repo)}`);
  const problems = pullMismatches(repo, pull, args);
  return problems.length === 0 ? pass(`#${pull.number} matches`) : fail(`#${pull.number}: ${problems.join(", ")}`);
});

const prMerged = withRepo((repo, _state, args) => {
  const pull = byNumber(repo.pulls, args.pullNumber);
  if (!pull) return fail(`pull request #${String(args.pullNumber)} does not exist in ${fullName(repo)}`);
  return pull.merged
    ? pass(`#${pull.number} merged as ${pull.merge_commit_sha}`)
    : fail(`#${pull.number} is ${pull.state} and not merged`);
});

const prReviewExists = withRepo((repo, state, args) => {
  const pull = byNumber(repo.pulls, args.pullNumber);
  if (!pull) return fail(`pull request #${String(args.pullNumber)} does not exist in ${fullName(repo)}`);
  const user = String(args.user ?? state.viewer);
  const hit = pull.reviews.find(
    (review) =>
      review.user === user &&
      (args.state === undefined || review.state === String(args.state).toUpperCase()) &&
      contains(review.body, args.body_contains),
  );
  const seen = pull.reviews.map((review) => `${review.user}:${review.state}`).join(", ") || "none";
  return hit
    ? pass(`review ${hit.id} by ${user} is ${hit.state}`)
    : fail(`no matching review by ${user} on #${pull.number} (reviews: ${seen})`);
});

const prReviewCommentExists = withRepo((repo, state, args) => {
  const pull = byNumber(repo.pulls, args.pullNumber);
  if (!pull) return fail(`pull request #${String(args.pullNumber)} does not exist in ${fullName(repo)}`);
  const hit = pull.threads.find(
    (thread) =>
      (args.path === undefined || thread.path === args.path) &&
      thread.comments.some((comment) => comment.user === state.viewer && contains(comment.body, args.body_contains)),
  );
  return hit
    ? pass(`thread ${hit.id} on ${hit.path} has the comment`)
    : fail(`no review comment by ${state.viewer} on #${pull.number} contains "${String(args.body_contains)}"`);
});

const threadResolved = withRepo((repo, _state, args) => {
  const thread = repo.pulls.flatMap((pull) => pull.threads).find((candidate) => candidate.id === args.threadId);
  if (!thread) return fail(`review thread ${String(args.threadId)} does not exist in ${fullName(repo)}`);
  const expected = args.resolved !== false;
  const detail = `thread ${thread.id} is ${thread.resolved ? "resolved" : "unresolved"}`;
  return thread.resolved === expected ? pass(detail) : fail(detail);
});

const branchExists = withRepo((repo, _state, args) => {
  const branch = repo.branches.find((candidate) => candidate.name === args.branch);
  if (!branch)
    return fail(
      `branch ${String(args.branch)} does not exist (branches: ${repo.branches.map((b) => b.name).join(", ")})`,
    );
  if (args.from !== undefined) {
    const source = resolveRef(repo, String(args.from));
    if (!source || !ancestors(repo, branch.sha).has(source))
      return fail(`branch ${branch.name} does not contain ${String(args.from)}`);
  }
  return pass(`branch ${branch.name} at ${branch.sha}`);
});

/** The file's text at a branch (default branch when none is named), or undefined. */
function fileText(state: GithubState, repo: Repo, args: Args): string | undefined {
  const sha = resolveRef(repo, String(args.branch ?? repo.default_branch));
  const blob = sha ? repo.commits[sha]?.tree[String(args.path).replace(/^\/+/, "")] : undefined;
  return blob === undefined ? undefined : state.blobs[blob];
}

const fileContains = withRepo((repo, state, args) => {
  const text = fileText(state, repo, args);
  const where = `${String(args.path)} on ${String(args.branch ?? repo.default_branch)}`;
  if (text === undefined) return fail(`${where} does not exist`);
  return text.toLowerCase().includes(String(args.text ?? "").toLowerCase())
    ? pass(`${where} contains "${String(args.text)}"`)
    : fail(`${where} does not contain "${String(args.text)}"`);
});

const fileAbsent = withRepo((repo, state, args) => {
  const where = `${String(args.path)} on ${String(args.branch ?? repo.default_branch)}`;
  return fileText(state, repo, args) === undefined ? pass(`${where} does not exist`) : fail(`${where} still exists`);
});

const commitExists = withRepo((repo, _state, args) => {
  const sha = resolveRef(repo, String(args.branch ?? repo.default_branch));
  const hit = sha
    ? [...ancestors(repo, sha)].map((c) => repo.commits[c]!).find((c) => contains(c.message, args.message_contains))
    : undefined;
  return hit
    ? pass(`commit ${hit.sha.slice(0, 7)} "${hit.message.split("\n")[0]}"`)
    : fail(`no commit on ${String(args.branch ?? repo.default_branch)} mentions "${String(args.message_contains)}"`);
});

const repoExists: StateCheck<GithubState> = (state, args) => {
  const repo = repoOf(state, args);
  const name = `${String(args.owner)}/${String(args.repo)}`;
  if (!repo) return fail(`repository ${name} does not exist`);
  if (args.private !== undefined && repo.private !== args.private) return fail(`${name} private is ${repo.private}`);
  if (args.fork_of !== undefined && norm(repo.parent) !== norm(args.fork_of))
    return fail(`${name} is not a fork of ${String(args.fork_of)}`);
  return pass(`${fullName(repo)} exists`);
};

const repoAbsent: StateCheck<GithubState> = (state, args) => {
  const name = `${String(args.owner)}/${String(args.repo)}`;
  return repoOf(state, args) ? fail(`${name} still exists`) : pass(`${name} does not exist`);
};

export const githubChecks: Record<string, StateCheck<GithubState>> = {
  /** {owner, repo, title | title_contains, state?, labels?, assignees?, body_contains?, milestone?} */
  issue_exists: issueExists,
  /** {owner, repo, issue_number, state} (state_reason? too) */
  issue_state: issueMatches,
  /** {owner, repo, issue_number, title?, state?, state_reason?, labels?, assignees?, milestone?, type?, field_values?} */
  issue_matches: issueMatches,
  /** {owner, repo, issue_number, body_contains}: a comment by the viewer (issues and PRs) */
  issue_has_comment: issueHasComment,
  /** {owner, repo, issue_number, content, comment_id?} */
  reaction_added: reactionAdded,
  /** {owner, repo, parent_number, sub_issue_number, linked? (default true), position?} */
  sub_issue_linked: subIssueLinked,
  /** {owner, repo, title?, head?, base?, state?, draft?, body_contains?, reviewers?} */
  pr_exists: prExists,
  /** {owner, repo, pullNumber, title?, state?, draft?, base?, reviewers?, labels?, up_to_date?} */
  pr_matches: prMatches,
  /** {owner, repo, pullNumber} */
  pr_merged: prMerged,
  /** {owner, repo, pullNumber, state? (APPROVED|CHANGES_REQUESTED|COMMENTED|PENDING), body_contains?, user?} */
  pr_review_exists: prReviewExists,
  /** {owner, repo, pullNumber, body_contains, path?}: a review comment or reply by the viewer */
  pr_review_comment_exists: prReviewCommentExists,
  /** {owner, repo, threadId, resolved? (default true)} */
  thread_resolved: threadResolved,
  /** {owner, repo, branch, from?}: from = a ref the branch must contain */
  branch_exists: branchExists,
  /** {owner, repo, path, text, branch?} */
  file_contains: fileContains,
  /** {owner, repo, path, branch?} */
  file_absent: fileAbsent,
  /** {owner, repo, message_contains, branch?} */
  commit_exists: commitExists,
  /** {owner, repo, private?, fork_of?} */
  repo_exists: repoExists,
  /** {owner, repo} */
  repo_absent: repoAbsent,
};
