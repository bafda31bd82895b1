/**
 * Which model names the stand-in serves. By default any name (every one answered by the same provider,
 * with tool support); given a list, only those — other names get Ollama's 404, and a model listed
 * without tools gets its 400 for a tools request, so clients' error paths can be tested for real.
 */

export interface ServedModel {
  name: string;
  /** Reports the "tools" capability and accepts `tools`. Default true. */
  tools?: boolean;
}

/** How long a model stays in /api/ps after its last request (Ollama's default keep_alive). */
const KEEP_ALIVE_MS = 5 * 60 * 1000;

export class ServedModels {
  private readonly listed: Map<string, ServedModel> | undefined;
  private readonly lastUsed = new Map<string, number>();

  constructor(
    models: readonly ServedModel[] | undefined,
    /** Listed by /api/tags when any name is served. */
    private readonly label: string,
  ) {
    this.listed = models ? new Map(models.map((model) => [withTag(model.name), model])) : undefined;
  }

  /** The model, or undefined when a restricted stand-in does not have it. */
  find(name: string): ServedModel | undefined {
    if (!this.listed) return { name, tools: true };
    return this.listed.get(withTag(name));
  }

  supportsTools(model: ServedModel): boolean {
    return model.tools !== false;
  }

  touch(name: string): void {
    this.lastUsed.set(name, Date.now());
  }

  names(): string[] {
    if (this.listed) return [...this.listed.values()].map((model) => model.name);
    return [...new Set([this.label, ...this.lastUsed.keys()])];
  }

  /** Models used within the keep-alive window, with when they expire. */
  running(): { name: string; expiresAt: Date }[] {
    const now = Date.now();
    return [...this.lastUsed]
      .filter(([, used]) => now - used < KEEP_ALIVE_MS)
      .map(([name, used]) => ({ name, expiresAt: new Date(used + KEEP_ALIVE_MS) }));
  }
}

/** Ollama's default tag: `qwen2.5` means `qwen2.5:latest`. */
function withTag(name: string): string {
  return name.includes(":") ? name : `${name}:latest`;
}
