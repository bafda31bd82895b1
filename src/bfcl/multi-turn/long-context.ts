/**
 * The long_context category's extra state (BFCL's `long_context.py`: long watch lists, transaction
 * histories, booking records, car manuals…), kept in `long-context.json` — the same constants written
 * out by Python's json.dumps, so a float stays a float (Apache-2.0, ShishirPatil/gorilla, see
 * ../shared/bfcl/v4/SOURCE_COMMIT). The list that ends in Python's `...` keeps it as `Ellipsis`.
 *
 * Loaded once and shared, as Python's module constants are: an environment that stores one of these
 * objects (TravelAPI's extra credit cards) and changes it changes it for every later instance too.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../../paths.ts";
import { parseTaggedJson } from "../../python/json-tagged.ts";
import type { PyValue } from "../../python/value.ts";
import { asDict, asList, fromPyValue, PyDict, PyOpaque, type V } from "./py.ts";

export const LONG_CONTEXT_FILE = join(REPO_ROOT, "src", "bfcl", "multi-turn", "long-context.json");

export interface LongContext {
  readonly AUTOMOBILE_EXTENSION: V[];
  readonly BOOKING_RECORD_EXTENSION: PyDict;
  readonly CAR_STATUS_METADATA_EXTENSION: string;
  readonly CREDIT_CARD_EXTENSION: PyDict;
  readonly FILES_TAIL_USED: V[];
  readonly FILE_CONTENT_EXTENSION: string;
  readonly INTERMEDIARY_CITIES: V[];
  readonly LONG_WEATHER_EXTENSION: PyDict;
  readonly MA_20_EXTENSION: V[];
  readonly MA_5_EXTENSION: V[];
  readonly ORDER_DETAIL_EXTENSION: PyDict;
  readonly PARKING_BRAKE_INSTRUCTION: string;
  readonly POPULATE_FILE_EXTENSION: V[];
  readonly TECHNOLOGY_EXTENSION: V[];
  readonly TRANSACTION_HISTORY_EXTENSION: V[];
  readonly WATCH_LIST_EXTENSION: V[];
}

let loaded: LongContext | undefined;

function withEllipsis(v: V): V {
  if (Array.isArray(v)) return v.map(withEllipsis);
  if (v instanceof PyDict) {
    if (v.size === 1 && v.get("$ellipsis") === true) return new PyOpaque("Ellipsis", Number.NaN);
    for (const [k, x] of v) v.set(k, withEllipsis(x));
  }
  return v;
}

export function longContext(): LongContext {
  if (loaded) return loaded;
  const parsed: PyValue = parseTaggedJson(readFileSync(LONG_CONTEXT_FILE, "utf8"));
  const all = asDict(withEllipsis(fromPyValue(parsed)));
  const text = (name: string): string => all.get(name) as string;
  loaded = {
    AUTOMOBILE_EXTENSION: asList(all.get("AUTOMOBILE_EXTENSION")),
    BOOKING_RECORD_EXTENSION: asDict(all.get("BOOKING_RECORD_EXTENSION")),
    CAR_STATUS_METADATA_EXTENSION: text("CAR_STATUS_METADATA_EXTENSION"),
    CREDIT_CARD_EXTENSION: asDict(all.get("CREDIT_CARD_EXTENSION")),
    FILES_TAIL_USED: asList(all.get("FILES_TAIL_USED")),
    FILE_CONTENT_EXTENSION: text("FILE_CONTENT_EXTENSION"),
    INTERMEDIARY_CITIES: asList(all.get("INTERMEDIARY_CITIES")),
    LONG_WEATHER_EXTENSION: asDict(all.get("LONG_WEATHER_EXTENSION")),
    MA_20_EXTENSION: asList(all.get("MA_20_EXTENSION")),
    MA_5_EXTENSION: asList(all.get("MA_5_EXTENSION")),
    ORDER_DETAIL_EXTENSION: asDict(all.get("ORDER_DETAIL_EXTENSION")),
    PARKING_BRAKE_INSTRUCTION: text("PARKING_BRAKE_INSTRUCTION"),
    POPULATE_FILE_EXTENSION: asList(all.get("POPULATE_FILE_EXTENSION")),
    TECHNOLOGY_EXTENSION: asList(all.get("TECHNOLOGY_EXTENSION")),
    TRANSACTION_HISTORY_EXTENSION: asList(all.get("TRANSACTION_HISTORY_EXTENSION")),
    WATCH_LIST_EXTENSION: asList(all.get("WATCH_LIST_EXTENSION")),
  };
  return loaded;
}
