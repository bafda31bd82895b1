/** Hash routes (`#/runs/ID`, `#/runs/ID/items/KEY`, `#/runs/ID/compare?a=…`, `#/playground`): pages never clash with API paths. */

export interface Route {
  path: string[];
  query: URLSearchParams;
}

export function currentRoute(): Route {
  const raw = location.hash.replace(/^#\/?/, "");
  const at = raw.indexOf("?");
  const path = at < 0 ? raw : raw.slice(0, at);
  return {
    path: path.split("/").filter(Boolean).map(decodeURIComponent),
    query: new URLSearchParams(at < 0 ? "" : raw.slice(at + 1)),
  };
}

/** The hash link of a page: path segments are encoded (item keys hold `|`), empty query values left out. */
export function href(path: readonly string[], query: Record<string, string | number | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const text = params.toString();
  return `#/${path.map(encodeURIComponent).join("/")}${text ? `?${text}` : ""}`;
}

/** The query of the current route with some values changed (a filter, a page). */
export function withChanged(route: Route, changes: Record<string, string | number | undefined>): string {
  const query: Record<string, string | undefined> = Object.fromEntries(route.query);
  for (const [key, value] of Object.entries(changes)) query[key] = value === undefined ? undefined : String(value);
  return href(route.path, query);
}
