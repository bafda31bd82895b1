import type { ServerSpec } from "../kit/types.ts";
import { githubChecks } from "./checks.ts";
import { createGithubState } from "./seed.ts";
import type { GithubState } from "./state.ts";
import { getMe, getTeamMembers, getTeams, searchUsers } from "./tools/context.ts";
import { createOrUpdateFile, deleteFile, getFileContents, pushFiles } from "./tools/files.ts";
import { getLabel, issueRead, listIssueFields, listIssues, listIssueTypes, searchIssues } from "./tools/issues-read.ts";
import { addIssueComment, issueWrite, subIssueWrite } from "./tools/issues-write.ts";
import { listPullRequests, pullRequestRead, searchPullRequests } from "./tools/pulls-read.ts";
import {
  createPullRequest,
  mergePullRequest,
  updatePullRequest,
  updatePullRequestBranch,
} from "./tools/pulls-write.ts";
import {
  createBranch,
  getCommit,
  getLatestRelease,
  getReleaseByTag,
  getTag,
  listBranches,
  listCommits,
  listReleases,
  listTags,
} from "./tools/refs.ts";
import {
  createRepository,
  deleteRepository,
  forkRepository,
  listRepositoryCollaborators,
  searchRepositories,
} from "./tools/repos.ts";
import { addCommentToPendingReview, addReplyToPullRequestComment, pullRequestReviewWrite } from "./tools/reviews.ts";
import { searchCode, searchCommits } from "./tools/search.ts";

/** The official GitHub MCP server's default surface (43 tools: context, repos, issues, pull_requests, users). */
export const githubServer: ServerSpec<GithubState> = {
  name: "github",
  version: "1.0.0",
  purpose:
    "Imitates the official GitHub MCP server (github/github-mcp-server, default toolsets) over orgs acme and globex and user alice's repositories: issues, pull requests, reviews, branches, commits, files, releases, search; the token belongs to alice.",
  createState: createGithubState,
  tools: [
    // context
    getMe,
    getTeams,
    getTeamMembers,
    // repos
    getFileContents,
    createOrUpdateFile,
    deleteFile,
    pushFiles,
    createBranch,
    listBranches,
    listCommits,
    getCommit,
    listTags,
    getTag,
    listReleases,
    getLatestRelease,
    getReleaseByTag,
    createRepository,
    forkRepository,
    deleteRepository,
    listRepositoryCollaborators,
    searchRepositories,
    searchCode,
    searchCommits,
    // issues
    listIssues,
    issueRead,
    issueWrite,
    addIssueComment,
    subIssueWrite,
    searchIssues,
    getLabel,
    listIssueTypes,
    listIssueFields,
    // pull requests
    listPullRequests,
    pullRequestRead,
    createPullRequest,
    updatePullRequest,
    mergePullRequest,
    updatePullRequestBranch,
    pullRequestReviewWrite,
    addCommentToPendingReview,
    addReplyToPullRequestComment,
    searchPullRequests,
    // users
    searchUsers,
  ],
  checks: githubChecks,
};
