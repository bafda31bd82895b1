/** Builds a fresh GithubState from the fixture files: shas, trees and ids are computed here, deterministically. */
import { deepFreeze, pristineState } from "../kit/pristine.ts";
import orgsFixture from "./fixtures/orgs.json" with { type: "json" };
import acmeApi from "./fixtures/repo-acme-api.json" with { type: "json" };
import acmeDocs from "./fixtures/repo-acme-docs.json" with { type: "json" };
import acmeWebapp from "./fixtures/repo-acme-webapp.json" with { type: "json" };
import aliceAdvent from "./fixtures/repo-alice-advent-of-code-2025.json" with { type: "json" };
import aliceDotfiles from "./fixtures/repo-alice-dotfiles.json" with { type: "json" };
import globexSdk from "./fixtures/repo-globex-sdk-python.json" with { type: "json" };
import globexStorefront from "./fixtures/repo-globex-storefront.json" with { type: "json" };
import usersFixture from "./fixtures/users.json" with { type: "json" };
import { applyEdits, readBlob, type Tree, type TreeEdits } from "./git.ts";
import { sha1, stableId } from "./ids.ts";
import type {
  Account,
  CheckRun,
  Comment,
  Commit,
  GithubState,
  Issue,
  IssueField,
  Org,
  Pull,
  Reactions,
  Repo,
  ReviewThread,
  Team,
} from "./state.ts";

const REPO_FIXTURES = [
  acmeWebapp,
  acmeApi,
  acmeDocs,
  aliceDotfiles,
  aliceAdvent,
  globexStorefront,
  globexSdk,
] as unknown as RepoFixture[];

type FileEdit = string | null | { edits: [string, string][] };

interface CommitFixture {
  key: string;
  parents: string[];
  author: string;
  date: string;
  message: string;
  files: Record<string, FileEdit>;
}

interface CommentFixture {
  user: string;
  body: string;
  created_at: string;
  reactions?: Reactions;
}

interface IssueFixture {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  state_reason: Issue["state_reason"];
  user: string;
  labels: string[];
  assignees: string[];
  milestone: number | null;
  type: string | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  comments: CommentFixture[];
  reactions: Reactions;
  sub_issues: number[];
  duplicate_of: number | null;
  field_values: Record<string, string | number | boolean>;
}

interface PullFixture {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed" | "merged";
  draft: boolean;
  user: string;
  head: string;
  head_commit?: string;
  base: string;
  base_commit?: string;
  merge_commit?: string;
  merged_by?: string;
  merged_at?: string;
  labels: string[];
  assignees: string[];
  requested_reviewers: string[];
  milestone: number | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  comments: CommentFixture[];
  reviews: { user: string; state: Pull["reviews"][number]["state"]; body: string; submitted_at: string }[];
  threads: {
    path: string;
    line: number | null;
    side?: "LEFT" | "RIGHT";
    resolved: boolean;
    comments: CommentFixture[];
  }[];
  checks: { name: string; status: CheckRun["status"]; conclusion: CheckRun["conclusion"] }[];
}

type RepoFixture = Omit<
  Repo,
  "id" | "fork" | "parent" | "archived" | "labels" | "commits" | "branches" | "tags" | "issues" | "pulls"
> & {
  labels: { name: string; color: string; description: string }[];
  commits: CommitFixture[];
  branches: { name: string; commit: string; protected?: boolean }[];
  tags: { name: string; commit: string; message: string; tagger: string; date: string }[];
  issues: IssueFixture[];
  pulls: PullFixture[];
};

interface OrgFixture extends Omit<Org, "teams" | "issue_types" | "issue_fields"> {
  teams: Omit<Team, "id">[];
  issue_types: Omit<Org["issue_types"][number], "id">[];
  issue_fields: Omit<IssueField, "id">[];
}

/** The sha of a fixture commit depends on its repository and key only, so datasets can cite it. */
const fixtureSha = (repo: string, key: string) => sha1(`${repo}:commit:${key}`);

function loadComments(repo: string, scope: string, comments: CommentFixture[]): Comment[] {
  return comments.map((comment, index) => ({
    id: stableId(repo, scope, "comment", index),
    user: comment.user,
    body: comment.body,
    created_at: comment.created_at,
    updated_at: comment.created_at,
    reactions: structuredClone(comment.reactions ?? {}),
  }));
}

function editContent(
  repo: string,
  key: string,
  path: string,
  before: string | undefined,
  edit: FileEdit,
): string | null {
  if (edit === null || typeof edit === "string") return edit;
  let content = before ?? "";
  for (const [find, replace] of edit.edits) {
    if (!content.includes(find)) throw new Error(`fixture ${repo} commit ${key}: ${path} does not contain ${find}`);
    content = content.replace(find, replace);
  }
  return content;
}

function loadCommits(state: GithubState, repo: string, fixtures: CommitFixture[]): Record<string, Commit> {
  const commits: Record<string, Commit> = {};
  fixtures.forEach((fixture, order) => {
    const parents = fixture.parents.map((key) => {
      const sha = fixtureSha(repo, key);
      if (!commits[sha]) throw new Error(`fixture ${repo} commit ${fixture.key}: parent ${key} must come first`);
      return sha;
    });
    const parentTree: Tree = parents[0] ? commits[parents[0]]!.tree : {};
    const edits: TreeEdits = {};
    for (const [path, edit] of Object.entries(fixture.files)) {
      const before = parentTree[path] === undefined ? undefined : readBlob(state, parentTree[path]);
      edits[path] = editContent(repo, fixture.key, path, before, edit);
    }
    const sha = fixtureSha(repo, fixture.key);
    // A commit never changes once made, so every reset's state shares this one (frozen: a write to it throws).
    commits[sha] = deepFreeze({
      sha,
      message: fixture.message,
      author: fixture.author,
      date: fixture.date,
      parents,
      tree: applyEdits(state, parentTree, edits),
      order,
    });
  });
  return commits;
}

function loadIssue(repo: string, fixture: IssueFixture, parents: Map<number, number>): Issue {
  return {
    id: stableId(repo, "issue", fixture.number),
    number: fixture.number,
    title: fixture.title,
    body: fixture.body,
    state: fixture.state,
    state_reason: fixture.state_reason,
    user: fixture.user,
    labels: [...fixture.labels],
    assignees: [...fixture.assignees],
    milestone: fixture.milestone,
    comments: loadComments(repo, `issue${fixture.number}`, fixture.comments),
    reactions: structuredClone(fixture.reactions),
    created_at: fixture.created_at,
    updated_at: fixture.updated_at,
    closed_at: fixture.closed_at,
    type: fixture.type,
    duplicate_of: fixture.duplicate_of,
    sub_issues: [...fixture.sub_issues],
    parent: parents.get(fixture.number) ?? null,
    field_values: { ...fixture.field_values },
  };
}

function loadThreads(repo: string, number: number, fixtures: PullFixture["threads"]): ReviewThread[] {
  return fixtures.map((thread, index) => {
    const ids = thread.comments.map((_, position) => stableId(repo, `pr${number}`, "thread", index, position));
    return {
      id: `PRRT_kwDO${sha1(`${repo}:pr${number}:thread${index}`).slice(0, 14)}`,
      path: thread.path,
      subject_type: thread.line === null ? "FILE" : "LINE",
      line: thread.line,
      start_line: null,
      side: thread.side ?? "RIGHT",
      resolved: thread.resolved,
      resolved_by: thread.resolved ? (thread.comments[0]?.user ?? null) : null,
      comments: thread.comments.map((comment, position) => ({
        id: ids[position]!,
        review_id: null,
        user: comment.user,
        body: comment.body,
        created_at: comment.created_at,
        in_reply_to_id: position === 0 ? null : ids[0]!,
        reactions: structuredClone(comment.reactions ?? {}),
      })),
    };
  });
}

function loadPull(repo: Repo, fixture: PullFixture): Pull {
  const full = `${repo.owner}/${repo.name}`;
  const shaOf = (key: string | undefined, branch: string, role: string): string => {
    if (key !== undefined) return fixtureSha(full, key);
    const found = repo.branches.find((candidate) => candidate.name === branch);
    if (!found) throw new Error(`fixture ${full} PR #${fixture.number}: ${role} branch ${branch} missing`);
    return found.sha;
  };
  const headSha = shaOf(fixture.head_commit, fixture.head, "head");
  const merged = fixture.state === "merged";
  return {
    id: stableId(full, "pull", fixture.number),
    number: fixture.number,
    title: fixture.title,
    body: fixture.body,
    state: fixture.state === "open" ? "open" : "closed",
    user: fixture.user,
    labels: [...fixture.labels],
    assignees: [...fixture.assignees],
    milestone: fixture.milestone,
    comments: loadComments(full, `pr${fixture.number}`, fixture.comments),
    reactions: {},
    created_at: fixture.created_at,
    updated_at: fixture.updated_at,
    closed_at: fixture.closed_at,
    draft: fixture.draft,
    head: { ref: fixture.head, sha: headSha },
    base: { ref: fixture.base, sha: shaOf(fixture.base_commit, fixture.base, "base") },
    merged,
    merged_at: merged ? (fixture.merged_at ?? fixture.closed_at) : null,
    merged_by: merged ? (fixture.merged_by ?? null) : null,
    merge_commit_sha: merged && fixture.merge_commit ? fixtureSha(full, fixture.merge_commit) : null,
    maintainer_can_modify: true,
    requested_reviewers: [...fixture.requested_reviewers],
    reviews: fixture.reviews.map((review, index) => ({
      id: stableId(full, `pr${fixture.number}`, "review", index),
      user: review.user,
      state: review.state,
      body: review.body,
      commit_id: headSha,
      submitted_at: review.submitted_at,
    })),
    threads: loadThreads(full, fixture.number, fixture.threads),
    checks: fixture.checks.map((check, index) => ({
      id: stableId(full, `pr${fixture.number}`, "check", index),
      name: check.name,
      status: check.status,
      conclusion: check.conclusion,
      started_at: fixture.updated_at,
      completed_at: check.status === "completed" ? fixture.updated_at : null,
    })),
  };
}

function loadRepo(state: GithubState, fixture: RepoFixture): Repo {
  const full = `${fixture.owner}/${fixture.name}`;
  const { labels, commits, branches, tags, issues, pulls, ...meta } = fixture;
  const repo: Repo = {
    ...structuredClone(meta),
    id: stableId(full, "repo"),
    fork: false,
    parent: null,
    archived: false,
    labels: labels.map((label) => ({ ...label, id: stableId(full, "label", label.name), default: true })),
    commits: loadCommits(state, full, commits),
    branches: branches.map((branch) => ({
      name: branch.name,
      sha: fixtureSha(full, branch.commit),
      protected: branch.protected ?? false,
    })),
    tags: tags.map((tag) => ({ ...tag, sha: sha1(`${full}:tag:${tag.name}`), commit: fixtureSha(full, tag.commit) })),
    issues: [],
    pulls: [],
  };
  const parents = new Map<number, number>();
  for (const issue of issues) for (const child of issue.sub_issues) parents.set(child, issue.number);
  repo.issues = issues.map((issue) => loadIssue(full, issue, parents));
  repo.pulls = pulls.map((pull) => loadPull(repo, pull));
  return repo;
}

function loadOrg(fixture: OrgFixture): Org {
  return {
    login: fixture.login,
    base_permission: fixture.base_permission,
    members: structuredClone(fixture.members),
    teams: fixture.teams.map((team) => ({ ...structuredClone(team), id: stableId(fixture.login, "team", team.slug) })),
    issue_types: fixture.issue_types.map((type) => ({ ...type, id: stableId(fixture.login, "issue_type", type.name) })),
    issue_fields: fixture.issue_fields.map((field) => ({
      ...structuredClone(field),
      id: stableId(fixture.login, "issue_field", field.name),
    })),
  };
}

function buildGithubState(): GithubState {
  const users = usersFixture as unknown as { viewer: string; accounts: Omit<Account, "id">[] };
  const state: GithubState = {
    viewer: users.viewer,
    accounts: users.accounts.map((account) => ({ ...account, id: stableId("account", account.login) })),
    orgs: (orgsFixture as unknown as OrgFixture[]).map(loadOrg),
    repos: {},
    blobs: {},
    counter: 0,
    deleted: [],
  };
  for (const fixture of REPO_FIXTURES) {
    const repo = loadRepo(state, fixture);
    state.repos[`${repo.owner}/${repo.name}`] = repo;
  }
  return state;
}

/**
 * A fresh state from the fixtures, built once and copied on every later call (a reset): only the fixture commits,
 * which are frozen, are shared between states.
 */
export const createGithubState: () => GithubState = pristineState(buildGithubState);
