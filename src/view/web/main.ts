/** The viewer's entry: a header, and the page the hash names, rendered again on every hash change. */
import { TABLE_STYLE } from "../../report/html.ts";
import { el, mount } from "./dom.ts";
import { comparePage } from "./pages/compare.ts";
import { itemPage } from "./pages/item.ts";
import { playgroundPage } from "./pages/playground.ts";
import { runPage } from "./pages/run.ts";
import { runsPage } from "./pages/runs.ts";
import { currentRoute, href, type Route } from "./route.ts";
import "./style.css";

/** A page fills `root`; `signal` aborts when the reader leaves it (closes its event streams). */
export type PageRender = (root: HTMLElement, route: Route, signal: AbortSignal) => Promise<void>;

function pageFor(route: Route): PageRender {
  const [first, id, sub] = route.path;
  if (first === "playground") return playgroundPage;
  if (first === "runs" && id !== undefined) {
    if (sub === "items" && route.path[3] !== undefined) return itemPage;
    if (sub === "compare") return comparePage;
    return runPage;
  }
  return runsPage;
}

const header = el(
  "header",
  {},
  el("a", { class: "brand", href: href(["runs"]) }, "OnsetLab Bench"),
  el("nav", {}, el("a", { href: href(["runs"]) }, "Runs"), el("a", { href: href(["playground"]) }, "Playground")),
);
const main = el("main", { id: "page" });
mount(document.body, header, main);
// the report's tables are rendered by the report's own code: they scroll in their box as on its page
document.head.append(el("style", {}, TABLE_STYLE));

let leaving: AbortController | undefined;

async function show(): Promise<void> {
  leaving?.abort();
  const controller = new AbortController();
  leaving = controller;
  const route = currentRoute();
  main.replaceChildren(el("p", { class: "loading" }, "Loading…"));
  try {
    await pageFor(route)(main, route, controller.signal);
  } catch (error) {
    if (controller.signal.aborted) return;
    mount(main, el("p", { class: "error", role: "alert" }, error instanceof Error ? error.message : String(error)));
  }
}

window.addEventListener("hashchange", () => void show());
void show();
