/** BFCL's MathAPI: stateless arithmetic, errors as `{"error": …}` where Python catches them. */

import { Environment, type Method, method } from "../environment.ts";
import {
  add,
  asList,
  div,
  f,
  isNumber,
  lt,
  mul,
  num,
  type PyDict,
  PyException,
  PyOpaque,
  pow,
  pyRound,
  rec,
  str,
  sub,
  truthy,
  type V,
} from "../py.ts";
import { decimalSqrt } from "./decimal-sqrt.ts";
import { mpLogRatio } from "./mpmath-log.ts";

const TO_METERS: readonly (readonly [string, V])[] = [
  ["km", 1000],
  ["m", 1],
  ["cm", f(0.01)],
  ["mm", f(0.001)],
  ["um", f(1e-6)],
  ["nm", f(1e-9)],
];

const IMPERIAL: Record<string, V> = {
  cm_to_in: f(0.393701),
  in_to_cm: f(2.54),
  m_to_ft: f(3.28084),
  ft_to_m: f(0.3048),
  m_to_yd: f(1.09361),
  yd_to_m: f(0.9144),
  km_to_miles: f(0.621371),
  miles_to_km: f(1.60934),
  kg_to_lb: f(2.20462),
  lb_to_kg: f(0.453592),
  celsius_to_fahrenheit: f(1.8),
  fahrenheit_to_celsius: f(5 / 9),
};

/** Runs `compute`; a Python TypeError (or the given kinds) becomes `{"error": message}`. */
function guarded(message: string, compute: () => V, kinds: readonly string[] = ["TypeError"]): PyDict {
  try {
    return rec({ result: compute() });
  } catch (error) {
    if (error instanceof PyException && kinds.includes(error.pyType)) return rec({ error: message });
    throw error;
  }
}

/** Python's `sum()`: 0 plus each item, left to right. */
function pySum(items: readonly V[]): V {
  return items.reduce<V>((total, x) => add(total, x), 0);
}

function pyMin(items: readonly V[], smaller: (a: V, b: V) => boolean): V {
  return items.reduce((best, x) => (smaller(x, best) ? x : best));
}

export class MathAPI extends Environment {
  readonly className = "MathAPI";

  loadScenario(): void {}

  publicState(): ReadonlyArray<readonly [string, V]> {
    return [];
  }

  protected defineMethods(): Record<string, Method> {
    const numbers = "All elements in the list must be numbers";
    const both = "Both inputs must be numbers";
    return {
      logarithm: method(["value", "base", "precision"], ([value, base, precision]) => {
        const result =
          isNumber(value!) && isNumber(base!) && isNumber(precision!)
            ? mpLogRatio(num(value!), num(base!), num(precision!))
            : null;
        if (!result) return rec({ error: "cannot compute this logarithm in the reals" });
        return rec({ result: new PyOpaque(result.repr, result.value) });
      }),
      mean: method(["numbers"], ([list]) => {
        if (!truthy(list!)) return rec({ error: "Cannot calculate mean of an empty list" });
        return guarded(numbers, () => div(pySum(asList(list)), asList(list).length));
      }),
      standard_deviation: method(["numbers"], ([list]) => {
        if (!truthy(list!)) return rec({ error: "Cannot calculate standard deviation of an empty list" });
        return guarded(numbers, () => {
          const items = asList(list);
          const mean = div(pySum(items), items.length);
          const variance = div(pySum(items.map((x) => pow(sub(x, mean), 2))), items.length);
          if (num(variance) < 0) throw new PyException("ValueError", "math domain error");
          return f(Math.sqrt(num(variance)));
        });
      }),
      si_unit_conversion: method(["value", "unit_in", "unit_out"], ([value, unitIn, unitOut]) => {
        if (!isNumber(value!) || value instanceof PyOpaque) return rec({ error: "Value must be a number" });
        const factorIn = TO_METERS.find(([u]) => u === unitIn)?.[1];
        const factorOut = TO_METERS.find(([u]) => u === unitOut)?.[1];
        if (factorIn === undefined || factorOut === undefined)
          return rec({ error: `Conversion from '${str(unitIn!)}' to '${str(unitOut!)}' is not supported` });
        return rec({ result: mul(mul(value!, factorIn), div(1, factorOut)) });
      }),
      imperial_si_conversion: method(["value", "unit_in", "unit_out"], ([value, unitIn, unitOut]) => {
        if (!isNumber(value!) || value instanceof PyOpaque) return rec({ error: "Value must be a number" });
        if (unitIn === unitOut) return rec({ result: value! });
        const conversionKey = `${str(unitIn!)}_to_${str(unitOut!)}`;
        const factor = Object.hasOwn(IMPERIAL, conversionKey) ? IMPERIAL[conversionKey] : undefined;
        if (factor === undefined)
          return rec({ error: `Conversion from '${str(unitIn!)}' to '${str(unitOut!)}' is not supported` });
        if (unitIn === "celsius" && unitOut === "fahrenheit") return rec({ result: add(mul(value!, factor), 32) });
        if (unitIn === "fahrenheit" && unitOut === "celsius") return rec({ result: mul(sub(value!, 32), factor) });
        return rec({ result: mul(value!, factor) });
      }),
      add: method(["a", "b"], ([a, b]) => guarded(both, () => add(a!, b!))),
      subtract: method(["a", "b"], ([a, b]) => guarded(both, () => sub(a!, b!))),
      multiply: method(["a", "b"], ([a, b]) => {
        if (!isNumber(a!) || !isNumber(b!)) return rec({ error: both });
        return guarded(both, () => mul(a!, b!));
      }),
      divide: method(["a", "b"], ([a, b]) => {
        try {
          if (isNumber(b!) && num(b!) === 0) return rec({ error: "Cannot divide by zero" });
        } catch {
          // not a number: the division below raises the TypeError Python would
        }
        return guarded(both, () => div(a!, b!));
      }),
      power: method(["base", "exponent"], ([base, exponent]) => guarded(both, () => pow(base!, exponent!))),
      square_root: method(["number", "precision"], ([number, precision]) => {
        const invalid = "Input must be a number or computation resulted in an invalid operation";
        try {
          if (lt(number!, 0)) return rec({ error: "Cannot calculate square root of a negative number" });
        } catch (error) {
          if (error instanceof PyException && error.pyType === "TypeError") return rec({ error: invalid });
          throw error;
        }
        if (!isNumber(precision!) || !isNumber(number!)) return rec({ error: invalid });
        const root = decimalSqrt(num(number!), num(precision!), typeof number === "number");
        return root === null ? rec({ error: invalid }) : rec({ result: new PyOpaque(root.repr, root.value) });
      }),
      absolute_value: method(["number"], ([number]) =>
        guarded("Input must be a number", () => (lt(number!, 0) ? sub(0, number!) : number!)),
      ),
      round_number: method(["number", ["decimal_places", 0]], ([number, places]) =>
        guarded("First input must be a number, second input must be an integer", () => pyRound(number!, places!)),
      ),
      percentage: method(["part", "whole"], ([part, whole]) => {
        if (isNumber(whole!) && num(whole!) === 0) return rec({ error: "Whole value cannot be zero" });
        return guarded(both, () => mul(div(part!, whole!), 100));
      }),
      min_value: method(["numbers"], ([list]) => {
        if (!truthy(list!)) return rec({ error: "Cannot find minimum of an empty list" });
        return guarded(numbers, () => pyMin(asList(list), (a, b) => lt(a, b)));
      }),
      max_value: method(["numbers"], ([list]) => {
        if (!truthy(list!)) return rec({ error: "Cannot find maximum of an empty list" });
        return guarded(numbers, () => pyMin(asList(list), (a, b) => lt(b, a)));
      }),
      sum_values: method(["numbers"], ([list]) => {
        if (!truthy(list!)) return rec({ error: "Cannot calculate sum of an empty list" });
        return guarded(numbers, () => pySum(asList(list)));
      }),
    };
  }
}
