/**
 * How a stdio server is started and put back between tasks: its command line with `{fixture}` filled in,
 * a fresh copy of its fixture folder, its reset command; and what of its stderr a failure shows (the
 * tail, with the values of its pass-through variables and anything like a token redacted).
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ServerResetError } from "./errors.ts";
import type { RegistryEntry } from "./registry.ts";
import { FIXTURE_PLACEHOLDER } from "./registry-entry.ts";

export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Values never shown in a message (the pass-through variables' values). */
  secrets: string[];
}

/** The command line of a stdio entry for one start; `fixture` is the fresh copy a `fixture` server runs in. */
export function stdioLaunch(entry: RegistryEntry, baseDir: string, fixture?: string): Launch {
  const fill = (text: string) => (fixture ? text.replaceAll(FIXTURE_PLACEHOLDER, fixture) : text);
  const env: Record<string, string> = { ...getDefaultEnvironment() };
  const secrets: string[] = [];
  const declared = Array.isArray(entry.env)
    ? entry.env.map((name) => [name, null] as const)
    : Object.entries(entry.env ?? {});
  for (const [name, given] of declared) {
    const value = given === null ? process.env[name] : fill(given);
    if (value === undefined) continue;
    env[name] = value;
    if (given === null && value.length >= 4) secrets.push(value);
  }
  return {
    command: programOf(entry.command as string),
    args: (entry.args ?? []).map(fill),
    env,
    cwd: entry.cwd !== undefined ? resolve(baseDir, fill(entry.cwd)) : (fixture ?? baseDir),
    secrets,
  };
}

/** `node` means the running Node binary (the same version as the harness). */
function programOf(command: string): string {
  return command === "node" ? process.execPath : command;
}

/** The command line as a user would type it (the registry's `command`, not the resolved binary). */
export function commandLine(entry: RegistryEntry, launch: Pick<Launch, "args" | "cwd">): string {
  const quote = (part: string) => (/^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part));
  return `${[entry.command as string, ...launch.args].map(quote).join(" ")} (in ${launch.cwd})`;
}

/** A fresh copy of a `fixture` server's folder, in a new temporary folder; the caller removes it. */
export function copyFixture(entry: RegistryEntry, baseDir: string): string {
  const copy = mkdtempSync(join(tmpdir(), `onsetlab-fixture-${entry.name}-`));
  cpSync(resolve(baseDir, entry.fixture_dir as string), copy, { recursive: true });
  return copy;
}

export function removeFixture(copy: string): void {
  rmSync(copy, { recursive: true, force: true });
}

const RESET_TIMEOUT_MS = 60_000;

/** Runs a `command` server's `reset_command` in its registry's folder; anything but exit 0 is a run error. */
export async function runResetCommand(entry: RegistryEntry, baseDir: string): Promise<void> {
  const [program, ...args] = entry.reset_command as string[];
  await new Promise<void>((done, fail) => {
    execFile(
      programOf(program as string),
      args,
      { cwd: baseDir, timeout: RESET_TIMEOUT_MS, env: { ...process.env } },
      (error, _stdout, stderr) => {
        if (!error) return done();
        // one line: the run's message names the first failed task with it
        const said = redact(stderr.trim().split("\n").at(-1) ?? "", []);
        const how = typeof error.code === "number" ? `exited with code ${error.code}` : error.message.split("\n")[0];
        fail(
          new ServerResetError(
            "SERVER_RESET_FAILED",
            `server "${entry.name}": its reset_command ${JSON.stringify(entry.reset_command)} ${how}${said ? `: ${said}` : ""}`,
            { cause: error, context: { server: entry.name } },
          ),
        );
      },
    );
  });
}

/** The last lines a server wrote to stderr (at most MAX_LINES, each cut at 500 characters). */
export class StderrTail {
  static readonly MAX_LINES = 40;
  private text = "";

  append(chunk: string): void {
    this.text = tailLines(this.text + chunk, StderrTail.MAX_LINES + 1, false);
  }

  lines(secrets: readonly string[]): string {
    return redact(tailLines(this.text, StderrTail.MAX_LINES), secrets);
  }
}

function tailLines(text: string, count: number, trim = true): string {
  const lines = (trim ? text.trimEnd() : text).split("\n").slice(-count);
  return lines.map((line) => (line.length > 500 ? `${line.slice(0, 500)}…` : line)).join("\n");
}

/** Token-like words: well-known key prefixes, bearer tokens, `key=value` of secret-sounding names, long opaque strings. */
const TOKEN_PATTERNS = [
  /\b(?:sk|pk|rk|ghp|gho|ghu|ghs|ghr|github_pat|glpat|xox[abprs]|hf|AKIA)[-_][A-Za-z0-9_-]{8,}/g,
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b([A-Za-z_]*(?:token|secret|password|passwd|api[_-]?key|auth)[A-Za-z_]*\s*[=:]\s*)["']?[^\s"',;]{4,}/gi,
  /\b(?=[\w+-]*\d)(?=[\w+-]*[A-Za-z])[\w+-]{32,}={0,2}/g,
];

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.replaceAll(secret, "[redacted]");
  for (const pattern of TOKEN_PATTERNS) {
    out = out.replace(pattern, (match, prefix?: string) =>
      typeof prefix === "string" && match.startsWith(prefix) && prefix.length < match.length
        ? `${prefix}${/^(bearer|basic)$/i.test(prefix) ? " " : ""}[redacted]`
        : "[redacted]",
    );
  }
  return out;
}

export function indent(lines: string): string {
  return lines
    .split("\n")
    .map((line) => `  | ${line}`)
    .join("\n");
}
