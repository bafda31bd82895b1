import { openTestServer, type TestServer } from "../kit/testing/index.ts";
import { githubServer } from "./server.ts";
import type { GithubState } from "./state.ts";

export const WEBAPP = { owner: "acme", repo: "webapp" } as const;
export const API = { owner: "acme", repo: "api" } as const;
export const DOCS = { owner: "acme", repo: "docs" } as const;
export const STOREFRONT = { owner: "globex", repo: "storefront" } as const;

// biome-ignore lint/suspicious/noExplicitAny: results are free-form GitHub JSON, read field by field
export type Json = Record<string, any>;

export type GithubTestServer = TestServer<GithubState>;

export const openGithub = (): Promise<GithubTestServer> => openTestServer(githubServer);

/** The text of a tool error, failing the test when the call did not end in one. */
export async function toolError(
  server: GithubTestServer,
  name: string,
  args: Record<string, unknown>,
): Promise<string> {
  const outcome = await server.call(name, args);
  if (outcome.kind !== "tool_error")
    throw new Error(`${name} was expected to fail: ${JSON.stringify(outcome).slice(0, 300)}`);
  return outcome.text;
}

/** The ID (not the number) of an issue, as sub_issue_write wants it. */
export async function issueId(
  server: GithubTestServer,
  repo: typeof WEBAPP | typeof API,
  number: number,
): Promise<number> {
  const data = await server.ok("issue_read", { ...repo, method: "get", issue_number: number });
  return (data as Json).issue.id;
}

/** The blob sha of a file on a ref (what create_or_update_file needs to update it). */
export async function fileSha(
  server: GithubTestServer,
  repo: { owner: string; repo: string },
  path: string,
  ref?: string,
) {
  const data = (await server.ok("get_file_contents", { ...repo, path, ...(ref ? { ref } : {}) })) as Json;
  return data.sha as string;
}
