/** The in-memory model of the GitHub mock: accounts, orgs, and repositories with real git-like history. */

export type ReactionContent = "+1" | "-1" | "laugh" | "confused" | "heart" | "hooray" | "rocket" | "eyes";

/** Logins of the users who reacted, per reaction content. */
export type Reactions = Partial<Record<ReactionContent, string[]>>;

export interface Account {
  login: string;
  id: number;
  type: "User" | "Organization";
  name: string;
  email: string | null;
  bio: string | null;
  company: string | null;
  location: string | null;
  blog: string;
  twitter_username: string | null;
  followers: number;
  following: number;
  created_at: string;
}

export interface Team {
  id: number;
  slug: string;
  name: string;
  description: string;
  privacy: "closed" | "secret";
  members: string[];
  /** Repository names (in the team's org) and the team's permission on each. */
  repos: { repo: string; permission: Permission }[];
}

export interface IssueType {
  id: number;
  name: string;
  description: string;
  color: string;
}

export interface IssueField {
  id: number;
  name: string;
  data_type: "single_select" | "text" | "number" | "date";
  description: string;
  options?: { name: string; description: string }[];
}

export interface Org {
  login: string;
  /** What every member may do on every repository of the org (GitHub's "base permission"). */
  base_permission: Permission;
  members: { login: string; role: "admin" | "member" }[];
  teams: Team[];
  issue_types: IssueType[];
  issue_fields: IssueField[];
}

export type Permission = "pull" | "triage" | "push" | "maintain" | "admin";

export interface Collaborator {
  login: string;
  permission: Permission;
}

export interface Label {
  id: number;
  name: string;
  color: string;
  description: string;
  default: boolean;
}

export interface Milestone {
  number: number;
  title: string;
  description: string;
  state: "open" | "closed";
  due_on: string | null;
}

/** A commit; `tree` maps every file path to its blob sha (directories are implied by the paths). */
export interface Commit {
  sha: string;
  message: string;
  author: string;
  date: string;
  parents: string[];
  tree: Record<string, string>;
  /** Creation order inside the repository, to break ties between commits with the same date. */
  order: number;
}

export interface Branch {
  name: string;
  sha: string;
  protected: boolean;
}

/** An annotated tag: a tag object (sha) pointing at a commit. */
export interface Tag {
  name: string;
  sha: string;
  commit: string;
  message: string;
  tagger: string;
  date: string;
}

export interface Release {
  id: number;
  tag_name: string;
  name: string;
  body: string;
  draft: boolean;
  prerelease: boolean;
  author: string;
  created_at: string;
  published_at: string | null;
}

export interface Comment {
  id: number;
  user: string;
  body: string;
  created_at: string;
  updated_at: string;
  reactions: Reactions;
}

/** What issues and pull requests share (they share one number space per repository, as on GitHub). */
export interface IssueLike {
  id: number;
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  user: string;
  labels: string[];
  assignees: string[];
  milestone: number | null;
  comments: Comment[];
  reactions: Reactions;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

export type StateReason = "completed" | "not_planned" | "duplicate" | "reopened";

export interface Issue extends IssueLike {
  state_reason: StateReason | null;
  type: string | null;
  duplicate_of: number | null;
  /** Numbers of the sub-issues (same repository), in their display order. */
  sub_issues: number[];
  parent: number | null;
  field_values: Record<string, string | number | boolean>;
}

export type ReviewState = "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "PENDING" | "DISMISSED";

export interface Review {
  id: number;
  user: string;
  state: ReviewState;
  body: string;
  commit_id: string;
  submitted_at: string | null;
}

export interface ReviewComment {
  id: number;
  review_id: number | null;
  user: string;
  body: string;
  created_at: string;
  in_reply_to_id: number | null;
  reactions: Reactions;
}

export interface ReviewThread {
  id: string;
  path: string;
  subject_type: "LINE" | "FILE";
  line: number | null;
  start_line: number | null;
  side: "LEFT" | "RIGHT";
  resolved: boolean;
  resolved_by: string | null;
  comments: ReviewComment[];
}

export interface CheckRun {
  id: number;
  name: string;
  status: "queued" | "in_progress" | "completed";
  conclusion: "success" | "failure" | "neutral" | "cancelled" | "skipped" | "timed_out" | null;
  started_at: string;
  completed_at: string | null;
}

export interface Pull extends IssueLike {
  draft: boolean;
  /** head/base sha are frozen when the PR closes; while open they follow the branches (see git.ts). */
  head: { ref: string; sha: string };
  base: { ref: string; sha: string };
  merged: boolean;
  merged_at: string | null;
  merged_by: string | null;
  merge_commit_sha: string | null;
  maintainer_can_modify: boolean;
  requested_reviewers: string[];
  reviews: Review[];
  threads: ReviewThread[];
  checks: CheckRun[];
}

export interface Repo {
  id: number;
  owner: string;
  name: string;
  description: string;
  private: boolean;
  fork: boolean;
  /** Full name of the repository this one was forked from. */
  parent: string | null;
  archived: boolean;
  language: string | null;
  topics: string[];
  homepage: string;
  license: string | null;
  default_branch: string;
  stargazers_count: number;
  watchers_count: number;
  forks_count: number;
  created_at: string;
  updated_at: string;
  pushed_at: string;
  labels: Label[];
  milestones: Milestone[];
  collaborators: Collaborator[];
  commits: Record<string, Commit>;
  branches: Branch[];
  tags: Tag[];
  releases: Release[];
  issues: Issue[];
  pulls: Pull[];
}

export interface GithubState {
  /** The authenticated user (the token's owner): every write is made as this login. */
  viewer: string;
  accounts: Account[];
  orgs: Org[];
  /** Repositories by full name ("acme/webapp"). */
  repos: Record<string, Repo>;
  /** File contents by git blob sha. */
  blobs: Record<string, string>;
  /** Counter behind every new id, sha and timestamp of this session. */
  counter: number;
  /** Full names of repositories deleted this session (for the repo checks' messages). */
  deleted: string[];
}

export const fullName = (repo: Pick<Repo, "owner" | "name">): string => `${repo.owner}/${repo.name}`;

/** Adds a user's reaction; an identical existing reaction is kept as is (GitHub answers it, never duplicates it). */
export function addReaction(reactions: Reactions, login: string, content: ReactionContent): void {
  const users = reactions[content] ?? [];
  if (!users.includes(login)) users.push(login);
  reactions[content] = users;
}
