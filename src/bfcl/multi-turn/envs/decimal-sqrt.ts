/**
 * What MathAPI.square_root returns: `Decimal(number).sqrt()` under `getcontext().prec = precision`,
 * printed as Python prints a Decimal. The algorithm is the decimal module's: an integer square root
 * with one spare digit, the exact case rescaled toward the ideal exponent, then rounded half-even.
 */

import { PyException } from "../py.ts";

interface Dec {
  readonly coefficient: bigint;
  readonly exp: number;
}

/** Decimal(x): an int exactly; a float as n·5^k·10^-k from its reduced ratio n/2^k. */
function toDecimal(x: number, isInt: boolean): Dec {
  if (isInt) return { coefficient: BigInt(Math.abs(x)), exp: 0 };
  let n = Math.abs(x);
  let k = 0;
  while (!Number.isInteger(n)) {
    n *= 2;
    k++;
  }
  return { coefficient: BigInt(n) * 5n ** BigInt(k), exp: -k };
}

function digitsOf(n: bigint): number {
  return n.toString().length;
}

/** Round to `prec` digits, half-even (the decimal module's _fix for a finite positive value). */
function fix(d: Dec, prec: number): Dec {
  const extra = digitsOf(d.coefficient) - prec;
  if (extra <= 0) return d;
  const p = 10n ** BigInt(extra);
  let kept = d.coefficient / p;
  const rest = d.coefficient % p;
  const half = p / 2n;
  if (rest > half || (rest === half && kept % 2n === 1n)) kept += 1n;
  if (digitsOf(kept) > prec) return { coefficient: kept / 10n, exp: d.exp + extra + 1 };
  return { coefficient: kept, exp: d.exp + extra };
}

function sqrtDec(d: Dec, contextPrec: number): Dec {
  if (d.coefficient === 0n) return { coefficient: 0n, exp: d.exp >> 1 };
  const prec = contextPrec + 1;
  const length = digitsOf(d.coefficient);
  let e = d.exp >> 1;
  let c: bigint;
  let l: number;
  if (d.exp & 1) {
    c = d.coefficient * 10n;
    l = (length >> 1) + 1;
  } else {
    c = d.coefficient;
    l = (length + 1) >> 1;
  }
  const shift = prec - l;
  let exact: boolean;
  if (shift >= 0) {
    c *= 100n ** BigInt(shift);
    exact = true;
  } else {
    const p = 100n ** BigInt(-shift);
    exact = c % p === 0n;
    c /= p;
  }
  e -= shift;
  let n = 10n ** BigInt(prec);
  for (;;) {
    const q = c / n;
    if (n <= q) break;
    n = (n + q) >> 1n;
  }
  exact = exact && n * n === c;
  if (exact) {
    if (shift >= 0) n /= 10n ** BigInt(shift);
    else n *= 10n ** BigInt(-shift);
    e += shift;
  } else if (n % 5n === 0n) n += 1n;
  return fix({ coefficient: n, exp: e }, contextPrec);
}

/** str(Decimal): plain notation while the exponent is ≤ 0 and the value not tiny, else scientific. */
function decimalStr(d: Dec): string {
  const digits = d.coefficient.toString();
  const leftDigits = d.exp + digits.length;
  const dotPlace = d.exp <= 0 && leftDigits > -6 ? leftDigits : 1;
  let text: string;
  if (dotPlace <= 0) text = `0.${"0".repeat(-dotPlace)}${digits}`;
  else if (dotPlace >= digits.length) text = digits + "0".repeat(dotPlace - digits.length);
  else text = `${digits.slice(0, dotPlace)}.${digits.slice(dotPlace)}`;
  if (leftDigits === dotPlace) return text;
  const exponent = leftDigits - dotPlace;
  return `${text}E${exponent >= 0 ? "+" : ""}${exponent}`;
}

/** `Decimal(number).sqrt()` at `precision` digits (number ≥ 0); null for a precision Python rejects as a TypeError. */
export function decimalSqrt(number: number, precision: number, isInt: boolean): { repr: string; value: number } | null {
  if (!Number.isInteger(precision)) return null;
  if (precision < 1) throw new PyException("ValueError", "valid range for prec is [1, MAX_PREC]");
  if (!Number.isFinite(number)) return null;
  const root = sqrtDec(toDecimal(number, isInt), precision);
  const text = decimalStr(root);
  return { repr: `Decimal('${text}')`, value: Number(text) };
}
