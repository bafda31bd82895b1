/** Turns the internal model into the JSON shapes the GitHub API (and the real MCP server) returns. */
import { findAccount } from "./lookup.ts";
import { baseSha, headSha, mergeability, pullCommits, pullFiles } from "./pull-git.ts";
import {
  type Comment,
  type Commit,
  fullName,
  type GithubState,
  type Issue,
  type IssueLike,
  type Pull,
  type ReactionContent,
  type Reactions,
  type Release,
  type Repo,
  type Review,
  type ReviewComment,
  type ReviewThread,
} from "./state.ts";

export const WEB = "https://github.com";
export const API = "https://api.github.com";

const REACTIONS: ReactionContent[] = ["+1", "-1", "laugh", "confused", "heart", "hooray", "rocket", "eyes"];

export function userRef(state: GithubState, login: string) {
  const account = findAccount(state, login);
  return { login, id: account?.id ?? 0, type: account?.type ?? "User", html_url: `${WEB}/${login}` };
}

export function reactionsView(reactions: Reactions) {
  const counts = Object.fromEntries(REACTIONS.map((content) => [content, reactions[content]?.length ?? 0]));
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  return { total_count: total, ...counts };
}

export function repoUrl(repo: Repo): string {
  return `${WEB}/${fullName(repo)}`;
}

export function issueUrl(repo: Repo, item: IssueLike): string {
  const kind = repo.pulls.includes(item as Pull) ? "pull" : "issues";
  return `${repoUrl(repo)}/${kind}/${item.number}`;
}

export function commentView(state: GithubState, repo: Repo, item: IssueLike, comment: Comment) {
  return {
    id: comment.id,
    body: comment.body,
    user: userRef(state, comment.user),
    created_at: comment.created_at,
    updated_at: comment.updated_at,
    html_url: `${issueUrl(repo, item)}#issuecomment-${comment.id}`,
    reactions: reactionsView(comment.reactions),
  };
}

function milestoneView(repo: Repo, number: number | null) {
  const milestone = repo.milestones.find((candidate) => candidate.number === number);
  return milestone ? { number: milestone.number, title: milestone.title, state: milestone.state } : null;
}

/** An issue as the issues API returns it; a pull request seen through the issues API carries `pull_request`. */
export function issueView(state: GithubState, repo: Repo, item: IssueLike) {
  const issue = repo.issues.includes(item as Issue) ? (item as Issue) : undefined;
  const pull = issue ? undefined : (item as Pull);
  const subIssues = issue ? repo.issues.filter((candidate) => issue.sub_issues.includes(candidate.number)) : [];
  const completed = subIssues.filter((candidate) => candidate.state === "closed").length;
  return {
    id: item.id,
    number: item.number,
    title: item.title,
    body: item.body,
    state: item.state,
    state_reason: issue?.state_reason ?? null,
    html_url: issueUrl(repo, item),
    repository: fullName(repo),
    user: userRef(state, item.user),
    labels: [...item.labels],
    assignees: item.assignees.map((login) => userRef(state, login)),
    milestone: milestoneView(repo, item.milestone),
    comments: item.comments.length,
    reactions: reactionsView(item.reactions),
    created_at: item.created_at,
    updated_at: item.updated_at,
    closed_at: item.closed_at,
    type: issue?.type ?? null,
    field_values: { ...(issue?.field_values ?? {}) },
    sub_issues_summary: {
      total: subIssues.length,
      completed,
      percent_completed: subIssues.length === 0 ? 0 : Math.round((completed / subIssues.length) * 100),
    },
    parent_issue_number: issue?.parent ?? null,
    duplicate_of: issue?.duplicate_of ?? null,
    ...(pull ? { pull_request: { html_url: issueUrl(repo, pull), merged_at: pull.merged_at } } : {}),
  };
}

export function commitView(state: GithubState, repo: Repo, commit: Commit) {
  const account = findAccount(state, commit.author);
  const person = { name: account?.name ?? commit.author, email: account?.email ?? "", date: commit.date };
  return {
    sha: commit.sha,
    html_url: `${repoUrl(repo)}/commit/${commit.sha}`,
    commit: { message: commit.message, author: person, committer: person },
    author: userRef(state, commit.author),
    committer: userRef(state, commit.author),
    parents: commit.parents.map((sha) => ({ sha, html_url: `${repoUrl(repo)}/commit/${sha}` })),
  };
}

export function reviewView(state: GithubState, repo: Repo, pull: Pull, review: Review) {
  return {
    id: review.id,
    user: userRef(state, review.user),
    state: review.state,
    body: review.body,
    commit_id: review.commit_id,
    submitted_at: review.submitted_at,
    html_url: `${issueUrl(repo, pull)}#pullrequestreview-${review.id}`,
  };
}

export function pullView(state: GithubState, repo: Repo, pull: Pull) {
  const files = pullFiles(state, repo, pull);
  const { mergeable, mergeable_state } = mergeability(repo, pull);
  const threads = pull.threads.flatMap((thread) => thread.comments);
  return {
    id: pull.id,
    number: pull.number,
    title: pull.title,
    body: pull.body,
    state: pull.state,
    draft: pull.draft,
    merged: pull.merged,
    mergeable,
    mergeable_state,
    html_url: issueUrl(repo, pull),
    user: userRef(state, pull.user),
    labels: [...pull.labels],
    assignees: pull.assignees.map((login) => userRef(state, login)),
    requested_reviewers: pull.requested_reviewers.map((login) => userRef(state, login)),
    head: {
      ref: pull.head.ref,
      sha: headSha(repo, pull),
      label: `${repo.owner}:${pull.head.ref}`,
      repo: fullName(repo),
    },
    base: {
      ref: pull.base.ref,
      sha: baseSha(repo, pull),
      label: `${repo.owner}:${pull.base.ref}`,
      repo: fullName(repo),
    },
    additions: files.reduce((sum, file) => sum + file.additions, 0),
    deletions: files.reduce((sum, file) => sum + file.deletions, 0),
    changed_files: files.length,
    commits: pullCommits(repo, pull).length,
    comments: pull.comments.length,
    review_comments: threads.length,
    milestone: milestoneView(repo, pull.milestone),
    maintainer_can_modify: pull.maintainer_can_modify,
    created_at: pull.created_at,
    updated_at: pull.updated_at,
    closed_at: pull.closed_at,
    merged_at: pull.merged_at,
    merged_by: pull.merged_by ? userRef(state, pull.merged_by) : null,
    merge_commit_sha: pull.merge_commit_sha,
  };
}

export function releaseView(state: GithubState, repo: Repo, release: Release) {
  return {
    id: release.id,
    tag_name: release.tag_name,
    name: release.name,
    body: release.body,
    html_url: `${repoUrl(repo)}/releases/tag/${release.tag_name}`,
    draft: release.draft,
    prerelease: release.prerelease,
    created_at: release.created_at,
    published_at: release.published_at,
    author: userRef(state, release.author),
    tarball_url: `${API}/repos/${fullName(repo)}/tarball/${release.tag_name}`,
    zipball_url: `${API}/repos/${fullName(repo)}/zipball/${release.tag_name}`,
  };
}

export function openIssuesCount(repo: Repo): number {
  return [...repo.issues, ...repo.pulls].filter((item) => item.state === "open").length;
}

/** The compact repository shape of search_repositories' minimal output. */
export function minimalRepoView(repo: Repo) {
  return {
    id: repo.id,
    name: repo.name,
    full_name: fullName(repo),
    description: repo.description,
    html_url: repoUrl(repo),
    language: repo.language,
    stargazers_count: repo.stargazers_count,
    forks_count: repo.forks_count,
    open_issues_count: openIssuesCount(repo),
    topics: [...repo.topics],
    private: repo.private,
    fork: repo.fork,
    archived: repo.archived,
    default_branch: repo.default_branch,
    created_at: repo.created_at,
    updated_at: repo.updated_at,
  };
}

export function repoView(state: GithubState, repo: Repo) {
  return {
    ...minimalRepoView(repo),
    owner: userRef(state, repo.owner),
    visibility: repo.private ? "private" : "public",
    parent: repo.parent,
    homepage: repo.homepage,
    license: repo.license,
    watchers_count: repo.watchers_count,
    pushed_at: repo.pushed_at,
    clone_url: `${repoUrl(repo)}.git`,
  };
}

export function reviewCommentView(state: GithubState, repo: Repo, pull: Pull, comment: ReviewComment) {
  const review = pull.reviews.find((candidate) => candidate.id === comment.review_id);
  return {
    id: comment.id,
    body: comment.body,
    user: userRef(state, comment.user),
    created_at: comment.created_at,
    in_reply_to_id: comment.in_reply_to_id,
    pending: review?.state === "PENDING",
    reactions: reactionsView(comment.reactions),
    html_url: `${issueUrl(repo, pull)}#discussion_r${comment.id}`,
  };
}

/** A review thread; comments of someone else's pending review are invisible, as on GitHub. */
export function threadView(state: GithubState, repo: Repo, pull: Pull, thread: ReviewThread) {
  const visible = thread.comments.filter((comment) => {
    const review = pull.reviews.find((candidate) => candidate.id === comment.review_id);
    return review?.state !== "PENDING" || review.user === state.viewer;
  });
  return {
    id: thread.id,
    path: thread.path,
    subject_type: thread.subject_type,
    line: thread.line,
    start_line: thread.start_line,
    side: thread.side,
    is_resolved: thread.resolved,
    resolved_by: thread.resolved_by ? userRef(state, thread.resolved_by) : null,
    comments: visible.map((comment) => reviewCommentView(state, repo, pull, comment)),
  };
}

/** The compact answer of PR writes (create, update): what was done and where to see it. */
export function pullSummary(repo: Repo, pull: Pull) {
  return {
    id: pull.id,
    number: pull.number,
    title: pull.title,
    state: pull.state,
    draft: pull.draft,
    merged: pull.merged,
    html_url: issueUrl(repo, pull),
    head: pull.head.ref,
    base: pull.base.ref,
    user: pull.user,
    requested_reviewers: [...pull.requested_reviewers],
  };
}
