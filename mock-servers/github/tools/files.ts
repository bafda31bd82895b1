import { ToolError } from "../../kit/errors.ts";
import { githubTool, type RepoArgs } from "../define.ts";
import { commitToBranch, defaultBranchSha, readBlob, resolveRef, type TreeEdits, treeSha } from "../git.ts";
import { requireBranch, requirePermission, requireRepo } from "../lookup.ts";
import { project } from "../paging.ts";
import { arrayOf, commitRefSchema, int, nullable, object, str } from "../schemas.ts";
import { type Commit, fullName, type GithubState, type Repo } from "../state.ts";
import { API, repoUrl, userRef } from "../views.ts";

/** Paths as the contents API takes them: no leading or trailing slash ("" is the root). */
function normalizePath(path: string | undefined): string {
  return (path ?? "/").replace(/^\/+|\/+$/g, "");
}

/** The commit a read looks at: sha over ref over the default branch; refuses unknown refs and empty repos. */
export function requireCommitAt(repo: Repo, ref: string | undefined): Commit {
  const sha = ref === undefined ? defaultBranchSha(repo) : resolveRef(repo, ref);
  if (ref === undefined && sha === undefined)
    throw new ToolError("not_found", `Not Found: ${fullName(repo)} is empty (no commits yet)`);
  if (sha === undefined) {
    throw new ToolError(
      "not_found",
      `Not Found: no commit found for ref ${ref} in ${fullName(repo)} (not a branch, tag or commit sha)`,
    );
  }
  return repo.commits[sha]!;
}

function fileEntry(state: GithubState, repo: Repo, ref: string, path: string, sha: string) {
  const size = Buffer.byteLength(readBlob(state, sha));
  return {
    type: "file",
    name: path.split("/").at(-1)!,
    path,
    size,
    sha,
    url: `${API}/repos/${fullName(repo)}/contents/${path}?ref=${ref}`,
    git_url: `${API}/repos/${fullName(repo)}/git/blobs/${sha}`,
    html_url: `${repoUrl(repo)}/blob/${ref}/${path}`,
    download_url: `https://raw.githubusercontent.com/${fullName(repo)}/${ref}/${path}`,
  };
}

/** The immediate children of a directory, alphabetical, each a file or a dir (with the subtree's sha). */
function directoryEntries(state: GithubState, repo: Repo, commit: Commit, ref: string, dir: string) {
  const prefix = dir === "" ? "" : `${dir}/`;
  const children = new Map<string, ReturnType<typeof fileEntry>>();
  for (const [path, sha] of Object.entries(commit.tree)) {
    if (!path.startsWith(prefix)) continue;
    const [name = "", ...rest] = path.slice(prefix.length).split("/");
    const childPath = `${prefix}${name}`;
    if (rest.length === 0) children.set(name, fileEntry(state, repo, ref, childPath, sha));
    else if (!children.has(name)) {
      const subtree = Object.fromEntries(Object.entries(commit.tree).filter(([p]) => p.startsWith(`${childPath}/`)));
      const entry = fileEntry(state, repo, ref, childPath, treeSha(subtree));
      children.set(name, {
        ...entry,
        type: "dir",
        size: 0,
        html_url: `${repoUrl(repo)}/tree/${ref}/${childPath}`,
        download_url: "",
      });
    }
  }
  return [...children.values()].sort((a, b) => a.name.localeCompare(b.name));
}

interface GetFileArgs extends RepoArgs {
  path?: string;
  ref?: string;
  sha?: string;
  fields?: string[];
}

const entrySchema = object(
  { type: str, name: str, path: str, size: int, sha: str, url: str, git_url: str, html_url: str, download_url: str },
  [],
);

export const getFileContents = githubTool<GetFileArgs>({
  name: "get_file_contents",
  title: "Get file or directory contents",
  description:
    "Get the contents of a file or directory from a GitHub repository. path defaults to the root; ref is a branch, tag or commit sha (default branch when omitted); sha selects a commit and overrides ref. Files come with their blob sha, needed to update them.",
  outputSchema: object(
    {
      type: { enum: ["file", "dir"] },
      path: str,
      ref: str,
      name: str,
      sha: str,
      size: int,
      encoding: str,
      content: str,
      html_url: str,
      download_url: str,
      entries: arrayOf(entrySchema),
    },
    ["type", "path", "ref"],
  ),
  handler: (args, { state }) => {
    const repo = requireRepo(state, args.owner, args.repo);
    const ref = args.sha ?? args.ref;
    const commit = requireCommitAt(repo, ref);
    const refName = ref ?? repo.default_branch;
    const path = normalizePath(args.path);
    const blob = commit.tree[path];
    if (blob !== undefined) {
      const file = fileEntry(state, repo, refName, path, blob);
      return { ...file, ref: refName, encoding: "utf-8", content: readBlob(state, blob) };
    }
    const entries = directoryEntries(state, repo, commit, refName, path);
    if (entries.length === 0) {
      throw new ToolError("not_found", `Not Found: ${path || "/"} does not exist in ${fullName(repo)} at ${refName}`);
    }
    return { type: "dir", path: path || "/", ref: refName, entries: project(entries, args.fields) };
  },
});

function commitRef(state: GithubState, repo: Repo, commit: Commit) {
  return {
    sha: commit.sha,
    message: commit.message,
    html_url: `${repoUrl(repo)}/commit/${commit.sha}`,
    author: userRef(state, commit.author),
  };
}

/** File writes need push access and an existing branch; returns the branch to commit on. */
function writableBranch(state: GithubState, repo: Repo, branch: string, action: string) {
  requirePermission(state, repo, "push", action);
  return requireBranch(repo, branch);
}

function requireFilePath(path: string): string {
  const normalized = normalizePath(path);
  if (!normalized || normalized.split("/").some((part) => part === "" || part === "." || part === "..")) {
    throw new ToolError("unprocessable", `Validation Failed: "${path}" is not a valid file path`);
  }
  return normalized;
}

interface CreateOrUpdateArgs extends RepoArgs {
  path: string;
  content: string;
  message: string;
  branch: string;
  sha?: string;
  allow_symlink_write?: boolean;
}

const contentSchema = object({ name: str, path: str, sha: str, size: int, html_url: str }, ["path", "sha"]);

export const createOrUpdateFile = githubTool<CreateOrUpdateArgs>({
  name: "create_or_update_file",
  title: "Create or update file",
  description:
    "Create or update a single file in a GitHub repository with one commit on the given branch. To update an existing file, pass its current blob sha (from get_file_contents); a missing or stale sha is refused.",
  destructive: true,
  outputSchema: object({ content: contentSchema, commit: commitRefSchema }, ["content", "commit"]),
  handler: (args, { state, now }) => {
    const repo = requireRepo(state, args.owner, args.repo);
    const branch = writableBranch(state, repo, args.branch, "write files");
    const path = requireFilePath(args.path);
    const tree = repo.commits[branch.sha]!.tree;
    if (Object.keys(tree).some((existing) => existing.startsWith(`${path}/`))) {
      throw new ToolError("unprocessable", `Validation Failed: ${path} is a directory in ${fullName(repo)}`);
    }
    const current = tree[path];
    if (current !== undefined && args.sha === undefined) {
      throw new ToolError(
        "unprocessable",
        `Invalid request. "sha" wasn't supplied: ${path} already exists on ${branch.name}; pass its current blob sha (get_file_contents shows it) to update it`,
      );
    }
    if (current !== undefined && args.sha !== current) {
      throw new ToolError(
        "conflict",
        `Conflict: ${path} does not match ${args.sha} (current blob sha on ${branch.name} is ${current})`,
      );
    }
    const commit = commitToBranch(state, repo, branch, { [path]: args.content }, args.message, now);
    const sha = commit.tree[path]!;
    const { name, size, html_url } = fileEntry(state, repo, branch.name, path, sha);
    return { content: { name, path, sha, size, html_url }, commit: commitRef(state, repo, commit) };
  },
});

export const deleteFile = githubTool<RepoArgs & { path: string; message: string; branch: string }>({
  name: "delete_file",
  title: "Delete file",
  description: "Delete a file from a GitHub repository with one commit on the given branch.",
  destructive: true,
  outputSchema: object({ content: nullable(contentSchema), commit: commitRefSchema }, ["commit"]),
  handler: (args, { state, now }) => {
    const repo = requireRepo(state, args.owner, args.repo);
    const branch = writableBranch(state, repo, args.branch, "delete files");
    const path = requireFilePath(args.path);
    if (repo.commits[branch.sha]!.tree[path] === undefined) {
      throw new ToolError("not_found", `Not Found: ${path} does not exist on ${branch.name} in ${fullName(repo)}`);
    }
    const commit = commitToBranch(state, repo, branch, { [path]: null }, args.message, now);
    return { content: null, commit: commitRef(state, repo, commit) };
  },
});

interface PushFilesArgs extends RepoArgs {
  branch: string;
  message: string;
  files: { path: string; content: string }[];
}

export const pushFiles = githubTool<PushFilesArgs>({
  name: "push_files",
  title: "Push files to repository",
  description:
    "Push multiple files to a GitHub repository in a single commit on an existing branch (files are created or overwritten).",
  destructive: true,
  outputSchema: object({ commit: commitRefSchema, files: arrayOf(object({ path: str, sha: str }, ["path", "sha"])) }, [
    "commit",
    "files",
  ]),
  handler: (args, { state, now }) => {
    const repo = requireRepo(state, args.owner, args.repo);
    const branch = writableBranch(state, repo, args.branch, "push files");
    if (args.files.length === 0)
      throw new ToolError("invalid_argument", "files must list at least one {path, content}");
    const edits: TreeEdits = {};
    for (const file of args.files) edits[requireFilePath(file.path)] = file.content;
    const commit = commitToBranch(state, repo, branch, edits, args.message, now);
    return {
      commit: commitRef(state, repo, commit),
      files: Object.keys(edits).map((path) => ({ path, sha: commit.tree[path]! })),
    };
  },
});
