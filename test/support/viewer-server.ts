/**
 * The viewer's browser tests: the built pages served by the real server (createApp + listen) over a
 * results folder, with a token, and a headless Chromium to open them in.
 */

import { rmSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { buildView } from "../../scripts/build.ts";
import { createApp, TOKEN_COOKIE } from "../../src/serve/app.ts";
import { benchQueryRunner } from "../../src/serve/query-runner.ts";
import { listen, type RunningServer } from "../../src/serve/server.ts";
import { HarnessService } from "../../src/serve/service.ts";
import { launchChromium } from "../../src/view/chromium.ts";

/** Builds the pages into `work`/view and serves `resultsRoot` with them. */
export async function startViewer(
  work: string,
  resultsRoot: string,
  token: string,
): Promise<{ server: RunningServer; context: BrowserContext }> {
  const viewDir = join(work, "view");
  await buildView(viewDir);
  const app = createApp({
    service: new HarnessService({ resultsRoot }),
    runner: benchQueryRunner(),
    token,
    viewDir,
  });
  const server = await listen(app, { token });
  return { server, context: await launchChromium() };
}

/** Closes the browser and the server (either may not have started) and removes `work`. */
export async function stopViewer(
  viewer: { server: RunningServer | undefined; context: BrowserContext | undefined },
  work: string,
): Promise<void> {
  await viewer.context?.close();
  await viewer.server?.close();
  rmSync(work, { recursive: true, force: true });
}

/** A page that records console errors and any request leaving the server (or one without the token). */
export async function openViewerPage(
  viewer: { server: RunningServer; context: BrowserContext; token: string },
  hash: string,
): Promise<{ page: Page; problems: string[] }> {
  const { server, context, token } = viewer;
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol === "data:") return;
    if (url.origin !== server.url) problems.push(`left the server: ${request.url()}`);
    else if (url.searchParams.has("token")) problems.push(`token in the URL: ${request.url()}`);
    else if (request.resourceType() === "fetch" || request.resourceType() === "eventsource") {
      // the API's requests carry the token in the cookie the page keeps
      void request.headerValue("cookie").then((cookie) => {
        if (!cookie?.includes(`${TOKEN_COOKIE}=${token}`)) problems.push(`no token: ${request.url()}`);
      });
    }
  });
  // the cookie the page keeps once it was given the token (it asks with a prompt on the first 401)
  await context.addCookies([{ name: TOKEN_COOKIE, value: token, url: server.url }]);
  await page.goto(`${server.url}/${hash}`);
  return { page, problems };
}
