import { ToolError } from "../../kit/errors.ts";
import { githubTool, type RepoArgs } from "../define.ts";
import { newId, sha1, timestamp } from "../ids.ts";
import { requirePermission, requirePull, requireRepo } from "../lookup.ts";
import { headSha, pullCommits, pullFiles } from "../pull-git.ts";
import { bool, object, reviewCommentSchema, reviewSchema, str } from "../schemas.ts";
import {
  addReaction,
  fullName,
  type GithubState,
  type Pull,
  type ReactionContent,
  type Repo,
  type Review,
  type ReviewComment,
} from "../state.ts";
import { issueUrl, reviewCommentView, reviewView } from "../views.ts";

type ReviewEvent = "APPROVE" | "REQUEST_CHANGES" | "COMMENT";

const VERDICT: Record<ReviewEvent, Review["state"]> = {
  APPROVE: "APPROVED",
  REQUEST_CHANGES: "CHANGES_REQUESTED",
  COMMENT: "COMMENTED",
};

function pendingReview(state: GithubState, pull: Pull): Review | undefined {
  return pull.reviews.find((review) => review.state === "PENDING" && review.user === state.viewer);
}

/** GitHub's rules for submitting a verdict: not on your own PR, and a body for change requests and comments. */
function requireSubmittable(state: GithubState, pull: Pull, event: ReviewEvent, body: string): void {
  if (pull.user === state.viewer && event !== "COMMENT") {
    const what = event === "APPROVE" ? "approve" : "request changes on";
    throw new ToolError("unprocessable", `Unprocessable Entity: Can not ${what} your own pull request`);
  }
  if (event !== "APPROVE" && !body.trim()) {
    throw new ToolError("unprocessable", `Unprocessable Entity: a body is required for a ${event} review`);
  }
}

function submit(state: GithubState, pull: Pull, review: Review, event: ReviewEvent, at: string): void {
  review.state = VERDICT[event];
  review.submitted_at = at;
  pull.requested_reviewers = pull.requested_reviewers.filter((login) => login !== state.viewer);
  pull.updated_at = at;
}

interface ReviewWriteArgs extends RepoArgs {
  method: "create" | "submit_pending" | "delete_pending" | "resolve_thread" | "unresolve_thread";
  pullNumber: number;
  body?: string;
  event?: ReviewEvent;
  commitID?: string;
  threadId?: string;
}

const missing = (name: string) => new ToolError("invalid_argument", `missing required parameter: ${name}`);

function createReview(state: GithubState, repo: Repo, pull: Pull, args: ReviewWriteArgs, at: string): Review {
  if (pull.state !== "open")
    throw new ToolError("unprocessable", `Unprocessable Entity: #${pull.number} is closed and cannot be reviewed`);
  if (pendingReview(state, pull)) {
    throw new ToolError(
      "unprocessable",
      "Unprocessable Entity: you already have a pending review on this pull request; submit or delete it first",
    );
  }
  const head = headSha(repo, pull);
  const commit = args.commitID?.toLowerCase() ?? head;
  if (commit !== head && !pullCommits(repo, pull).some((candidate) => candidate.sha === commit)) {
    throw new ToolError(
      "unprocessable",
      `Unprocessable Entity: commit ${args.commitID} is not part of pull request #${pull.number}`,
    );
  }
  const body = args.body ?? "";
  if (args.event) requireSubmittable(state, pull, args.event, body);
  const review: Review = {
    id: newId(state, "review"),
    user: state.viewer,
    state: "PENDING",
    body,
    commit_id: commit,
    submitted_at: null,
  };
  pull.reviews.push(review);
  if (args.event) submit(state, pull, review, args.event, at);
  return review;
}

function requirePending(state: GithubState, pull: Pull): Review {
  const review = pendingReview(state, pull);
  if (!review) {
    throw new ToolError(
      "not_found",
      `Not Found: you have no pending review on #${pull.number}; create one with method "create" and no event`,
    );
  }
  return review;
}

function setThreadResolved(state: GithubState, pull: Pull, args: ReviewWriteArgs, resolved: boolean) {
  if (args.threadId === undefined) throw missing("threadId");
  const thread = pull.threads.find((candidate) => candidate.id === args.threadId);
  if (!thread) {
    throw new ToolError(
      "not_found",
      `Not Found: review thread ${args.threadId} does not exist on #${pull.number} (see pull_request_read method get_review_comments)`,
    );
  }
  thread.resolved = resolved;
  thread.resolved_by = resolved ? state.viewer : null;
  return { id: thread.id, is_resolved: thread.resolved };
}

export const pullRequestReviewWrite = githubTool<ReviewWriteArgs>({
  name: "pull_request_review_write",
  title: "Write operations on pull request reviews",
  description:
    "Create and/or submit, delete a pending review, or resolve/unresolve a review thread of a pull request. method 'create' with event (APPROVE, REQUEST_CHANGES, COMMENT) submits a review at once; without event it starts a pending review. 'submit_pending' and 'delete_pending' act on your pending review; 'resolve_thread'/'unresolve_thread' need threadId.",
  destructive: true,
  outputSchema: object(
    {
      method: str,
      message: str,
      review: reviewSchema,
      thread: object({ id: str, is_resolved: bool }, ["id", "is_resolved"]),
    },
    ["method", "message"],
  ),
  handler: (args, { state, now }) => {
    const repo = requireRepo(state, args.owner, args.repo);
    const pull = requirePull(repo, args.pullNumber);
    requirePermission(state, repo, "pull", "review pull requests");
    const at = timestamp(now);
    const reply = (message: string, extra: Record<string, unknown>) => ({ method: args.method, message, ...extra });
    switch (args.method) {
      case "create": {
        const review = createReview(state, repo, pull, args, at);
        const message = args.event ? `review submitted (${review.state})` : "pending review created";
        return reply(message, { review: reviewView(state, repo, pull, review) });
      }
      case "submit_pending": {
        const review = requirePending(state, pull);
        if (args.event === undefined) throw missing("event");
        const body = args.body ?? review.body;
        requireSubmittable(state, pull, args.event, body);
        review.body = body;
        submit(state, pull, review, args.event, at);
        return reply(`pending review submitted (${review.state})`, { review: reviewView(state, repo, pull, review) });
      }
      case "delete_pending": {
        const review = requirePending(state, pull);
        pull.reviews = pull.reviews.filter((candidate) => candidate !== review);
        for (const thread of pull.threads) thread.comments = thread.comments.filter((c) => c.review_id !== review.id);
        pull.threads = pull.threads.filter((thread) => thread.comments.length > 0);
        return reply("pending review deleted", {});
      }
      case "resolve_thread":
      case "unresolve_thread": {
        const resolved = args.method === "resolve_thread";
        const thread = setThreadResolved(state, pull, args, resolved);
        return reply(resolved ? "thread resolved" : "thread unresolved", { thread });
      }
    }
  },
});

interface PendingCommentArgs extends RepoArgs {
  pullNumber: number;
  path: string;
  body: string;
  subjectType: "FILE" | "LINE";
  line?: number;
  side?: "LEFT" | "RIGHT";
  startLine?: number;
  startSide?: "LEFT" | "RIGHT";
}

export const addCommentToPendingReview = githubTool<PendingCommentArgs>({
  name: "add_comment_to_pending_review",
  title: "Add review comment to the requester's latest pending pull request review",
  description:
    "Add a review comment to the requester's latest pending pull request review. A pending review needs to already exist (pull_request_review_write method 'create' without event). subjectType LINE needs line.",
  destructive: false,
  outputSchema: object({ message: str, thread_id: str, comment: reviewCommentSchema }, [
    "message",
    "thread_id",
    "comment",
  ]),
  handler: (args, { state, now }) => {
    const repo = requireRepo(state, args.owner, args.repo);
    const pull = requirePull(repo, args.pullNumber);
    const review = requirePending(state, pull);
    const files = pullFiles(state, repo, pull).map((file) => file.path);
    if (!files.includes(args.path)) {
      throw new ToolError(
        "unprocessable",
        `Unprocessable Entity: path ${args.path} could not be resolved; files changed in #${pull.number}: ${files.join(", ")}`,
      );
    }
    if (args.subjectType === "LINE" && args.line === undefined) throw missing("line");
    const comment: ReviewComment = {
      id: newId(state, "review_comment"),
      review_id: review.id,
      user: state.viewer,
      body: args.body,
      created_at: timestamp(now),
      in_reply_to_id: null,
      reactions: {},
    };
    const threadId = `PRRT_kwDO${sha1(`${fullName(repo)}:pr${pull.number}:session-thread:${comment.id}`).slice(0, 14)}`;
    pull.threads.push({
      id: threadId,
      path: args.path,
      subject_type: args.subjectType,
      line: args.subjectType === "LINE" ? (args.line ?? null) : null,
      start_line: args.startLine ?? null,
      side: args.side ?? "RIGHT",
      resolved: false,
      resolved_by: null,
      comments: [comment],
    });
    return {
      message: "pending review comment added",
      thread_id: threadId,
      comment: reviewCommentView(state, repo, pull, comment),
    };
  },
});

interface ReplyArgs extends RepoArgs {
  commentId: number;
  pullNumber?: number;
  body?: string;
  reaction?: ReactionContent;
}

export const addReplyToPullRequestComment = githubTool<ReplyArgs>({
  name: "add_reply_to_pull_request_comment",
  title: "Add reply to pull request comment",
  description:
    "Add a reply to an existing pull request review comment (commentId from pull_request_read method get_review_comments), and/or add a reaction to that comment.",
  destructive: false,
  outputSchema: object(
    {
      url: str,
      comment: reviewCommentSchema,
      reaction: object({ content: str, user: str, comment_id: { type: "integer" } }, ["content"]),
    },
    ["url"],
  ),
  handler: (args, { state, now }) => {
    const repo = requireRepo(state, args.owner, args.repo);
    const pulls = args.pullNumber === undefined ? repo.pulls : [requirePull(repo, args.pullNumber)];
    const found = pulls
      .flatMap((pull) => pull.threads.map((thread) => ({ pull, thread })))
      .find(({ thread }) => thread.comments.some((comment) => comment.id === args.commentId));
    if (!found)
      throw new ToolError(
        "not_found",
        `Not Found: review comment ${args.commentId} does not exist in ${fullName(repo)}`,
      );
    if (args.body === undefined && args.reaction === undefined) throw missing("body");
    requirePermission(state, repo, "pull", "reply to review comments");
    const { pull, thread } = found;
    const target = thread.comments.find((comment) => comment.id === args.commentId)!;
    const result: Record<string, unknown> = { url: `${issueUrl(repo, pull)}#discussion_r${target.id}` };
    if (args.body !== undefined) {
      const reply: ReviewComment = {
        id: newId(state, "review_comment"),
        review_id: null,
        user: state.viewer,
        body: args.body,
        created_at: timestamp(now),
        in_reply_to_id: thread.comments[0]!.id,
        reactions: {},
      };
      thread.comments.push(reply);
      pull.updated_at = reply.created_at;
      result.comment = reviewCommentView(state, repo, pull, reply);
    }
    if (args.reaction !== undefined) {
      addReaction(target.reactions, state.viewer, args.reaction);
      result.reaction = { content: args.reaction, user: state.viewer, comment_id: target.id };
    }
    return result;
  },
});
