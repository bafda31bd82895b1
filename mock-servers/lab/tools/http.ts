import { ToolError } from "../../kit/errors.ts";
import type { ToolSpec } from "../../kit/types.ts";
import httpFixture from "../fixtures/http.json" with { type: "json" };
import type { LabState } from "../state.ts";

interface FixtureResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Parses an http(s) URL into its canonical form (lower-case host, "/" path for a bare host, encoded query). */
function canonicalUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new ToolError("invalid_url", `"${input}" is not a valid absolute URL, e.g. https://api.acme.dev/v1/status`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ToolError("invalid_url", `Unsupported scheme "${url.protocol}" in ${input}; only http and https`);
  }
  url.hash = "";
  return url.href;
}

/** The canned responses, keyed by canonical URL (never the network). */
const ROUTES = new Map<string, FixtureResponse>(
  Object.entries(httpFixture as Record<string, FixtureResponse>).map(([url, response]) => [
    canonicalUrl(url),
    response,
  ]),
);

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  301: "Moved Permanently",
  401: "Unauthorized",
  404: "Not Found",
  503: "Service Unavailable",
};

export const httpGetTool: ToolSpec<LabState> = {
  name: "http_get",
  description:
    "Fetch a URL with HTTP GET and return the status, headers and body text (redirects are not followed; JSON " +
    "bodies come back as text).",
  inputSchema: {
    type: "object",
    properties: {
      url: { type: "string", description: "Absolute http(s) URL, e.g. 'https://api.acme.dev/v1/status'." },
    },
    required: ["url"],
  },
  outputSchema: {
    type: "object",
    properties: {
      url: { type: "string" },
      status: { type: "integer" },
      status_text: { type: "string" },
      ok: { type: "boolean", description: "True for a 2xx status." },
      headers: { type: "object", additionalProperties: { type: "string" } },
      body: { type: "string" },
    },
    required: ["url", "status", "ok", "headers", "body"],
    additionalProperties: false,
  },
  annotations: { title: "HTTP GET", readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  handler: (args) => {
    const url = canonicalUrl(String(args.url));
    const response: FixtureResponse = ROUTES.get(url) ?? {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8" },
      body: `404 Not Found: ${url}\n`,
    };
    return {
      url,
      status: response.status,
      status_text: STATUS_TEXT[response.status] ?? "",
      ok: response.status >= 200 && response.status < 300,
      headers: { ...response.headers },
      body: response.body,
    };
  },
};
