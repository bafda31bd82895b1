/**
 * What every local server checks before any route (the service and viewer, `mcp --http`): a page in
 * the user's browser must not reach it. A site rebound to 127.0.0.1 (DNS rebinding) sends its own name
 * as `Host`; a cross-site page sends its `Origin` (and `Sec-Fetch-Site`); a `text/plain` body is a
 * "simple" request that skips the browser's CORS preflight. So:
 * - `Host` must name the listening address (or a name given at start), else 403;
 * - an `Origin` must be the server's own (same scheme-less host and port as `Host`), else 403;
 *   `Sec-Fetch-Site: cross-site` / `same-site` too;
 * - a request body must be JSON (415) and at most `maxBodyBytes` (413; 1 MB by default).
 * Routes, static files and event streams all sit behind it.
 */
import { networkInterfaces } from "node:os";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError, errorBody } from "./errors.ts";

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1"];
const WILDCARDS = new Set(["0.0.0.0", "::"]);

export interface GuardOptions {
  /** The address listened on. */
  host: string;
  /** More names the `Host` header may carry (e.g. a name in /etc/hosts for this machine). */
  allowHosts?: readonly string[];
  maxBodyBytes?: number;
}

/** The host names a request's `Host` may carry: the listening address's own names, and those given. */
export function allowedHostNames(options: GuardOptions): Set<string> {
  const names = new Set([options.host, ...(options.allowHosts ?? [])].map(bare));
  if (LOOPBACK_NAMES.includes(bare(options.host)) || WILDCARDS.has(options.host)) {
    for (const name of LOOPBACK_NAMES) names.add(name);
  }
  // a wildcard listens on every interface: each interface's address names it
  if (WILDCARDS.has(options.host)) {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) names.add(bare(address.address));
    }
  }
  return names;
}

/** A host name without brackets, lower case (`[::1]` → `::1`). */
function bare(name: string): string {
  return name.replace(/^\[(.*)\]$/, "$1").toLowerCase();
}

/** The host name of a `Host` value (`host:port`, `[v6]:port`). */
function hostNameOf(host: string): string {
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(host);
  if (v6) return v6[1]!.toLowerCase();
  return host.replace(/:\d+$/, "").toLowerCase();
}

/** A refusal closes its connection: the body it did not read would otherwise be read as the next request. */
function refuse(c: Context, status: 403 | 413 | 415, code: string, message: string): Response {
  return c.json(errorBody(new ApiError(status, code, message)).body, status, { connection: "close" });
}

/** Why a request is refused before any route, or undefined. */
function refusal(c: Context, hosts: ReadonlySet<string>): Response | undefined {
  const host = c.req.header("host") ?? "";
  if (!hosts.has(hostNameOf(host))) {
    return refuse(c, 403, "FORBIDDEN_HOST", `Host "${host}" does not name this server`);
  }
  const origin = c.req.header("origin");
  if (origin !== undefined) {
    let same = false;
    try {
      same = new URL(origin).host.toLowerCase() === host.toLowerCase();
    } catch {
      same = false;
    }
    if (!same) return refuse(c, 403, "FORBIDDEN_ORIGIN", `requests from ${origin} are refused (another site)`);
  }
  const site = c.req.header("sec-fetch-site");
  if (site === "cross-site" || site === "same-site") {
    return refuse(c, 403, "FORBIDDEN_ORIGIN", `requests from another site are refused (Sec-Fetch-Site: ${site})`);
  }
  const hasBody = c.req.header("content-length") !== undefined || c.req.header("transfer-encoding") !== undefined;
  const type = c.req.header("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (hasBody && c.req.header("content-length") !== "0" && !/^application\/([\w.-]+\+)?json$/.test(type)) {
    return refuse(c, 415, "JSON_ONLY", `a request body must be JSON (Content-Type: application/json), not "${type}"`);
  }
  return undefined;
}

/** `app` behind the checks above. */
export function guarded(app: Hono, options: GuardOptions): Hono {
  const hosts = allowedHostNames(options);
  const maxSize = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const outer = new Hono();
  outer.use("*", async (c, next) => {
    const refused = refusal(c, hosts);
    if (refused) return refused;
    await next();
  });
  outer.use(
    "*",
    bodyLimit({
      maxSize,
      onError: (c) =>
        refuse(c, 413, "BODY_TOO_LARGE", `the request body is over ${maxSize} bytes (a server flag raises the limit)`),
    }),
  );
  outer.all("*", (c) => app.fetch(c.req.raw, c.env));
  return outer;
}
