/** What a pull request contains in git terms: live head/base, its commits, files, and whether it can merge. */
import { ancestors, type FileChangeWithPatch, history, mergeBase, mergeTrees, treeChanges, withPatch } from "./git.ts";
import type { Commit, GithubState, Pull, Repo, Review } from "./state.ts";

/** While a PR is open its head follows the branch; once closed (or the branch is gone) the recorded sha stands. */
export function headSha(repo: Repo, pull: Pull): string {
  const branch =
    pull.state === "open" ? repo.branches.find((candidate) => candidate.name === pull.head.ref) : undefined;
  return branch?.sha ?? pull.head.sha;
}

export function baseSha(repo: Repo, pull: Pull): string {
  const branch =
    pull.state === "open" ? repo.branches.find((candidate) => candidate.name === pull.base.ref) : undefined;
  return branch?.sha ?? pull.base.sha;
}

/** Commits on head that base does not have, oldest first (the PR's "Commits" tab). */
export function pullCommits(repo: Repo, pull: Pull): Commit[] {
  const onBase = ancestors(repo, baseSha(repo, pull));
  return history(repo, headSha(repo, pull))
    .filter((commit) => !onBase.has(commit.sha))
    .reverse();
}

/** The PR's "Files changed": head against the merge base with base. */
export function pullFiles(state: GithubState, repo: Repo, pull: Pull): FileChangeWithPatch[] {
  const head = headSha(repo, pull);
  const base = mergeBase(repo, baseSha(repo, pull), head);
  const baseTree = base ? repo.commits[base]!.tree : {};
  return treeChanges(baseTree, repo.commits[head]!.tree).map((change) => withPatch(state, change));
}

/** Each reviewer's latest submitted verdict (COMMENTED reviews do not replace an approval or a change request). */
export function latestVerdicts(pull: Pull): Review[] {
  const latest = new Map<string, Review>();
  for (const review of pull.reviews) {
    if (review.state === "PENDING") continue;
    if (review.state === "COMMENTED" && latest.has(review.user)) continue;
    latest.set(review.user, review);
  }
  return [...latest.values()];
}

export type CombinedState = "success" | "failure" | "pending";

export function combinedState(pull: Pull): CombinedState {
  if (pull.checks.some((check) => check.status !== "completed")) return "pending";
  const failed = pull.checks.some((check) => check.conclusion === "failure" || check.conclusion === "timed_out");
  return failed ? "failure" : "success";
}

export interface Mergeability {
  mergeable: boolean | null;
  mergeable_state: "clean" | "dirty" | "behind" | "draft" | "unstable" | "blocked" | "unknown";
  conflicts: string[];
}

/** GitHub's mergeable / mergeable_state for an open PR (closed ones are "unknown"). */
export function mergeability(repo: Repo, pull: Pull): Mergeability {
  if (pull.state !== "open") return { mergeable: null, mergeable_state: "unknown", conflicts: [] };
  const head = headSha(repo, pull);
  const base = baseSha(repo, pull);
  const { conflicts } = mergeTrees(repo, base, head);
  if (conflicts.length > 0) return { mergeable: false, mergeable_state: "dirty", conflicts };
  const state = pull.draft
    ? "draft"
    : latestVerdicts(pull).some((review) => review.state === "CHANGES_REQUESTED")
      ? "blocked"
      : combinedState(pull) === "failure"
        ? "unstable"
        : !ancestors(repo, head).has(base)
          ? "behind"
          : "clean";
  return { mergeable: true, mergeable_state: state, conflicts };
}
