import { describe, expect, it } from "vitest";
import { ExpressionError, evaluateExpression } from "./expression.ts";

describe("evaluateExpression", () => {
  it("reads a long flat expression in one pass", () => {
    // 9,999 characters: the tokenizer used to copy the rest of the input at every token
    expect(evaluateExpression(`${"1+".repeat(4_999)}1`)).toBe(5_000);
  });

  it.each([
    // precedence
    ["2 + 3 * 4", 14],
    ["(2 + 3) * 4", 20],
    ["10 - 4 / 2", 8],
    ["2 * 3 ^ 2", 18],
    // left associativity of + - * /
    ["10 - 4 - 3", 3],
    ["100 / 10 / 2", 5],
    ["2 * 3 % 4", 2],
    // right associativity of ^
    ["2 ^ 3 ^ 2", 512],
    ["(2 ^ 3) ^ 2", 64],
    // unary minus and plus
    ["-2 ^ 2", -4],
    ["(-2) ^ 2", 4],
    ["2 ^ -1", 0.5],
    ["--3", 3],
    ["-(1 + 2) * 3", -9],
    ["+5 - -5", 10],
    ["3 * -2", -6],
    // modulo and percent
    ["17 % 5", 2],
    ["(10 + 4) % 4", 2],
    ["15%", 0.15],
    ["200 * 15%", 30],
    ["50% * 50", 25],
    // numbers
    ["1.5e3 + .5", 1500.5],
    ["0.1 + 0.2", 0.3],
    ["123456 * 789012", 97408265472],
    // functions and constants
    ["sqrt(16) + abs(-3)", 7],
    ["round(3.14159, 2)", 3.14],
    ["round(2.5)", 3],
    ["round(-2.5)", -3],
    ["floor(-1.5) + ceil(1.2)", 0],
    ["log(1000)", 3],
    ["log(8, 2)", 3],
    ["ln(e)", 1],
    ["exp(0)", 1],
    ["sin(0) + cos(0)", 1],
    ["round(sin(pi / 2), 6)", 1],
    ["max(3, 9, 4) - min(7, 2)", 7],
    ["pow(2, 10)", 1024],
    ["2 * pi", 6.28318530717959],
    ["SQRT(9)", 3],
  ])("%s = %d", (expression, expected) => {
    expect(evaluateExpression(expression)).toBe(expected);
  });

  it.each([
    ["1 +", "syntax_error", /Unexpected end of expression/],
    ["2 ** x", "syntax_error", /"\*\*" at position 2 is not supported; use \^/],
    ["", "syntax_error", /Empty expression/],
    ["(1 + 2", "syntax_error", /Missing "\)" to close "\(" at position 0/],
    ["1 + 2)", "syntax_error", /Unexpected "\)" at position 5/],
    ["2 pi", "syntax_error", /Unexpected "pi" at position 2/],
    ["* 3", "syntax_error", /Unexpected "\*" at position 0: expected a number/],
    ["3 $ 4", "syntax_error", /Unexpected character "\$" at position 2/],
    ["2 * x", "unknown_identifier", /Unknown name "x" at position 4; known constants: pi, e/],
    ["sqrt 4", "syntax_error", /sqrt at position 0 needs parentheses/],
    ["pow(2)", "syntax_error", /pow takes 2 argument\(s\), got 1/],
    ["1 / 0", "math_error", /Division by zero/],
    ["5 % 0", "math_error", /Modulo by zero/],
    ["sqrt(-1)", "math_error", /sqrt\(-1\) is not a real number/],
    ["10 ^ 400", "math_error", /too large/],
    ["9^9^9^9^9", "math_error", /too large/],
    // hostile inputs: refused with a code of their own, never a stack overflow
    [`${"(".repeat(50_000)}1${")".repeat(50_000)}`, "too_long", /100001 characters; at most 10000/],
    [`${"(".repeat(4_000)}1${")".repeat(4_000)}`, "too_deep", /nests deeper than 200 levels/],
    [`${"-".repeat(5_000)}1`, "too_deep", /nests deeper/],
    [`${"2^".repeat(4_000)}2`, "too_deep", /nests deeper/],
  ])("rejects %j with %s", (expression, code, message) => {
    let caught: unknown;
    try {
      evaluateExpression(expression);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ExpressionError);
    expect((caught as ExpressionError).code).toBe(code);
    expect((caught as ExpressionError).message).toMatch(message);
  });
});
