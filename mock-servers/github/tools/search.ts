import { githubTool, type PageArgs } from "../define.ts";
import { defaultBranchSha, history, readBlob } from "../git.ts";
import { visibleRepos } from "../lookup.ts";
import { paginate, project, sortByKey } from "../paging.ts";
import { arrayOf, commitSchema, object, partial, searchResultSchema, str } from "../schemas.ts";
import {
  compareRange,
  matchesTerms,
  parseSearchQuery,
  qualifiersHold,
  type SearchQuery,
  sortDirection,
} from "../search-query.ts";
import { fullName, type GithubState, type Repo } from "../state.ts";
import { commitView, minimalRepoView, repoUrl } from "../views.ts";

const LANGUAGES: Record<string, string> = {
  ts: "typescript",
  tsx: "typescript",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  py: "python",
  md: "markdown",
  json: "json",
  yml: "yaml",
  yaml: "yaml",
  sh: "shell",
  go: "go",
  lua: "lua",
  css: "css",
  toml: "toml",
  sql: "sql",
};

/** Repositories a search covers: visible, not forks, narrowed by repo:/org:/user: qualifiers. */
function searchedRepos(state: GithubState, query: SearchQuery): Repo[] {
  return visibleRepos(state).filter(
    (repo) =>
      !repo.fork &&
      qualifiersHold(query, "repo", (value) => fullName(repo).toLowerCase() === value.toLowerCase()) &&
      qualifiersHold(query, "org", (value) => repo.owner.toLowerCase() === value.toLowerCase()) &&
      qualifiersHold(query, "user", (value) => repo.owner.toLowerCase() === value.toLowerCase()),
  );
}

/** The first line holding a term, with one line of context each side (a text_matches fragment). */
function fragment(content: string, terms: string[]): string {
  const lines = content.split("\n");
  const at = Math.max(
    0,
    lines.findIndex((line) => terms.some((term) => line.toLowerCase().includes(term))),
  );
  return lines.slice(Math.max(0, at - 1), at + 2).join("\n");
}

const CODE_QUALIFIERS = ["repo", "org", "user", "path", "language", "extension", "filename", "in"];

interface SearchCodeArgs extends PageArgs {
  query: string;
  sort?: string;
  order?: "asc" | "desc";
  fields?: string[];
}

export const searchCode = githubTool<SearchCodeArgs>({
  name: "search_code",
  title: "Search code",
  description:
    "Fast and precise code search across GitHub repositories (default branches) using code search syntax, e.g. 'useAuth language:TypeScript org:acme', 'filename:package.json vite', 'path:src/api repo:acme/webapp'.",
  outputSchema: searchResultSchema(
    partial(
      object({
        name: str,
        path: str,
        sha: str,
        html_url: str,
        repository: object({ full_name: str }, ["full_name"]),
        text_matches: arrayOf(object({ property: str, fragment: str }, ["fragment"])),
      }),
    ),
  ),
  handler: (args, { state }) => {
    const query = parseSearchQuery(args.query, CODE_QUALIFIERS);
    const inPath = query.qualifiers.some((q) => q.key === "in" && q.value.includes("path"));
    const hits = searchedRepos(state, query).flatMap((repo) => {
      const head = defaultBranchSha(repo);
      const tree = head ? repo.commits[head]!.tree : {};
      return Object.entries(tree)
        .filter(([path, sha]) => {
          const name = path.split("/").at(-1)!;
          const extension = name.includes(".") ? name.split(".").at(-1)!.toLowerCase() : "";
          return (
            matchesTerms(inPath ? path : `${path}\n${readBlob(state, sha)}`, query.terms) &&
            qualifiersHold(query, "path", (value) =>
              path.toLowerCase().startsWith(value.toLowerCase().replace(/^\//, "")),
            ) &&
            qualifiersHold(query, "filename", (value) => name.toLowerCase() === value.toLowerCase()) &&
            qualifiersHold(query, "extension", (value) => extension === value.toLowerCase().replace(/^\./, "")) &&
            qualifiersHold(query, "language", (value) => LANGUAGES[extension] === value.toLowerCase())
          );
        })
        .map(([path, sha]) => ({ repo, path, sha }));
    });
    const ordered = args.order === "asc" ? [...hits].reverse() : hits;
    const items = paginate(ordered, args.page, args.perPage).map(({ repo, path, sha }) => ({
      name: path.split("/").at(-1)!,
      path,
      sha,
      html_url: `${repoUrl(repo)}/blob/${repo.default_branch}/${path}`,
      repository: minimalRepoView(repo),
      text_matches: [{ property: "content", fragment: fragment(readBlob(state, sha), query.terms) }],
    }));
    return { total_count: hits.length, incomplete_results: false, items: project(items, args.fields) };
  },
});

const COMMIT_QUALIFIERS = [
  "repo",
  "org",
  "user",
  "author",
  "committer",
  "author-date",
  "committer-date",
  "merge",
  "hash",
];

interface SearchCommitsArgs extends PageArgs {
  query: string;
  sort?: "author-date" | "committer-date";
  order?: "asc" | "desc";
}

export const searchCommits = githubTool<SearchCommitsArgs>({
  name: "search_commits",
  title: "Search commits",
  description:
    "Search commit messages on the default branches of GitHub repositories using commit search syntax, e.g. 'fix login repo:acme/webapp', 'author:bob author-date:>2026-01-01'.",
  outputSchema: searchResultSchema(
    object(
      {
        ...(commitSchema.properties as Record<string, unknown>),
        repository: object({ full_name: str }, ["full_name"]),
      },
      ["sha", "commit", "repository"],
    ),
  ),
  handler: (args, { state }) => {
    const query = parseSearchQuery(args.query, COMMIT_QUALIFIERS);
    const found = searchedRepos(state, query).flatMap((repo) => {
      const head = defaultBranchSha(repo);
      return (head ? history(repo, head) : [])
        .filter(
          (commit) =>
            matchesTerms(commit.message, query.terms) &&
            qualifiersHold(query, "author", (value) => commit.author.toLowerCase() === value.toLowerCase()) &&
            qualifiersHold(query, "committer", (value) => commit.author.toLowerCase() === value.toLowerCase()) &&
            qualifiersHold(query, "author-date", (value) => compareRange(commit.date, value)) &&
            qualifiersHold(query, "committer-date", (value) => compareRange(commit.date, value)) &&
            qualifiersHold(query, "merge", (value) => commit.parents.length > 1 === (value === "true")) &&
            qualifiersHold(query, "hash", (value) => commit.sha.startsWith(value.toLowerCase())),
        )
        .map((commit) => ({ repo, commit }));
    });
    const sorted = sortByKey(found, ({ commit }) => commit.date, sortDirection(args.order));
    return {
      total_count: found.length,
      incomplete_results: false,
      items: paginate(sorted, args.page, args.perPage).map(({ repo, commit }) => ({
        ...commitView(state, repo, commit),
        repository: { full_name: fullName(repo), html_url: repoUrl(repo) },
      })),
    };
  },
});
