/** The lab mock server's public surface: its server spec, and the calculator the built-in server shares. */

export { calculate, calculationOutputSchema, EXPRESSION_SYNTAX } from "./calculate.ts";
export { tidyNumber } from "./expression.ts";
export { labServer } from "./server.ts";
