/** The `datetime` parsing and printing the environments use, on naive times (no zone), as Python does. */

import { PyException } from "../py.ts";

const DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const DATE_TIME = /^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})$/;

/** `datetime.strptime(s, "%Y-%m-%d")` or, with `withTime`, "%Y-%m-%d %H:%M:%S", as ms since 1970 (naive). */
export function strptime(s: string, withTime: boolean): number {
  const format = withTime ? "%Y-%m-%d %H:%M:%S" : "%Y-%m-%d";
  const m = (withTime ? DATE_TIME : DATE).exec(s);
  const bad = (): PyException => new PyException("ValueError", `time data '${s}' does not match format '${format}'`);
  if (!m) throw bad();
  const [y, mo, d, h = 0, mi = 0, se = 0] = m.slice(1).map(Number) as number[];
  const ms = Date.UTC(y!, mo! - 1, d!, h, mi, se);
  const back = new Date(ms);
  if (back.getUTCMonth() !== mo! - 1 || back.getUTCDate() !== d! || h > 23 || mi > 59 || se > 61) throw bad();
  return ms;
}

/** `strftime("%Y-%m-%d %H:%M:%S")` of a naive time. */
export function formatDateTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}
