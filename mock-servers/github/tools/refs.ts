import { ToolError } from "../../kit/errors.ts";
import { githubTool, type PageArgs, type RepoArgs } from "../define.ts";
import { commitChanges, history, withPatch } from "../git.ts";
import { findAccount, permissionOf, requireBranch, requirePermission, requireRepo } from "../lookup.ts";
import { paginate, project, sortByKey } from "../paging.ts";
import { arrayOf, bool, commitSchema, fileChangeSchema, int, object, partial, releaseSchema, str } from "../schemas.ts";
import { fullName, type GithubState, type Release, type Repo } from "../state.ts";
import { API, commitView, releaseView, repoUrl } from "../views.ts";
import { requireCommitAt } from "./files.ts";

const VALID_BRANCH = /^(?!\/|.*(?:\.\.|\/\/|@\{|\.lock$|\/$|\.$))[^\s~^:?*[\\\x00-\x1f]+$/;

export const createBranch = githubTool<RepoArgs & { branch: string; from_branch?: string }>({
  name: "create_branch",
  title: "Create branch",
  description:
    "Create a new branch in a GitHub repository, from from_branch (the repository's default branch when omitted).",
  destructive: false,
  outputSchema: object({ ref: str, sha: str, url: str }, ["ref", "sha"]),
  handler: ({ owner, repo: name, branch, from_branch }, { state }) => {
    const repo = requireRepo(state, owner, name);
    requirePermission(state, repo, "push", "create branches");
    const source = requireBranch(repo, from_branch ?? repo.default_branch);
    const wanted = branch.replace(/^refs\/heads\//, "");
    if (!VALID_BRANCH.test(wanted) || wanted.startsWith("-")) {
      throw new ToolError("unprocessable", `Validation Failed: "${branch}" is not a valid branch name`);
    }
    if (repo.branches.some((candidate) => candidate.name === wanted)) {
      throw new ToolError(
        "unprocessable",
        `Validation Failed: Reference already exists: branch ${wanted} is already in ${fullName(repo)}`,
      );
    }
    repo.branches.push({ name: wanted, sha: source.sha, protected: false });
    return { ref: `refs/heads/${wanted}`, sha: source.sha, url: `${repoUrl(repo)}/tree/${wanted}` };
  },
});

export const listBranches = githubTool<RepoArgs & PageArgs>({
  name: "list_branches",
  title: "List branches",
  description: "List branches in a GitHub repository, with the sha of each branch's latest commit.",
  outputSchema: object(
    {
      branches: arrayOf(
        object({ name: str, commit: object({ sha: str, url: str }, ["sha"]), protected: bool }, ["name", "commit"]),
      ),
      total_count: int,
    },
    ["branches", "total_count"],
  ),
  handler: ({ owner, repo: name, page, perPage }, { state }) => {
    const repo = requireRepo(state, owner, name);
    const sorted = sortByKey(repo.branches, (branch) => branch.name, 1);
    return {
      branches: paginate(sorted, page, perPage).map((branch) => ({
        name: branch.name,
        commit: { sha: branch.sha, url: `${API}/repos/${fullName(repo)}/commits/${branch.sha}` },
        protected: branch.protected,
      })),
      total_count: repo.branches.length,
    };
  },
});

interface ListCommitsArgs extends RepoArgs, PageArgs {
  sha?: string;
  author?: string;
  path?: string;
  since?: string;
  until?: string;
  fields?: string[];
}

/** GitHub matches the author filter against the login or the commit's author email. */
function authoredBy(state: GithubState, login: string, filter: string): boolean {
  const wanted = filter.toLowerCase();
  const account = findAccount(state, login);
  return login.toLowerCase() === wanted || account?.email?.toLowerCase() === wanted;
}

export const listCommits = githubTool<ListCommitsArgs>({
  name: "list_commits",
  title: "List commits",
  description:
    "Get list of commits of a branch in a GitHub repository, newest first. sha is a branch, tag or commit sha (default branch when omitted); filter by author (login or email), path, since and until (ISO 8601).",
  outputSchema: object({ commits: arrayOf(partial(commitSchema)), total_count: int }, ["commits", "total_count"]),
  handler: (args, { state }) => {
    const repo = requireRepo(state, args.owner, args.repo);
    const start = requireCommitAt(repo, args.sha);
    const path = args.path?.replace(/^\/+|\/+$/g, "");
    const found = history(repo, start.sha).filter(
      (commit) =>
        (args.author === undefined || authoredBy(state, commit.author, args.author)) &&
        (args.since === undefined || commit.date >= args.since) &&
        (args.until === undefined || commit.date <= args.until) &&
        (!path || commitChanges(repo, commit).some((c) => c.path === path || c.path.startsWith(`${path}/`))),
    );
    return {
      commits: project(
        paginate(found, args.page, args.perPage).map((commit) => commitView(state, repo, commit)),
        args.fields,
      ),
      total_count: found.length,
    };
  },
});

interface GetCommitArgs extends RepoArgs, PageArgs {
  sha: string;
  detail?: "none" | "stats" | "full_patch";
}

export const getCommit = githubTool<GetCommitArgs>({
  name: "get_commit",
  title: "Get commit details",
  description:
    "Get details for a commit from a GitHub repository (sha may be a full or short sha, a branch or a tag). detail: 'none', 'stats' (default: totals and changed files) or 'full_patch' (with each file's patch).",
  outputSchema: object(
    {
      ...(commitSchema.properties as Record<string, unknown>),
      stats: object({ additions: int, deletions: int, total: int }, ["additions", "deletions", "total"]),
      files: arrayOf(fileChangeSchema),
    },
    ["sha", "commit"],
  ),
  handler: ({ owner, repo: name, sha, detail, page, perPage }, { state }) => {
    const repo = requireRepo(state, owner, name);
    const commit = requireCommitAt(repo, sha);
    const view = commitView(state, repo, commit);
    if (detail === "none") return view;
    const files = commitChanges(repo, commit).map((change) => withPatch(state, change));
    const additions = files.reduce((sum, file) => sum + file.additions, 0);
    const deletions = files.reduce((sum, file) => sum + file.deletions, 0);
    return {
      ...view,
      stats: { additions, deletions, total: additions + deletions },
      files: paginate(files, page, perPage).map((file) => ({
        filename: file.path,
        status: file.status,
        additions: file.additions,
        deletions: file.deletions,
        changes: file.additions + file.deletions,
        sha: file.after,
        ...(detail === "full_patch" ? { patch: file.patch } : {}),
      })),
    };
  },
});

function tagsNewestFirst(repo: Repo) {
  return sortByKey(repo.tags, (tag) => tag.date, -1);
}

export const listTags = githubTool<RepoArgs & PageArgs>({
  name: "list_tags",
  title: "List tags",
  description: "List git tags in a GitHub repository, newest first, with the commit each points to.",
  outputSchema: object(
    {
      tags: arrayOf(
        object({ name: str, commit: object({ sha: str, url: str }, ["sha"]), zipball_url: str, tarball_url: str }, [
          "name",
          "commit",
        ]),
      ),
      total_count: int,
    },
    ["tags", "total_count"],
  ),
  handler: ({ owner, repo: name, page, perPage }, { state }) => {
    const repo = requireRepo(state, owner, name);
    return {
      tags: paginate(tagsNewestFirst(repo), page, perPage).map((tag) => ({
        name: tag.name,
        commit: { sha: tag.commit, url: `${API}/repos/${fullName(repo)}/commits/${tag.commit}` },
        zipball_url: `${API}/repos/${fullName(repo)}/zipball/refs/tags/${tag.name}`,
        tarball_url: `${API}/repos/${fullName(repo)}/tarball/refs/tags/${tag.name}`,
      })),
      total_count: repo.tags.length,
    };
  },
});

export const getTag = githubTool<RepoArgs & { tag: string }>({
  name: "get_tag",
  title: "Get tag details",
  description:
    "Get details about a specific git tag in a GitHub repository: the tag object, its message, tagger and the commit it points to.",
  outputSchema: object(
    {
      tag: str,
      sha: str,
      message: str,
      tagger: object({ name: str, email: str, date: str }, ["name", "date"]),
      object: object({ type: str, sha: str }, ["type", "sha"]),
      url: str,
    },
    ["tag", "sha", "object"],
  ),
  handler: ({ owner, repo: name, tag: tagName }, { state }) => {
    const repo = requireRepo(state, owner, name);
    const wanted = tagName.replace(/^refs\/tags\//, "");
    const tag = repo.tags.find((candidate) => candidate.name === wanted);
    if (!tag) {
      const known =
        tagsNewestFirst(repo)
          .map((candidate) => candidate.name)
          .join(", ") || "none";
      throw new ToolError(
        "not_found",
        `Not Found: tag ${tagName} does not exist in ${fullName(repo)} (tags: ${known})`,
      );
    }
    const tagger = findAccount(state, tag.tagger);
    return {
      tag: tag.name,
      sha: tag.sha,
      message: tag.message,
      tagger: { name: tagger?.name ?? tag.tagger, email: tagger?.email ?? "", date: tag.date },
      object: { type: "commit", sha: tag.commit },
      url: `${API}/repos/${fullName(repo)}/git/tags/${tag.sha}`,
    };
  },
});

/** Draft releases are visible only to users with push access, as on GitHub. */
function visibleReleases(state: GithubState, repo: Repo): Release[] {
  const permission = permissionOf(state, repo, state.viewer);
  const canPush = permission === "push" || permission === "maintain" || permission === "admin";
  return sortByKey(
    repo.releases.filter((release) => canPush || !release.draft),
    (release) => release.created_at,
    -1,
  );
}

export const listReleases = githubTool<RepoArgs & PageArgs & { fields?: string[] }>({
  name: "list_releases",
  title: "List releases",
  description: "List releases in a GitHub repository, newest first (drafts only for users with push access).",
  outputSchema: object({ releases: arrayOf(partial(releaseSchema)), total_count: int }, ["releases", "total_count"]),
  handler: ({ owner, repo: name, page, perPage, fields }, { state }) => {
    const repo = requireRepo(state, owner, name);
    const releases = visibleReleases(state, repo);
    return {
      releases: project(
        paginate(releases, page, perPage).map((release) => releaseView(state, repo, release)),
        fields,
      ),
      total_count: releases.length,
    };
  },
});

export const getLatestRelease = githubTool<RepoArgs>({
  name: "get_latest_release",
  title: "Get latest release",
  description:
    "Get the latest release in a GitHub repository: the most recent published release that is neither a draft nor a prerelease.",
  outputSchema: releaseSchema,
  handler: ({ owner, repo: name }, { state }) => {
    const repo = requireRepo(state, owner, name);
    const latest = sortByKey(
      repo.releases.filter((release) => !release.draft && !release.prerelease && release.published_at !== null),
      (release) => release.published_at ?? "",
      -1,
    )[0];
    if (!latest) throw new ToolError("not_found", `Not Found: ${fullName(repo)} has no published releases`);
    return releaseView(state, repo, latest);
  },
});

export const getReleaseByTag = githubTool<RepoArgs & { tag: string }>({
  name: "get_release_by_tag",
  title: "Get a release by tag name",
  description: "Get a specific release by its tag name in a GitHub repository.",
  outputSchema: releaseSchema,
  handler: ({ owner, repo: name, tag }, { state }) => {
    const repo = requireRepo(state, owner, name);
    const release = visibleReleases(state, repo).find((candidate) => candidate.tag_name === tag);
    if (!release) {
      const known =
        visibleReleases(state, repo)
          .map((candidate) => candidate.tag_name)
          .join(", ") || "none";
      throw new ToolError(
        "not_found",
        `Not Found: no release with tag ${tag} in ${fullName(repo)} (releases: ${known})`,
      );
    }
    return releaseView(state, repo, release);
  },
});
