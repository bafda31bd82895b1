/** Finding things the way the GitHub API does (owner/repo case-insensitive, private repos hidden) and access rules. */
import { ToolError } from "../kit/errors.ts";
import {
  type Account,
  type Branch,
  fullName,
  type GithubState,
  type Issue,
  type IssueLike,
  type Org,
  type Permission,
  type Pull,
  type Repo,
} from "./state.ts";

const RANK: Record<Permission, number> = { pull: 0, triage: 1, push: 2, maintain: 3, admin: 4 };

export function findAccount(state: GithubState, login: string): Account | undefined {
  const wanted = login.toLowerCase();
  return state.accounts.find((account) => account.login.toLowerCase() === wanted);
}

export function requireAccount(state: GithubState, login: string): Account {
  const account = findAccount(state, login);
  if (!account) throw new ToolError("not_found", `Not Found: user or organization ${login} does not exist`);
  return account;
}

export function findOrg(state: GithubState, login: string): Org | undefined {
  const wanted = login.toLowerCase();
  return state.orgs.find((org) => org.login.toLowerCase() === wanted);
}

export function requireOrg(state: GithubState, login: string): Org {
  const org = findOrg(state, login);
  if (!org) {
    const account = findAccount(state, login);
    const why = account ? `${account.login} is a user, not an organization` : `organization ${login} does not exist`;
    throw new ToolError("not_found", `Not Found: ${why}`);
  }
  return org;
}

/** The login's permission on a repository: owner, org role, team grants and direct collaborators; pull on public repos. */
export function permissionOf(state: GithubState, repo: Repo, login: string): Permission | null {
  if (repo.owner.toLowerCase() === login.toLowerCase()) return "admin";
  const grants: Permission[] = repo.private ? [] : ["pull"];
  const org = findOrg(state, repo.owner);
  const role = org?.members.find((member) => member.login === login)?.role;
  if (role === "admin") grants.push("admin");
  if (role === "member") grants.push(org!.base_permission);
  for (const team of org?.teams ?? []) {
    if (!team.members.includes(login)) continue;
    for (const grant of team.repos) if (grant.repo === repo.name) grants.push(grant.permission);
  }
  for (const collaborator of repo.collaborators) if (collaborator.login === login) grants.push(collaborator.permission);
  if (grants.length === 0) return null;
  return grants.reduce((best, grant) => (RANK[grant] > RANK[best] ? grant : best));
}

function canSee(state: GithubState, repo: Repo): boolean {
  return permissionOf(state, repo, state.viewer) !== null;
}

/** Repositories the viewer can see (private ones only with access), in fixture order. */
export function visibleRepos(state: GithubState): Repo[] {
  return Object.values(state.repos).filter((repo) => canSee(state, repo));
}

export function findRepo(state: GithubState, owner: string, name: string): Repo | undefined {
  const wanted = `${owner}/${name}`.toLowerCase();
  const repo = Object.values(state.repos).find((candidate) => fullName(candidate).toLowerCase() === wanted);
  return repo && canSee(state, repo) ? repo : undefined;
}

export function requireRepo(state: GithubState, owner: string, name: string): Repo {
  const repo = findRepo(state, owner, name);
  if (!repo) throw new ToolError("not_found", `Not Found: repository ${owner}/${name} does not exist`);
  return repo;
}

/** Refuses a write the viewer has no right to make (403, as GitHub answers). */
export function requirePermission(state: GithubState, repo: Repo, needed: Permission, action: string): void {
  const has = permissionOf(state, repo, state.viewer);
  if (has === null || RANK[has] < RANK[needed]) {
    throw new ToolError(
      "forbidden",
      `Forbidden: ${state.viewer} needs ${needed} access to ${fullName(repo)} to ${action} (has ${has ?? "none"})`,
    );
  }
}

export function requireBranch(repo: Repo, name: string): Branch {
  const branch = repo.branches.find((candidate) => candidate.name === name.replace(/^refs\/heads\//, ""));
  if (!branch) {
    const known = repo.branches.map((candidate) => candidate.name).join(", ") || "none";
    throw new ToolError(
      "not_found",
      `Not Found: branch ${name} does not exist in ${fullName(repo)} (branches: ${known})`,
    );
  }
  return branch;
}

export type IssueOrPull = { kind: "issue"; item: Issue } | { kind: "pull"; item: Pull };

/** Issues and pull requests share numbers; the issues API answers for both, as GitHub's does. */
export function requireIssueOrPull(repo: Repo, number: number): IssueOrPull {
  const issue = repo.issues.find((candidate) => candidate.number === number);
  if (issue) return { kind: "issue", item: issue };
  const pull = repo.pulls.find((candidate) => candidate.number === number);
  if (pull) return { kind: "pull", item: pull };
  throw new ToolError("not_found", `Not Found: issue #${number} does not exist in ${fullName(repo)}`);
}

export function requireIssue(repo: Repo, number: number): Issue {
  const found = requireIssueOrPull(repo, number);
  if (found.kind === "pull") {
    throw new ToolError("invalid_argument", `#${number} in ${fullName(repo)} is a pull request, not an issue`);
  }
  return found.item;
}

export function requirePull(repo: Repo, number: number): Pull {
  const pull = repo.pulls.find((candidate) => candidate.number === number);
  if (pull) return pull;
  const issue = repo.issues.some((candidate) => candidate.number === number);
  const hint = issue ? ` (#${number} is an issue, not a pull request)` : "";
  throw new ToolError("not_found", `Not Found: pull request #${number} does not exist in ${fullName(repo)}${hint}`);
}

/** Issues and pull requests continue one number sequence per repository. */
export function nextNumber(repo: Repo): number {
  const numbers = [...repo.issues, ...repo.pulls].map((item: IssueLike) => item.number);
  return Math.max(0, ...numbers) + 1;
}

export function requireLabels(repo: Repo, names: string[]): string[] {
  return names.map((name) => {
    const label = repo.labels.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
    if (!label) {
      const known = repo.labels.map((candidate) => candidate.name).join(", ");
      throw new ToolError(
        "unprocessable",
        `Validation Failed: label "${name}" does not exist in ${fullName(repo)} (labels: ${known})`,
      );
    }
    return label.name;
  });
}

/** Assignees must be able to see the repository's issues with triage or more (GitHub drops others; we refuse them). */
export function requireAssignees(state: GithubState, repo: Repo, logins: string[]): string[] {
  return logins.map((login) => {
    const account = findAccount(state, login);
    const permission = account ? permissionOf(state, repo, account.login) : null;
    if (account?.type !== "User" || permission === null || RANK[permission] < RANK.triage) {
      throw new ToolError(
        "unprocessable",
        `Validation Failed: ${login} cannot be assigned to issues in ${fullName(repo)}`,
      );
    }
    return account.login;
  });
}
