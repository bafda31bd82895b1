import { githubTool, type PageArgs, type RepoArgs } from "../define.ts";
import { gitDiffSection } from "../diff.ts";
import { type IssueSearchArgs, searchIssueLike } from "../issue-search.ts";
import { requirePull, requireRepo } from "../lookup.ts";
import { decodeCursor, encodeCursor, paginate, project, sortByKey } from "../paging.ts";
import { combinedState, headSha, pullCommits, pullFiles } from "../pull-git.ts";
import {
  arrayOf,
  commentSchema,
  commitSchema,
  fileChangeSchema,
  int,
  issueSchema,
  nullable,
  object,
  pageInfoSchema,
  partial,
  pullSchema,
  reviewSchema,
  searchResultSchema,
  str,
  threadSchema,
} from "../schemas.ts";
import type { GithubState, Pull, Repo } from "../state.ts";
import { commentView, commitView, pullView, reviewView, threadView } from "../views.ts";

interface ListPullsArgs extends RepoArgs, PageArgs {
  state?: "open" | "closed" | "all";
  head?: string;
  base?: string;
  sort?: "created" | "updated" | "popularity" | "long-running";
  direction?: "asc" | "desc";
  fields?: string[];
}

/** `head` is "user:ref-name" in the REST API; a bare branch name is accepted too. */
function headMatches(repo: Repo, pull: Pull, head: string): boolean {
  const [owner, ref] = head.includes(":") ? head.split(":", 2) : [repo.owner, head];
  return owner?.toLowerCase() === repo.owner.toLowerCase() && pull.head.ref === ref;
}

export const listPullRequests = githubTool<ListPullsArgs>({
  name: "list_pull_requests",
  title: "List pull requests",
  description:
    "List pull requests in a GitHub repository. If the user specifies an author, then DO NOT use this tool and use the search_pull_requests tool instead. state: open (default), closed or all.",
  outputSchema: object({ pull_requests: arrayOf(partial(pullSchema)), total_count: int }, [
    "pull_requests",
    "total_count",
  ]),
  handler: (args, { state }) => {
    const repo = requireRepo(state, args.owner, args.repo);
    const wanted = args.state ?? "open";
    const found = repo.pulls.filter(
      (pull) =>
        (wanted === "all" || pull.state === wanted) &&
        (args.head === undefined || headMatches(repo, pull, args.head)) &&
        (args.base === undefined || pull.base.ref === args.base),
    );
    const sort = args.sort ?? "created";
    const key = (pull: Pull) =>
      sort === "updated" ? pull.updated_at : sort === "popularity" ? pull.comments.length : pull.created_at;
    // long-running: the oldest open PRs first unless told otherwise, as GitHub sorts them.
    const direction = args.direction ? (args.direction === "asc" ? 1 : -1) : sort === "long-running" ? 1 : -1;
    const page = paginate(sortByKey(found, key, direction), args.page, args.perPage);
    return {
      pull_requests: project(
        page.map((pull) => pullView(state, repo, pull)),
        args.fields,
      ),
      total_count: found.length,
    };
  },
});

type PullReadMethod =
  | "get"
  | "get_diff"
  | "get_status"
  | "get_files"
  | "get_commits"
  | "get_review_comments"
  | "get_reviews"
  | "get_comments"
  | "get_check_runs";

interface PullReadArgs extends RepoArgs, PageArgs {
  method: PullReadMethod;
  pullNumber: number;
  after?: string;
}

function fileEntries(state: GithubState, repo: Repo, pull: Pull) {
  return pullFiles(state, repo, pull).map((file) => ({
    filename: file.path,
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    changes: file.additions + file.deletions,
    patch: file.patch,
    sha: file.after,
  }));
}

function diffText(state: GithubState, repo: Repo, pull: Pull): string {
  return pullFiles(state, repo, pull)
    .map((file) =>
      gitDiffSection({
        path: file.path,
        status: file.status,
        beforeSha: file.before,
        afterSha: file.after,
        patch: file.patch,
      }),
    )
    .join("\n");
}

function statusOf(repo: Repo, pull: Pull) {
  return {
    state: combinedState(pull),
    sha: headSha(repo, pull),
    total_count: pull.checks.length,
    statuses: pull.checks.map((check) => ({
      context: check.name,
      state: check.status !== "completed" ? "pending" : check.conclusion === "failure" ? "failure" : "success",
      description:
        check.status === "completed" ? `${check.name}: ${check.conclusion}` : `${check.name}: ${check.status}`,
    })),
  };
}

function threadsPage(state: GithubState, repo: Repo, pull: Pull, args: PullReadArgs) {
  const offset = args.after === undefined ? 0 : decodeCursor(args.after);
  const size = args.perPage ?? 30;
  const threads = pull.threads.slice(offset, offset + size).map((thread) => threadView(state, repo, pull, thread));
  const end = offset + threads.length;
  return {
    review_threads: threads,
    total_count: pull.threads.length,
    pageInfo: {
      hasNextPage: end < pull.threads.length,
      hasPreviousPage: offset > 0,
      startCursor: threads.length > 0 ? encodeCursor(offset) : null,
      endCursor: threads.length > 0 ? encodeCursor(end) : null,
    },
  };
}

function readPull(state: GithubState, repo: Repo, pull: Pull, args: PullReadArgs): Record<string, unknown> {
  const page = <T>(items: T[]) => paginate(items, args.page, args.perPage);
  switch (args.method) {
    case "get":
      return { pull_request: pullView(state, repo, pull) };
    case "get_diff":
      return { diff: diffText(state, repo, pull) };
    case "get_status":
      return { status: statusOf(repo, pull) };
    case "get_files": {
      const files = fileEntries(state, repo, pull);
      return { files: page(files), total_count: files.length };
    }
    case "get_commits": {
      const commits = pullCommits(repo, pull);
      return { commits: page(commits).map((commit) => commitView(state, repo, commit)), total_count: commits.length };
    }
    case "get_review_comments":
      return threadsPage(state, repo, pull, args);
    case "get_reviews": {
      const reviews = pull.reviews.filter((review) => review.state !== "PENDING" || review.user === state.viewer);
      return {
        reviews: page(reviews).map((review) => reviewView(state, repo, pull, review)),
        total_count: reviews.length,
      };
    }
    case "get_comments":
      return {
        comments: page(pull.comments).map((comment) => commentView(state, repo, pull, comment)),
        total_count: pull.comments.length,
      };
    case "get_check_runs":
      return {
        check_runs: page(pull.checks).map((check) => ({ ...check, head_sha: headSha(repo, pull) })),
        total_count: pull.checks.length,
      };
  }
}

const checkRunSchema = object(
  {
    id: int,
    name: str,
    status: str,
    conclusion: nullable(str),
    started_at: str,
    completed_at: nullable(str),
    head_sha: str,
  },
  ["id", "name", "status"],
);

export const pullRequestRead = githubTool<PullReadArgs>({
  name: "pull_request_read",
  title: "Get details for a single pull request",
  description:
    "Get information on a specific pull request in a GitHub repository. method: 'get' (details), 'get_diff', 'get_status' (combined commit status of the head), 'get_files', 'get_commits', 'get_review_comments' (review threads), 'get_reviews', 'get_comments' or 'get_check_runs'.",
  outputSchema: object(
    {
      method: str,
      pull_request: pullSchema,
      diff: str,
      status: object(
        {
          state: str,
          sha: str,
          total_count: int,
          statuses: arrayOf(object({ context: str, state: str, description: str }, ["context", "state"])),
        },
        ["state", "sha"],
      ),
      files: arrayOf(fileChangeSchema),
      commits: arrayOf(commitSchema),
      review_threads: arrayOf(threadSchema),
      reviews: arrayOf(reviewSchema),
      comments: arrayOf(commentSchema),
      check_runs: arrayOf(checkRunSchema),
      total_count: int,
      pageInfo: pageInfoSchema,
    },
    ["method"],
  ),
  handler: (args, { state }) => {
    const repo = requireRepo(state, args.owner, args.repo);
    const pull = requirePull(repo, args.pullNumber);
    return { method: args.method, ...readPull(state, repo, pull, args) };
  },
});

export const searchPullRequests = githubTool<IssueSearchArgs>({
  name: "search_pull_requests",
  title: "Search pull requests",
  description:
    "Search for pull requests in GitHub repositories using issues search syntax already scoped to is:pr (e.g. 'author:bob is:merged repo:acme/webapp'). owner and repo narrow the search to one repository.",
  outputSchema: searchResultSchema(partial(issueSchema)),
  handler: (args, { state }) => searchIssueLike(state, "pr", args),
});
