/** A few DOM helpers: the pages build their elements with `el` (no framework; the app is small). */
import { href } from "./route.ts";

export type Child = Node | string | number | null | undefined | false | Child[];

type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/** `el("a", { href: "#/runs" }, "runs")`: attributes (`on…` are listeners, false/null leave it out), then children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === "function") node.addEventListener(name.slice(2), value);
    else if (value === true) node.setAttribute(name, "");
    else node.setAttribute(name, String(value));
  }
  append(node, children);
  return node;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces the element's content. */
export function mount(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** JSON as people read it (two-space indent); strings stay as they are. */
export function jsonText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

/** A <pre> with a copy button: prompts, outputs and tool results. */
export function copyable(text: string, label: string): HTMLElement {
  const button = el("button", { class: "copy", type: "button", title: `copy ${label}` }, "copy");
  button.addEventListener("click", () => {
    void navigator.clipboard?.writeText(text).then(() => {
      button.textContent = "copied";
    });
  });
  return el("div", { class: "copyable" }, button, el("pre", { "data-copy": label }, text));
}

export function badge(text: string, kind: string): HTMLElement {
  return el("span", { class: `badge badge-${kind}` }, text);
}

/** "2026-11-25 09:23" in the reader's time zone. */
export function whenText(iso: string | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * A table with one header row: the pages' lists (runs, items, checks, comparisons), in a box it scrolls
 * in when it is wider than the page (the report's tables' box, TABLE_STYLE).
 */
export function dataTable(id: string, headers: readonly string[], rows: Child[]): HTMLElement {
  const table = el(
    "table",
    { id, class: "list" },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        headers.map((header) => el("th", {}, header)),
      ),
    ),
    el("tbody", {}, rows),
  );
  return el("div", { class: "table-wrap" }, table);
}

/** "Runs / RUN / …": the way back, every part but the last a link. */
export function crumbs(runId: string, ...last: Child[]): HTMLElement {
  return el(
    "p",
    { class: "crumbs" },
    el("a", { href: href(["runs"]) }, "Runs"),
    " / ",
    last.length > 0 ? [el("a", { href: href(["runs", runId]) }, runId), " / ", last] : runId,
  );
}
