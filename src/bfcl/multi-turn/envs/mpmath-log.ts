/**
 * What MathAPI.logarithm returns: `mpmath.log(value) / mpmath.log(base)` at `mp.dps = precision`,
 * printed as mpmath prints it (`mpf('3.321928094869')`). Binary floats with BigInt mantissas:
 * the inputs rounded to the working precision (as mpmath converts them), each logarithm computed
 * with 80 guard bits and rounded half-even, the quotient correctly rounded, then printed with
 * mpmath's repr digits (prec_to_dps + 3) rounding on the next digit.
 */

interface Mpf {
  readonly negative: boolean;
  /** 0n for zero */
  readonly man: bigint;
  readonly exp: number;
}

const ZERO: Mpf = { negative: false, man: 0n, exp: 0 };
const LOG2_10 = 3.3219280948873626;

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/** An exact double as man·2^exp. */
function fromNumber(x: number): Mpf {
  if (x === 0) return ZERO;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  const man = biased === 0 ? fraction : fraction | (1n << 52n);
  return { negative: x < 0, man, exp: (biased === 0 ? 1 : biased) - 1075 };
}

/** Round man·2^exp (plus a sticky bit below it) to `prec` bits, half-even. */
function round(negative: boolean, man: bigint, exp: number, prec: number, sticky = false): Mpf {
  if (man === 0n) return ZERO;
  const extra = bitLength(man) - prec;
  if (extra <= 0) return normalize({ negative, man, exp });
  const kept = man >> BigInt(extra);
  const rest = man - (kept << BigInt(extra));
  const half = 1n << BigInt(extra - 1);
  const up = rest > half || (rest === half && (sticky || (kept & 1n) === 1n));
  return normalize({ negative, man: up ? kept + 1n : kept, exp: exp + extra });
}

function normalize(x: Mpf): Mpf {
  let { man, exp } = x;
  if (man === 0n) return ZERO;
  while ((man & 1n) === 0n) {
    man >>= 1n;
    exp++;
  }
  return { negative: x.negative, man, exp };
}

/** atanh(z)·2^F for a fixed-point z = Z/2^F, |z| ≤ 1/3. */
function atanhFixed(z: bigint, fractionBits: bigint): bigint {
  const z2 = (z * z) >> fractionBits;
  let term = z;
  let sum = z;
  for (let k = 3n; term !== 0n; k += 2n) {
    term = (term * z2) >> fractionBits;
    sum += term / k;
  }
  return sum;
}

/** ln(x) rounded to `prec` bits (x > 0). */
function ln(x: Mpf, prec: number): Mpf {
  const bc = bitLength(x.man);
  if (x.man === 1n << BigInt(bc - 1) && x.exp + bc - 1 === 0) return ZERO;
  const F = prec + 80;
  const fb = BigInt(F);
  const one = 1n << fb;
  const shift = F - (bc - 1);
  const m = shift >= 0 ? x.man << BigInt(shift) : x.man >> BigInt(-shift);
  const lnM = 2n * atanhFixed(((m - one) << fb) / (m + one), fb);
  const ln2 = 2n * atanhFixed(one / 3n, fb);
  const total = BigInt(x.exp + bc - 1) * ln2 + lnM;
  return round(total < 0n, total < 0n ? -total : total, -F, prec, true);
}

function divide(a: Mpf, b: Mpf, prec: number): Mpf {
  if (a.man === 0n) return ZERO;
  const shift = Math.max(0, prec + 3 - (bitLength(a.man) - bitLength(b.man)));
  const num = a.man << BigInt(shift);
  const q = num / b.man;
  return round(a.negative !== b.negative, q, a.exp - b.exp - shift, prec, q * b.man !== num);
}

/** The exact decimal digits of |x| and the exponent of its leading digit. */
function decimalDigits(x: Mpf): { digits: string; exponent: number } {
  if (x.exp >= 0) {
    const digits = (x.man << BigInt(x.exp)).toString();
    return { digits, exponent: digits.length - 1 };
  }
  const scaled = (x.man * 5n ** BigInt(-x.exp)).toString();
  return { digits: scaled, exponent: scaled.length - 1 + x.exp };
}

/** mpmath's to_str(x, dps): round on the digit after `dps`, fixed notation near 1, zeros stripped. */
function toStr(x: Mpf, dps: number): string {
  if (x.man === 0n) return "0.0";
  let { digits, exponent } = decimalDigits(x);
  if (digits.length > dps && "56789".includes(digits[dps]!)) {
    let i = dps - 1;
    while (i >= 0 && digits[i] === "9") i--;
    if (i >= 0) digits = digits.slice(0, i) + String(Number(digits[i]) + 1) + "0".repeat(dps - i - 1);
    else {
      digits = `1${"0".repeat(dps - 1)}`;
      exponent++;
    }
  } else digits = digits.slice(0, dps).padEnd(Math.min(dps, digits.length), "0");
  const minFixed = Math.min(-Math.floor(dps / 3), -5);
  let split = 1;
  if (minFixed < exponent && exponent < dps) {
    if (exponent < 0) digits = "0".repeat(-exponent) + digits;
    else {
      split = exponent + 1;
      if (split > dps) digits += "0".repeat(split - dps);
    }
    exponent = 0;
  }
  let text = `${digits.slice(0, split)}.${digits.slice(split)}`.replace(/0+$/, "");
  if (text.endsWith(".")) text += "0";
  const sign = x.negative ? "-" : "";
  if (exponent === 0) return sign + text;
  return `${sign}${text}e${exponent > 0 ? "+" : ""}${exponent}`;
}

function pyRoundInt(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

export interface MpfResult {
  readonly repr: string;
  readonly value: number;
}

/** `mpmath.log(value) / mpmath.log(base)` at `dps` digits; null where mpmath would leave the reals. */
export function mpLogRatio(value: number, base: number, dps: number): MpfResult | null {
  if (!(value > 0) || !(base > 0) || !Number.isFinite(value) || !Number.isFinite(base)) return null;
  const prec = Math.max(1, pyRoundInt((Math.trunc(dps) + 1) * LOG2_10));
  const lnValue = ln(round(value < 0, fromNumber(value).man, fromNumber(value).exp, prec), prec);
  const lnBase = ln(round(base < 0, fromNumber(base).man, fromNumber(base).exp, prec), prec);
  if (lnBase.man === 0n) return null;
  const q = divide(lnValue, lnBase, prec);
  const reprDps = Math.max(1, pyRoundInt(prec / LOG2_10) - 1);
  const digits = reprDps === 15 ? 17 : reprDps + 3;
  const text = toStr(q, digits);
  return { repr: `mpf('${text}')`, value: Number(text) };
}
