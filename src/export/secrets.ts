/**
 * An export never writes a secret: a registry entry or model entry that carries a value where only a
 * variable's NAME belongs is refused before anything is written. What counts as secret-looking: an `env`
 * item `NAME=value`, a field named like a credential (key, token, secret, password, authorization) with a
 * value, an argument `--token=…` / `--api-key …`, credentials in a URL, or a well-known key prefix.
 * Inside a longer string too (an `sh -c` command, an `Authorization: Bearer …` argument): a known key
 * shape anywhere (KNOWN_KEYS: the providers' documented formats, a JWT, a PEM private key), a bearer or
 * basic credential, `NAME=value` or `--flag=value` where the name is a credential's.
 */
import { InlineSecretError } from "./errors.ts";

const SECRET_NAME =
  /(^|[^a-z])(api[-_]?key|apikey|key|token|secret|password|passwd|pass|pwd|authorization|credentials?)([^a-z]|$)|(password|passwd|token|secret)$/i;
const KEY_PREFIX = /^(sk-[A-Za-z0-9]|ghp_|gho_|ghs_|github_pat_|xox[abpr]-|hf_[A-Za-z0-9]|AKIA[0-9A-Z]{12})/;
/** Keys by their documented shapes, found anywhere in a string. */
const KNOWN_KEYS = [
  /\bsk-(proj-)?[A-Za-z0-9_-]{16,}/, // OpenAI
  /\b[sr]k_(live|test)_[A-Za-z0-9]{10,}/, // Stripe
  /\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}/, // GitHub
  /\bglpat-[A-Za-z0-9_-]{20,}/, // GitLab
  /\bxox[abpr]-[A-Za-z0-9-]{10,}/, // Slack
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
export function refuseInlineSecrets(value: unknown, where: string): void {
  const found = findSecret(value, "");
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
