/**
 * The gold view the simulator answers from. Structurally a subset of the bench's DatasetItem (the
 * bench passes its items in); defined here because src/models may not import src/bench.
 */

import { goldArgs } from "../../gold-value.ts";

export interface SimGoldItem {
  id: string;
  query: string;
  category: string;
  route: string;
  calls: { tool: string; args: Record<string, unknown> }[];
  order: string;
  answer?: { contains?: string[]; anyOf?: string[]; regex?: string; notContains?: string[] };
  missing?: string[];
  forbidden?: string[];
  /** Servers the right answer uses; decides whether a skill block in the prompt is the item's own. */
  servers?: string[];
  /**
   * A conversation turn's entry (the conversation's id): its query is the turn's user text, or the reply
   * after the agent asked. A prompt holding several turns (the history) is answered for the latest.
   */
  turnOf?: string;
  /** 1-based turn number of a conversation entry; the error rates rise with it (rates.ts). */
  turnIndex?: number;
  /**
   * `calls` hold each argument's value itself, not a dataset's alternatives (BFCL multi-turn ground
   * truth, where `''` is a value to send and a list is one value).
   */
  literalArgs?: boolean;
}

/** A call as the oracle writes it: every parameter with its gold value, in the dataset's order. */
export interface GoldCall {
  tool: string;
  args: Record<string, unknown>;
}

/**
 * The dataset's acceptable values → gold values, read as the gold replay reads them (src/gold-value.ts);
 * a parameter with no gold value is left out (DatasetItem's contract).
 */
export function goldCalls(item: SimGoldItem): GoldCall[] {
  return item.calls.map((call) => ({ tool: call.tool, args: item.literalArgs ? call.args : goldArgs(call) }));
}

/**
 * Finds the item whose query a prompt contains; the longest query wins when several do. Each find marks
 * which 4-character pieces the text holds (hashed into a bit set, one pass); an item is searched for only
 * when the text holds every sampled piece of its query, which every text containing the query does.
 */
export class GoldIndex {
  private readonly byLength: SimGoldItem[];
  /** Per item of byLength, the bits of sampled pieces of its query (none for a query under 4 characters). */
  private readonly pieceBits: Uint32Array[];
  private readonly seen = new Uint8Array(PIECE_BITS / 8);

  constructor(items: readonly SimGoldItem[]) {
    this.byLength = items.filter((item) => item.query.length > 0).sort((a, b) => b.query.length - a.query.length);
    this.pieceBits = this.byLength.map((item) => sampledPieceBits(item.query));
  }

  /**
   * The item whose query the text holds, the longest first; when the text holds conversation turns (a
   * history before the current turn), the turn whose text comes last — the one being asked now.
   */
  find(text: string): SimGoldItem | undefined {
    markPieces(text, this.seen);
    let latest: { item: SimGoldItem; at: number } | undefined;
    let first: SimGoldItem | undefined;
    for (let index = 0; index < this.byLength.length; index++) {
      const item = this.byLength[index] as SimGoldItem;
      if (!this.holdsPieces(this.pieceBits[index] as Uint32Array)) continue;
      const at = text.lastIndexOf(item.query);
      if (at < 0) continue;
      if (item.turnOf === undefined) {
        if (!this.hasTurns) return item;
        first ??= item;
      } else if (!latest || at + item.query.length > latest.at + latest.item.query.length) latest = { item, at };
    }
    return latest?.item ?? first;
  }

  /** Whether any entry is a conversation turn (only then must every match be looked at). */
  get hasTurns(): boolean {
    this.turns ??= this.byLength.some((item) => item.turnOf !== undefined);
    return this.turns;
  }

  private turns: boolean | undefined;

  private holdsPieces(bits: Uint32Array): boolean {
    for (const bit of bits) if (((this.seen[bit >>> 3] as number) & (1 << (bit & 7))) === 0) return false;
    return true;
  }
}

const PIECE_BITS = 1 << 17;
const PIECES_SAMPLED = 8;

/** The bit of a 4-character piece, given as the low bytes of its 4 UTF-16 units (a collision only costs a search). */
function pieceBit(window: number): number {
  return Math.imul(window, 0x9e3779b1) >>> 15;
}

function markPieces(text: string, seen: Uint8Array): void {
  seen.fill(0);
  let window = 0;
  for (let index = 0; index < text.length; index++) {
    window = (window << 8) | (text.charCodeAt(index) & 0xff);
    if (index >= 3) {
      const bit = pieceBit(window);
      seen[bit >>> 3] = (seen[bit >>> 3] as number) | (1 << (bit & 7));
    }
  }
}

/** Bits of up to PIECES_SAMPLED pieces spread over the query, the first piece first. */
function sampledPieceBits(query: string): Uint32Array {
  const ends: number[] = [];
  const last = query.length - 1;
  if (last >= 3) {
    const count = Math.min(PIECES_SAMPLED, last - 2);
    for (let sample = 0; sample < count; sample++) {
      ends.push(3 + Math.round((sample * (last - 3)) / Math.max(1, count - 1)));
    }
  }
  return Uint32Array.from(new Set(ends), (end) => {
    let window = 0;
    for (let index = end - 3; index <= end; index++) window = (window << 8) | (query.charCodeAt(index) & 0xff);
    return pieceBit(window);
  });
}
