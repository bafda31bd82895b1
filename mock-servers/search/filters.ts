import { ToolError } from "../kit/errors.ts";
import { parseUrl, type SearchDocument, siteOf } from "./corpus.ts";

const TIME_RANGE_DAYS = { day: 1, week: 7, month: 30, year: 365 } as const;
export type TimeRange = keyof typeof TIME_RANGE_DAYS;

/** Inclusive bounds on published_date (YYYY-MM-DD strings compare correctly as text). */
export interface DateWindow {
  from?: string;
  to?: string;
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function checkedDate(name: string, value: string): string {
  const parsed = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : undefined;
  if (!parsed || Number.isNaN(parsed.getTime()) || isoDay(parsed) !== value) {
    throw new ToolError(
      "invalid_request",
      `Tavily API error: ${name} must be a date in the format YYYY-MM-DD, got "${value}"`,
    );
  }
  return value;
}

/**
 * The published-date window of a search. As in tavily-mcp, an explicit start_date/end_date wins and
 * time_range is dropped; empty strings (the schema defaults) mean "not set".
 */
export function dateWindow(
  now: Date,
  options: { time_range?: TimeRange; start_date?: string; end_date?: string },
): DateWindow {
  const start = options.start_date ? checkedDate("start_date", options.start_date) : undefined;
  const end = options.end_date ? checkedDate("end_date", options.end_date) : undefined;
  if (start && end && start > end) {
    throw new ToolError("invalid_request", `Tavily API error: start_date ${start} is after end_date ${end}`);
  }
  if (start || end) return { from: start, to: end };
  if (!options.time_range) return {};
  const from = new Date(now.getTime() - TIME_RANGE_DAYS[options.time_range] * 86_400_000);
  return { from: isoDay(from), to: isoDay(now) };
}

export function inWindow(doc: SearchDocument, window: DateWindow): boolean {
  if (window.from && doc.published_date < window.from) return false;
  if (window.to && doc.published_date > window.to) return false;
  return true;
}

/** "https://www.Example.com/path" → "example.com": agents pass domains in every shape. */
function normaliseDomain(raw: string): string {
  const url = parseUrl(raw);
  return url ? siteOf(url) : raw.trim().toLowerCase();
}

function onDomain(site: string, domain: string): boolean {
  return site === domain || site.endsWith(`.${domain}`);
}

/** include_domains / exclude_domains: a page matches a domain when it is that host or a subdomain of it. */
export function domainFilter(include: string[], exclude: string[]): (doc: SearchDocument) => boolean {
  const included = include.map(normaliseDomain).filter(Boolean);
  const excluded = exclude.map(normaliseDomain).filter(Boolean);
  return (doc) => {
    const site = siteOf(new URL(doc.url));
    if (included.length > 0 && !included.some((domain) => onDomain(site, domain))) return false;
    return !excluded.some((domain) => onDomain(site, domain));
  };
}
