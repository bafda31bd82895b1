/**
 * Secrets never leave: the values of the environment variables that hold secrets (a model's
 * `api_key_env`, a server's `env`) are replaced by `[redacted:NAME]` wherever data leaves the process —
 * run files, API responses, MCP results, log lines. One function, applied at those exits.
 */

/** Values shorter than this are not treated as secrets: redacting "1" or "true" would shred every text. */
const MIN_SECRET_CHARS = 6;

interface Secret {
  name: string;
  /** The value, and its spelling inside a JSON string when that differs. */
  spellings: string[];
  replacement: string;
}

export class Redactor {
  private readonly secrets: Secret[];
  private readonly needles: Buffer[];

  constructor(secrets: readonly { name: string; value: string }[]) {
    // longest first: a secret that contains another is replaced whole
    this.secrets = [...secrets]
      .filter((secret) => secret.value.length >= MIN_SECRET_CHARS)
      .sort((a, b) => b.value.length - a.value.length)
      .map(({ name, value }) => ({
        name,
        spellings: [...new Set([value, JSON.stringify(value).slice(1, -1)])],
        replacement: `[redacted:${name}]`,
      }));
    this.needles = this.secrets.flatMap((secret) => secret.spellings.map((spelling) => Buffer.from(spelling)));
  }

  /** No secret is set: every method returns its input. */
  get empty(): boolean {
    return this.secrets.length === 0;
  }

  text(text: string): string {
    let out = text;
    for (const secret of this.secrets) {
      for (const spelling of secret.spellings) {
        if (out.includes(spelling)) out = out.split(spelling).join(secret.replacement);
      }
    }
    return out;
  }

  /** A JSON value with every string (keys too) redacted; the same object when nothing needed it. */
  value<T>(value: T): T {
    if (this.empty) return value;
    const json = JSON.stringify(value);
    if (json === undefined) return value;
    const redacted = this.text(json);
    return redacted === json ? value : (JSON.parse(redacted) as T);
  }

  /** Encoded JSON lines: searched as bytes, decoded only when a secret is in them. */
  bytes(lines: Uint8Array): Uint8Array {
    const buffer = Buffer.from(lines.buffer, lines.byteOffset, lines.byteLength);
    if (!this.needles.some((needle) => buffer.includes(needle))) return lines;
    return Buffer.from(this.text(buffer.toString("utf8")));
  }
}

/** A Redactor of the named environment variables' current values (unset and empty ones are no secret). */
export function redactorOf(names: Iterable<string>, env: NodeJS.ProcessEnv = process.env): Redactor {
  const secrets = [...new Set(names)].flatMap((name) => {
    const value = env[name];
    return value ? [{ name, value }] : [];
  });
  return new Redactor(secrets);
}
