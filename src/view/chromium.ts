/**
 * A real Chromium for the browser tests and the page timing (`perf view-page`), never downloaded:
 * `CHROMIUM_PATH`, the system package (Debian's `chromium`, which `.ci/run` installs, or Ubuntu's
 * `chromium-browser`), or a browser already in playwright's cache. Without one the browser tests are
 * skipped, and say so loudly.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

function cachedChromium(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

export const CHROMIUM = [
  process.env.CHROMIUM_PATH,
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  cachedChromium(),
].find((path): path is string => path !== undefined && path !== "" && existsSync(path));

/** Warns (once per test file) that `what` is skipped, and returns whether it is. */
export function skipWithoutChromium(what: string): boolean {
  if (!CHROMIUM) {
    console.warn(
      `\n⚠ ${what} SKIPPED: no Chromium found (CHROMIUM_PATH, /usr/bin/chromium, /usr/bin/chromium-browser, ` +
        "playwright's cache). `.ci/run` installs Debian's chromium; the tests never install anything.\n",
    );
  }
  return !CHROMIUM;
}

/** Headless Chromium in a throwaway profile, kept off the network (only 127.0.0.1 and files are reached). */
export function launchChromium(): Promise<BrowserContext> {
  if (!CHROMIUM) throw new Error("no Chromium: check skipWithoutChromium first");
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "chromium-profile-")), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
