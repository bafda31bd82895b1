/**
 * An export never writes a secret: a registry entry or model entry that carries a value where only a
 * variable's NAME belongs is refused before anything is written. Two layers:
 * - where a value sits: an `env` item `NAME=value`, a field named like a credential (key, token, secret,
 *   password, authorization) with a value, an argument `--token=…` / `--api-key …`, credentials in a
 *   URL, a well-known key prefix; inside a longer string (an `sh -c` command, an `Authorization: Bearer …`
 *   argument) a bearer or basic credential, `NAME=value` or `--flag=value` where the name is a credential's;
 * - what a value is: every string goes through secretlint's recommended rule preset, a maintained set of
 *   providers' key formats (AWS, GCP, GitHub, GitLab, Slack, npm, SendGrid, OpenAI, Anthropic, Hugging
 *   Face, database URLs, private keys, … about 25), so a new provider's format comes with an upgrade
 *   rather than from our own list. Pinned at 12.0.0 with @secretlint/core 12.0.0: the last release that
 *   runs on Node 20 (12.1 and 13 need Node 22). KNOWN_KEYS keeps only shapes the preset does not find: a
 *   Stripe key, a Google API key, a JWT, a private key's header alone, an AWS key id, and short forms of
 *   OpenAI and Hugging Face keys (the preset wants their full documented length).
 */
import { performance } from "node:perf_hooks";
import { setImmediate as nextTurn } from "node:timers/promises";
import { lintSource } from "@secretlint/core";
import { secretLintProfiler } from "@secretlint/profiler";
import { creator as recommendedRules } from "@secretlint/secretlint-rule-preset-recommend";
import { InlineSecretError } from "./errors.ts";

const SECRET_NAME =
  /(^|[^a-z])(api[-_]?key|apikey|key|token|secret|password|passwd|pass|pwd|authorization|credentials?)([^a-z]|$)|(password|passwd|token|secret)$/i;
const KEY_PREFIX = /^(sk-[A-Za-z0-9]|ghp_|gho_|ghs_|github_pat_|xox[abpr]-|hf_[A-Za-z0-9]|AKIA[0-9A-Z]{12})/;
/** Keys by their documented shapes, found anywhere in a string: those secretlint's preset misses. */
const KNOWN_KEYS = [
  /\bsk-(proj-)?[A-Za-z0-9_-]{16,}/, // OpenAI
  /\b[sr]k_(live|test)_[A-Za-z0-9]{10,}/, // Stripe
  /\bhf_[A-Za-z0-9]{20,}/, // Hugging Face
  /\b(AKIA|ASIA)[0-9A-Z]{16}\b/, // AWS
  /\bAIza[0-9A-Za-z_-]{35}/, // Google
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/, // a JWT
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
];
/** A credential inside a longer string: `Bearer x`, `NAME_TOKEN=x`, `--password=x` (a `$VARIABLE` value is a name). */
const EMBEDDED_SECRET = [
  /\b(Bearer|Basic)\s+(?!\$)[A-Za-z0-9._~+/-]{6,}=*/i,
  /\b[A-Za-z0-9_]*(PASSWORD|PASSWD|PASS|PWD|TOKEN|SECRET|API_?KEY)=(?![$\s'"]*\$)['"]?[^\s'"$]+/i,
  /(^|\s)--?[a-z0-9-]*(token|key|secret|password)[a-z0-9-]*[= ](?![-$'"]|\s)\S+/i,
];
const SECRET_FLAG = /^--?[a-z0-9-]*(token|key|secret|password)[a-z0-9-]*$/i;

/** Throws InlineSecretError naming `where` (e.g. `--registry FILE: servers[2] (slack)`) and the field. */
export async function refuseInlineSecrets(value: unknown, where: string): Promise<void> {
  const found = findSecret(value, "") ?? (await secretlintFinding(value));
  if (found) {
    throw new InlineSecretError(
      "INLINE_SECRET",
      `${where}: ${found} looks like a secret value; list only the environment variable's NAME (env: ["NAME"] or {"NAME": null}; api_key_env: NAME) and set it where the agent runs — nothing was written`,
      { context: { where, field: found } },
    );
  }
}

function findSecret(value: unknown, path: string): string | undefined {
  if (typeof value === "string") return stringSecret(value, path);
  if (Array.isArray(value)) {
    if (path.endsWith("env")) {
      const index = value.findIndex((item) => typeof item === "string" && item.includes("="));
      if (index >= 0) return `${path}[${index}] "${String(value[index]).split("=")[0]}=…"`;
    }
    if (path.endsWith("args")) {
      const index = value.findIndex(
        (item, at) =>
          typeof item === "string" &&
          ((/^--?[a-z0-9-]*(token|key|secret|password)[a-z0-9-]*=./i.test(item) && !item.includes("$")) ||
            (SECRET_FLAG.test(item) && typeof value[at + 1] === "string" && !String(value[at + 1]).startsWith("-"))),
      );
      if (index >= 0) return `${path}[${index}] (${String(value[index]).split("=")[0]} with a value)`;
    }
    for (const [index, item] of value.entries()) {
      const found = findSecret(item, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      // a field that names a variable (api_key_env, apiKeyEnv) holds a name, not a value
      // camelCase read as words (accessToken → access_Token)
      const words = key.replace(/([a-z])([A-Z])/g, "$1_$2");
      if (SECRET_NAME.test(words) && !/env$/i.test(key) && typeof item === "string" && item !== "") return at;
      const found = findSecret(item, at);
      if (found) return found;
    }
  }
  return undefined;
}

function stringSecret(value: string, path: string): string | undefined {
  if (KEY_PREFIX.test(value)) return path || "a value";
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/@\s]+:[^/@\s]+@/i.test(value)) return `${path} (a URL with a password)`;
  if (/[?&](api[-_]?key|token|access_token|key)=[^&\s]+/i.test(value)) return `${path} (a URL with a key)`;
  if (KNOWN_KEYS.some((shape) => shape.test(value))) return `${path} (a key inside it)`;
  if (EMBEDDED_SECRET.some((shape) => shape.test(value))) return `${path} (a credential inside it)`;
  return undefined;
}

/** Every string in the value with its path (`args[1]`, `env.TOKEN`). */
function stringsOf(value: unknown, path: string): [string, string][] {
  if (typeof value === "string") return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringsOf(item, `${path}[${index}]`));
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => stringsOf(item, path ? `${path}.${key}` : key));
  }
  return [];
}

const SECRETLINT_CONFIG = { rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: recommendedRules }] };

/** The first string secretlint's preset finds a secret in, as `path (a key inside it: rule)`. */
async function secretlintFinding(value: unknown): Promise<string | undefined> {
  for (const [path, content] of stringsOf(value, "")) {
    const { messages } = await lintSource({
      source: { filePath: "value.txt", content, contentType: "text" },
      options: { config: SECRETLINT_CONFIG },
    });
    await forgetSecretlintProfile();
    const rule = messages[0]?.ruleId.replace("@secretlint/secretlint-rule-", "");
    if (rule) return `${path || "a value"} (a key inside it: ${rule})`;
  }
  return undefined;
}

/**
 * @secretlint/core 12 marks each rule of each lint on one profiler per process, whose performance observer
 * scans every mark it kept so far at each new one (secretlint issues #1633, #1653; opt-in from 13, which
 * needs Node 22), and Node keeps every mark and measure in its timeline: ~10,000 marks and 2.8 MB an export,
 * so in a long-lived process (the tests' in-process CLI) each export got seconds slower than the one
 * before. The marks serve `secretlint --profile` only: dropped after each lint, from both.
 */
async function forgetSecretlintProfile(): Promise<void> {
  await nextTurn(); // the observer hears of this lint's marks on the next turn, and queues its measures
  // getEntries waits for those measures; both hand back the profiler's own arrays
  const marks = await secretLintProfiler.getEntries();
  for (const { name } of marks.filter((mark) => mark.name.startsWith("@core>"))) {
    performance.clearMarks(name);
    performance.clearMeasures(name.replace(/::(start|end)/, "")); // the measure from `X::start` to `X::end` is `X`
  }
  marks.length = 0;
  (await secretLintProfiler.getMeasures()).length = 0;
}
