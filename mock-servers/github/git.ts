/** Git plumbing over the in-memory model: blobs, trees, refs, ancestry, diffs, new commits and merges. */
import { type LinePatch, linePatch } from "./diff.ts";
import { nextCounter, sha1, timestamp } from "./ids.ts";
import { type Branch, type Commit, fullName, type GithubState, type Repo } from "./state.ts";

export type Tree = Record<string, string>;
/** New contents by path; null deletes the file. */
export type TreeEdits = Record<string, string | null>;

/** The real git blob sha of a content ("blob <size>\0<content>"), so file shas look and behave like GitHub's. */
export function storeBlob(state: GithubState, content: string): string {
  const sha = sha1(`blob ${Buffer.byteLength(content)}\0${content}`);
  state.blobs[sha] = content;
  return sha;
}

export function readBlob(state: GithubState, sha: string): string {
  return state.blobs[sha] ?? "";
}

export function applyEdits(state: GithubState, tree: Tree, edits: TreeEdits): Tree {
  const next = { ...tree };
  for (const [path, content] of Object.entries(edits)) {
    if (content === null) delete next[path];
    else next[path] = storeBlob(state, content);
  }
  return next;
}

export function treeSha(tree: Tree): string {
  const entries = Object.keys(tree)
    .sort()
    .map((path) => `${path}:${tree[path]}`);
  return sha1(`tree\n${entries.join("\n")}`);
}

/** Resolves a branch, tag (with or without refs/heads/, refs/tags/), full sha or sha prefix (≥ 7) to a commit sha. */
export function resolveRef(repo: Repo, ref: string): string | undefined {
  const name = ref.replace(/^refs\/(heads|tags)\//, "");
  const branch = repo.branches.find((candidate) => candidate.name === name);
  if (branch) return branch.sha;
  const tag = repo.tags.find((candidate) => candidate.name === name);
  if (tag) return tag.commit;
  const lower = ref.toLowerCase();
  if (repo.commits[lower]) return lower;
  if (/^[0-9a-f]{7,39}$/.test(lower)) {
    const matches = Object.keys(repo.commits).filter((sha) => sha.startsWith(lower));
    if (matches.length === 1) return matches[0];
  }
  return undefined;
}

export function defaultBranchSha(repo: Repo): string | undefined {
  return repo.branches.find((branch) => branch.name === repo.default_branch)?.sha;
}

/** Every commit reachable from `sha`, itself included. */
export function ancestors(repo: Repo, sha: string): Set<string> {
  const seen = new Set<string>();
  const stack = [sha];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (seen.has(current) || !repo.commits[current]) continue;
    seen.add(current);
    stack.push(...repo.commits[current]!.parents);
  }
  return seen;
}

/** Newest first, as `git log` prints them (date, then creation order). */
export function history(repo: Repo, sha: string): Commit[] {
  return [...ancestors(repo, sha)]
    .map((candidate) => repo.commits[candidate]!)
    .sort((a, b) => b.date.localeCompare(a.date) || b.order - a.order);
}

/** The most recent common ancestor of two commits (null for unrelated histories). */
export function mergeBase(repo: Repo, a: string, b: string): string | null {
  const fromA = ancestors(repo, a);
  const common = history(repo, b).find((commit) => fromA.has(commit.sha));
  return common?.sha ?? null;
}

export interface FileChange {
  path: string;
  status: "added" | "removed" | "modified";
  before: string | null;
  after: string | null;
}

export interface FileChangeWithPatch extends FileChange, LinePatch {}

export function treeChanges(before: Tree, after: Tree): FileChange[] {
  const paths = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const changes: FileChange[] = [];
  for (const path of paths) {
    const old = before[path] ?? null;
    const now = after[path] ?? null;
    if (old === now) continue;
    changes.push({
      path,
      status: old === null ? "added" : now === null ? "removed" : "modified",
      before: old,
      after: now,
    });
  }
  return changes;
}

/** What a commit changed against its first parent (against an empty tree for a root commit). */
export function commitChanges(repo: Repo, commit: Commit): FileChange[] {
  const parent = commit.parents[0] ? repo.commits[commit.parents[0]] : undefined;
  return treeChanges(parent?.tree ?? {}, commit.tree);
}

export function withPatch(state: GithubState, change: FileChange): FileChangeWithPatch {
  const before = change.before ? readBlob(state, change.before) : "";
  const after = change.after ? readBlob(state, change.after) : "";
  return { ...change, ...linePatch(before, after) };
}

export interface NewCommit {
  parents: string[];
  tree: Tree;
  message: string;
  now: Date;
}

/** A new commit by the viewer; its sha derives from repo, parents, tree, message and the session counter. */
export function createCommit(state: GithubState, repo: Repo, input: NewCommit): Commit {
  const counter = nextCounter(state);
  const sha = sha1(
    `commit\n${fullName(repo)}\n${input.parents.join(",")}\n${treeSha(input.tree)}\n${input.message}\n${counter}`,
  );
  const order = Object.keys(repo.commits).length;
  const commit: Commit = {
    sha,
    message: input.message,
    author: state.viewer,
    date: timestamp(input.now),
    parents: input.parents,
    tree: input.tree,
    order,
  };
  repo.commits[sha] = commit;
  repo.pushed_at = commit.date;
  repo.updated_at = commit.date;
  return commit;
}

/** Commits edits on top of a branch and moves the branch to the new commit. */
export function commitToBranch(
  state: GithubState,
  repo: Repo,
  branch: Branch,
  edits: TreeEdits,
  message: string,
  now: Date,
): Commit {
  const parent = repo.commits[branch.sha]!;
  const commit = createCommit(state, repo, {
    parents: [parent.sha],
    tree: applyEdits(state, parent.tree, edits),
    message,
    now,
  });
  branch.sha = commit.sha;
  return commit;
}

export interface MergeResult {
  /** The base tree with the head side's changes (since the merge base) applied. */
  tree: Tree;
  /** Paths both sides changed differently since the merge base. */
  conflicts: string[];
  /** The head side's changes since the merge base. */
  headChanges: FileChange[];
}

/** A three-way merge of head into base, file by file (a file changed differently on both sides is a conflict). */
export function mergeTrees(repo: Repo, baseSha: string, headSha: string): MergeResult {
  const baseCommit = repo.commits[baseSha]!;
  const headCommit = repo.commits[headSha]!;
  const ancestor = mergeBase(repo, baseSha, headSha);
  const ancestorTree = ancestor ? repo.commits[ancestor]!.tree : {};
  const headChanges = treeChanges(ancestorTree, headCommit.tree);
  const baseChanged = new Map(treeChanges(ancestorTree, baseCommit.tree).map((change) => [change.path, change.after]));
  const conflicts = headChanges
    .filter((change) => baseChanged.has(change.path) && baseChanged.get(change.path) !== change.after)
    .map((change) => change.path);
  const tree = { ...baseCommit.tree };
  for (const change of headChanges) {
    if (change.after === null) delete tree[change.path];
    else tree[change.path] = change.after;
  }
  return { tree, conflicts, headChanges };
}
