import { ToolError } from "../../kit/errors.ts";
import { githubTool, type PageArgs, type RepoArgs } from "../define.ts";
import defaultLabels from "../fixtures/default-labels.json" with { type: "json" };
import { applyEdits, createCommit } from "../git.ts";
import { stableId, timestamp } from "../ids.ts";
import { findOrg, permissionOf, requireOrg, requirePermission, requireRepo, visibleRepos } from "../lookup.ts";
import { paginate, sortByKey } from "../paging.ts";
import { arrayOf, int, minimalRepoSchema, object, repoSchema, searchResultSchema, str } from "../schemas.ts";
import {
  compareRange,
  matchesTerms,
  parseSearchQuery,
  qualifiersHold,
  sortDirection,
  termScore,
} from "../search-query.ts";
import { fullName, type GithubState, type Permission, type Repo } from "../state.ts";
import { minimalRepoView, repoView, userRef } from "../views.ts";

/** A new repository record (no history) owned by `owner`, dated now. */
function blankRepo(owner: string, name: string, isPrivate: boolean, at: string): Repo {
  return {
    id: stableId("session-repo", owner, name),
    owner,
    name,
    description: "",
    private: isPrivate,
    fork: false,
    parent: null,
    archived: false,
    language: null,
    topics: [],
    homepage: "",
    license: null,
    default_branch: "main",
    stargazers_count: 0,
    watchers_count: 0,
    forks_count: 0,
    created_at: at,
    updated_at: at,
    pushed_at: at,
    labels: defaultLabels.map((label) => ({ ...label, id: stableId(owner, name, "label", label.name), default: true })),
    milestones: [],
    collaborators: [],
    commits: {},
    branches: [],
    tags: [],
    releases: [],
    issues: [],
    pulls: [],
  };
}

/** Where a new repository goes: the viewer's account, or an organization the viewer belongs to. */
function targetOwner(state: GithubState, organization: string | undefined): string {
  if (organization === undefined) return state.viewer;
  const org = requireOrg(state, organization);
  if (!org.members.some((member) => member.login === state.viewer)) {
    throw new ToolError("forbidden", `Forbidden: ${state.viewer} is not a member of ${org.login}`);
  }
  return org.login;
}

function requireFreeName(state: GithubState, owner: string, name: string): void {
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(name) || name === "." || name === "..") {
    throw new ToolError("unprocessable", `Validation Failed: "${name}" is not a valid repository name`);
  }
  const taken = Object.values(state.repos).some(
    (repo) => fullName(repo).toLowerCase() === `${owner}/${name}`.toLowerCase(),
  );
  if (taken)
    throw new ToolError("unprocessable", `Validation Failed: name already exists on this account (${owner}/${name})`);
}

export const createRepository = githubTool<{
  name: string;
  organization?: string;
  private?: boolean;
  autoInit?: boolean;
}>({
  name: "create_repository",
  title: "Create repository",
  description:
    "Create a new GitHub repository in your account or in an organization. Private by default; autoInit adds an initial commit with a README.",
  destructive: false,
  outputSchema: repoSchema,
  handler: (args, { state, now }) => {
    const owner = targetOwner(state, args.organization);
    requireFreeName(state, owner, args.name);
    const repo = blankRepo(owner, args.name, args.private ?? true, timestamp(now));
    if (args.autoInit) {
      const tree = applyEdits(state, {}, { "README.md": `# ${args.name}\n` });
      const commit = createCommit(state, repo, { parents: [], tree, message: "Initial commit", now });
      repo.branches.push({ name: "main", sha: commit.sha, protected: false });
    }
    state.repos[fullName(repo)] = repo;
    return repoView(state, repo);
  },
});

export const forkRepository = githubTool<RepoArgs & { organization?: string }>({
  name: "fork_repository",
  title: "Fork repository",
  description:
    "Fork a GitHub repository to your account or to an organization you belong to. Forking again returns the existing fork.",
  destructive: false,
  outputSchema: repoSchema,
  handler: (args, { state, now }) => {
    const source = requireRepo(state, args.owner, args.repo);
    const owner = targetOwner(state, args.organization);
    if (owner.toLowerCase() === source.owner.toLowerCase()) {
      throw new ToolError(
        "unprocessable",
        `Validation Failed: ${fullName(source)} already belongs to ${owner}; a repository cannot be forked into its own account`,
      );
    }
    const existing = state.repos[`${owner}/${source.name}`];
    if (existing?.parent === fullName(source)) return repoView(state, existing);
    requireFreeName(state, owner, source.name);
    const fork: Repo = {
      ...blankRepo(owner, source.name, source.private, timestamp(now)),
      description: source.description,
      language: source.language,
      fork: true,
      parent: fullName(source),
      default_branch: source.default_branch,
      commits: structuredClone(source.commits),
      branches: source.branches.map((branch) => ({ ...branch, protected: false })),
      tags: structuredClone(source.tags),
    };
    source.forks_count += 1;
    state.repos[fullName(fork)] = fork;
    return repoView(state, fork);
  },
});

export const deleteRepository = githubTool<RepoArgs>({
  name: "delete_repository",
  title: "Delete repository",
  description:
    "Delete a GitHub repository permanently, with its issues, pull requests and history. Needs admin rights on the repository.",
  destructive: true,
  outputSchema: object({ deleted: str, message: str }, ["deleted", "message"]),
  handler: ({ owner, repo: name }, { state }) => {
    const repo = requireRepo(state, owner, name);
    requirePermission(state, repo, "admin", "delete it");
    delete state.repos[fullName(repo)];
    state.deleted.push(fullName(repo));
    return { deleted: fullName(repo), message: `Repository ${fullName(repo)} deleted` };
  },
});

type Affiliation = "outside" | "direct" | "all";

/** Everyone with access (owner, org members through base permission, teams and roles, collaborators). */
function collaborators(
  state: GithubState,
  repo: Repo,
  affiliation: Affiliation,
): { login: string; permission: Permission }[] {
  const org = findOrg(state, repo.owner);
  const isMember = (login: string) => org?.members.some((member) => member.login === login) ?? false;
  const explicit = repo.collaborators.map((entry) => entry.login);
  const logins =
    affiliation === "outside"
      ? explicit.filter((login) => !isMember(login))
      : affiliation === "direct"
        ? [...(org ? [] : [repo.owner]), ...explicit]
        : [...(org ? org.members.map((member) => member.login) : [repo.owner]), ...explicit];
  return [...new Set(logins)].map((login) => ({ login, permission: permissionOf(state, repo, login) ?? "pull" }));
}

export const listRepositoryCollaborators = githubTool<RepoArgs & PageArgs & { affiliation?: Affiliation }>({
  name: "list_repository_collaborators",
  title: "List repository collaborators",
  description:
    "List collaborators of a GitHub repository with their permission. affiliation: 'outside' (outside collaborators), 'direct' (added directly) or 'all' (default, including organization members). Needs push access.",
  outputSchema: object(
    {
      collaborators: arrayOf(object({ login: str, id: int, permission: str, html_url: str }, ["login", "permission"])),
      total_count: int,
    },
    ["collaborators", "total_count"],
  ),
  handler: ({ owner, repo: name, affiliation, page, perPage }, { state }) => {
    const repo = requireRepo(state, owner, name);
    requirePermission(state, repo, "push", "list its collaborators");
    const all = collaborators(state, repo, affiliation ?? "all");
    return {
      collaborators: paginate(all, page, perPage).map((entry) => ({
        ...userRef(state, entry.login),
        permission: entry.permission,
      })),
      total_count: all.length,
    };
  },
});

const REPO_QUALIFIERS = [
  "user",
  "org",
  "language",
  "topic",
  "is",
  "fork",
  "stars",
  "forks",
  "archived",
  "in",
  "created",
  "pushed",
];

function repoText(repo: Repo, within: string[]): string {
  const parts: Record<string, string> = {
    name: fullName(repo),
    description: repo.description,
    topics: repo.topics.join(" "),
  };
  const chosen = within.length > 0 ? within : ["name", "description", "topics"];
  return chosen.map((part) => parts[part] ?? "").join("\n");
}

interface SearchReposArgs extends PageArgs {
  query: string;
  sort?: "stars" | "forks" | "help-wanted-issues" | "updated";
  order?: "asc" | "desc";
  minimal_output?: boolean;
}

export const searchRepositories = githubTool<SearchReposArgs>({
  name: "search_repositories",
  title: "Search repositories",
  description:
    "Find GitHub repositories by name, description, readme, topics, or other metadata. Supports repository search syntax, e.g. 'org:acme language:TypeScript', 'topic:react', 'stars:>100', 'user:alice'.",
  outputSchema: searchResultSchema(minimalRepoSchema),
  handler: (args, { state }) => {
    const query = parseSearchQuery(args.query, REPO_QUALIFIERS);
    const within = query.qualifiers.filter((q) => q.key === "in").flatMap((q) => q.value.split(","));
    const forkFilter = query.qualifiers.find((q) => q.key === "fork")?.value.toLowerCase();
    const found = visibleRepos(state).filter(
      (repo) =>
        matchesTerms(repoText(repo, within), query.terms) &&
        (forkFilter === "only" ? repo.fork : forkFilter === "true" || !repo.fork) &&
        qualifiersHold(query, "user", (value) => repo.owner.toLowerCase() === value.toLowerCase()) &&
        qualifiersHold(query, "org", (value) => repo.owner.toLowerCase() === value.toLowerCase()) &&
        qualifiersHold(query, "language", (value) => (repo.language ?? "").toLowerCase() === value.toLowerCase()) &&
        qualifiersHold(query, "topic", (value) => repo.topics.includes(value.toLowerCase())) &&
        qualifiersHold(query, "is", (value) =>
          value === "private" ? repo.private : value === "public" ? !repo.private : false,
        ) &&
        qualifiersHold(query, "stars", (value) => compareRange(repo.stargazers_count, value)) &&
        qualifiersHold(query, "forks", (value) => compareRange(repo.forks_count, value)) &&
        qualifiersHold(query, "archived", (value) => String(repo.archived) === value) &&
        qualifiersHold(query, "created", (value) => compareRange(repo.created_at, value)) &&
        qualifiersHold(query, "pushed", (value) => compareRange(repo.pushed_at, value)),
    );
    const helpWanted = (repo: Repo) =>
      repo.issues.filter((issue) => issue.state === "open" && issue.labels.includes("help wanted")).length;
    const key = (repo: Repo): number | string =>
      args.sort === "stars"
        ? repo.stargazers_count
        : args.sort === "forks"
          ? repo.forks_count
          : args.sort === "help-wanted-issues"
            ? helpWanted(repo)
            : args.sort === "updated"
              ? repo.updated_at
              : termScore(repoText(repo, within), query.terms);
    const sorted = sortByKey(found, key, args.sort ? sortDirection(args.order) : -1);
    const view = (repo: Repo) => (args.minimal_output === false ? repoView(state, repo) : minimalRepoView(repo));
    return {
      total_count: found.length,
      incomplete_results: false,
      items: paginate(sorted, args.page, args.perPage).map(view),
    };
  },
});
