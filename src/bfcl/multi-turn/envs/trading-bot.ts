/** BFCL's TradingBot: stocks, orders keyed by int id, an account, a watch list, seeded timestamps. */

import { Environment, type Method, method } from "../environment.ts";
import { longContext } from "../long-context.ts";
import {
  add,
  asDict,
  asList,
  asStr,
  contains,
  dget,
  dict,
  eq,
  f,
  fixedHalfEven,
  ge,
  getItem,
  gt,
  key,
  le,
  mul,
  num,
  type PyDict,
  rec,
  repr,
  str,
  sub,
  toFloat,
  toInt,
  truthy,
  type V,
} from "../py.ts";
import { PyRandom } from "../py-random.ts";
import { formatDateTime, strptime } from "./dates.ts";

/** BFCL's CURRENT_TIME, 2024-09-01 10:30, as a naive time. */
const CURRENT_TIME = Date.UTC(2024, 8, 1, 10, 30);

const stock = (price: number, change: number, volume: number, ma5: number, ma20: number): PyDict =>
  rec({ price: f(price), percent_change: f(change), volume: f(volume), "MA(5)": f(ma5), "MA(20)": f(ma20) });

const DEFAULT_STATE = (): PyDict =>
  rec({
    orders: dict([
      [12345, rec({ id: 12345, order_type: "Buy", symbol: "AAPL", price: f(210.65), amount: 10, status: "Completed" })],
      [12446, rec({ id: 12446, order_type: "Sell", symbol: "GOOG", price: f(2840.56), amount: 5, status: "Pending" })],
    ]),
    account_info: rec({ account_id: 12345, balance: f(10000), binding_card: 1974202140965533 }),
    authenticated: false,
    market_status: "Closed",
    order_counter: 12446,
    stocks: rec({
      AAPL: stock(227.16, 0.17, 2.552, 227.11, 227.09),
      GOOG: stock(2840.34, 0.24, 1.123, 2835.67, 2842.15),
      TSLA: stock(667.92, -0.12, 1.654, 671.15, 668.2),
      MSFT: stock(310.23, 0.09, 3.234, 309.88, 310.11),
      NVDA: stock(220.34, 0.34, 1.234, 220.45, 220.67),
      ALPH: stock(1320.45, -0.08, 1.567, 1321.12, 1325.78),
      OMEG: stock(457.23, 0.12, 2.345, 456.78, 458.12),
      QUAS: stock(725.89, -0.03, 1.789, 726.45, 728.0),
      NEPT: stock(88.34, 0.19, 0.654, 88.21, 88.67),
      SYNX: stock(345.67, 0.11, 2.112, 345.34, 346.12),
      ZETA: stock(22.09, -0.05, 0.789, 22.12, 22.34),
    }),
    watch_list: ["NVDA"],
    transaction_history: [],
    random_seed: 1053520,
  });

const SYMBOLS: Record<string, string> = {
  Apple: "AAPL",
  Google: "GOOG",
  Tesla: "TSLA",
  Microsoft: "MSFT",
  Nvidia: "NVDA",
  "Zeta Corp": "ZETA",
  "Alpha Tech": "ALPH",
  "Omega Industries": "OMEG",
  "Quasar Ltd.": "QUAS",
  "Neptune Systems": "NEPT",
  "Synex Solutions": "SYNX",
  Amazon: "AMZN",
  Gorilla: "GORI",
};

const notAuthenticated = (doing: string): PyDict =>
  rec({ error: `User not authenticated. Please log in to ${doing}.` });

export class TradingBot extends Environment {
  readonly className = "TradingBot";
  orders: PyDict = dict();
  account_info: PyDict = dict();
  authenticated: V = false;
  market_status: V = "Closed";
  order_counter: V = 12446;
  stocks: PyDict = dict();
  watch_list: V[] = [];
  transaction_history: V[] = [];
  private longContextOn = false;
  private random = new PyRandom(1053520);

  loadScenario(config: PyDict, longContextOn: boolean): void {
    const defaults = DEFAULT_STATE();
    const get = (name: string): V => dget(config, name, defaults.get(name)!);
    const orders = asDict(get("orders"));
    this.orders = dict(
      [...orders].map(([k, v]) => [typeof k === "string" && /^\d+$/.test(k) ? toInt(k) : k, v] as const),
    );
    this.account_info = asDict(get("account_info"));
    this.authenticated = get("authenticated");
    this.market_status = get("market_status");
    this.order_counter = get("order_counter");
    this.stocks = asDict(get("stocks"));
    this.watch_list = asList(get("watch_list"));
    this.transaction_history = asList(get("transaction_history"));
    this.longContextOn = longContextOn;
    this.random = new PyRandom(num(get("random_seed")));
  }

  publicState(): ReadonlyArray<readonly [string, V]> {
    return [
      ...this.attributes([
        "orders",
        "account_info",
        "authenticated",
        "market_status",
        "order_counter",
        "stocks",
        "watch_list",
        "transaction_history",
      ]),
      ["long_context", this.longContextOn],
    ];
  }

  private timestamp(): string {
    const start = Math.floor(CURRENT_TIME / 1000);
    const at = this.random.randint(start, start + 86400);
    return formatDateTime(at * 1000);
  }

  private balance(): V {
    return getItem(this.account_info, "balance");
  }

  protected defineMethods(): Record<string, Method> {
    return {
      get_current_time: method([], () => rec({ current_time: "10:30 AM" })),
      get_symbol_by_name: method(["name"], ([name]) => rec({ symbol: SYMBOLS[name as string] ?? "Stock not found" })),
      get_stock_info: method(["symbol"], ([symbol]) => {
        if (!contains(this.stocks, symbol!)) return rec({ error: `Stock with symbol '${str(symbol!)}' not found.` });
        const info = asDict(getItem(this.stocks, symbol!));
        if (!this.longContextOn) return info;
        const copy = dict(info);
        copy.set("MA(5)", longContext().MA_5_EXTENSION);
        copy.set("MA(20)", longContext().MA_20_EXTENSION);
        return copy;
      }),
      get_order_details: method(["order_id"], ([orderId]) => {
        if (!contains(this.orders, orderId!))
          return rec({
            error: `Order with ID ${str(orderId!)} not found.Here is the list of orders_id: ${repr([...this.orders.keys()])}`,
          });
        const order = asDict(getItem(this.orders, orderId!));
        if (!this.longContextOn) return order;
        const copy = dict(order);
        const symbol = str(getItem(copy, "symbol"));
        const metadata = dict();
        for (const [k, template] of longContext().ORDER_DETAIL_EXTENSION)
          metadata.set(k, (template as string).replaceAll("{symbol}", symbol));
        copy.set("metadata", metadata);
        return copy;
      }),
      cancel_order: method(["order_id"], ([orderId]) => {
        if (!contains(this.orders, orderId!)) return rec({ error: `Order with ID ${str(orderId!)} not found.` });
        const order = asDict(getItem(this.orders, orderId!));
        if (order.get("status") === "Completed")
          return rec({ error: `Can't cancel order ${str(orderId!)}. Order is already completed.` });
        order.set("status", "Cancelled");
        return rec({ order_id: orderId!, status: "Cancelled" });
      }),
      place_order: method(["order_type", "symbol", "price", "amount"], ([orderType, symbol, priceArg, amount]) => {
        if (!truthy(this.authenticated)) return notAuthenticated("place an order");
        if (!contains(this.stocks, symbol!)) return rec({ error: `Invalid stock symbol: ${str(symbol!)}` });
        if (le(priceArg!, 0) || le(amount!, 0)) return rec({ error: "Price and amount must be positive values." });
        if (asStr(orderType).toLowerCase() === "buy") {
          const totalCost = mul(toFloat(priceArg!), toInt(amount!));
          const balance = dget(this.account_info, "balance", 0);
          if (gt(totalCost, balance))
            return rec({
              error: `Insufficient funds: required $${fixedHalfEven(num(totalCost), 2)} but only $${fixedHalfEven(num(balance), 2)} available.`,
            });
        }
        const price = toFloat(priceArg!);
        const orderId = this.order_counter;
        this.orders.set(
          key(orderId),
          rec({ id: orderId, order_type: orderType!, symbol: symbol!, price, amount: amount!, status: "Open" }),
        );
        this.order_counter = add(this.order_counter, 1);
        return rec({ order_id: orderId, order_type: orderType!, status: "Pending", price, amount: amount! });
      }),
      withdraw_funds: method(["amount"], ([amount]) => {
        if (!truthy(this.authenticated)) return notAuthenticated("make a transaction");
        if (this.market_status !== "Open") return rec({ error: "Market is closed. Transactions are not allowed." });
        if (le(amount!, 0)) return rec({ error: "Transaction amount must be positive." });
        if (gt(amount!, this.balance())) return rec({ error: "Insufficient funds for withdrawal." });
        this.account_info.set("balance", sub(this.balance(), amount!));
        this.transaction_history.push(rec({ type: "withdrawal", amount: amount!, timestamp: this.timestamp() }));
        return rec({ status: "Withdrawal successful", new_balance: this.balance() });
      }),
      get_account_info: method([], () =>
        truthy(this.authenticated) ? this.account_info : notAuthenticated("view account information"),
      ),
      trading_login: method(["username", "password"], () => {
        if (truthy(this.authenticated)) return rec({ status: "Already logged in" });
        this.authenticated = true;
        return rec({ status: "Logged in successfully" });
      }),
      trading_get_login_status: method([], () => rec({ status: truthy(this.authenticated) })),
      trading_logout: method([], () => {
        if (!truthy(this.authenticated)) return rec({ status: "No user is currently logged in" });
        this.authenticated = false;
        return rec({ status: "Logged out successfully" });
      }),
      fund_account: method(["amount"], ([amount]) => {
        if (!truthy(this.authenticated)) return notAuthenticated("fund the account");
        if (le(amount!, 0)) return rec({ error: "Funding amount must be positive." });
        this.account_info.set("balance", add(this.balance(), amount!));
        this.transaction_history.push(rec({ type: "deposit", amount: amount!, timestamp: this.timestamp() }));
        return rec({ status: "Account funded successfully", new_balance: this.balance() });
      }),
      remove_stock_from_watchlist: method(["symbol"], ([symbol]) => {
        if (!truthy(this.authenticated)) return notAuthenticated("modify the watchlist");
        if (!contains(this.watch_list, symbol!)) return rec({ error: `Stock ${str(symbol!)} not found in watchlist.` });
        this.watch_list.splice(
          this.watch_list.findIndex((s) => eq(s, symbol!)),
          1,
        );
        return rec({ status: `Stock ${str(symbol!)} removed from watchlist successfully.` });
      }),
      get_watchlist: method([], () => {
        if (!truthy(this.authenticated)) return ["Error: User not authenticated. Please log in to view the watchlist."];
        if (this.longContextOn) return [...this.watch_list, ...longContext().WATCH_LIST_EXTENSION];
        return rec({ watchlist: this.watch_list });
      }),
      get_order_history: method([], () => {
        if (!truthy(this.authenticated))
          return [rec({ error: "User not authenticated. Please log in to view order history." })];
        return rec({ history: [...this.orders.keys()] });
      }),
      get_transaction_history: method(
        [
          ["start_date", null],
          ["end_date", null],
        ],
        ([startDate, endDate]) => {
          if (!truthy(this.authenticated))
            return [rec({ error: "User not authenticated. Please log in to view transaction history." })];
          const start = truthy(startDate!) ? strptime(asStr(startDate), false) : -Infinity;
          const end = truthy(endDate!) ? strptime(asStr(endDate), false) : Infinity;
          const filtered = this.transaction_history.filter((t) => {
            const at = strptime(asStr(getItem(t, "timestamp")), true);
            return start <= at && at <= end;
          });
          if (this.longContextOn) filtered.push(...longContext().TRANSACTION_HISTORY_EXTENSION);
          return rec({ transaction_history: filtered });
        },
      ),
      get_available_stocks: method(["sector"], ([sector]) => {
        const sectors: Record<string, V[]> = {
          Technology: ["AAPL", "GOOG", "MSFT", "NVDA"],
          Automobile: ["TSLA", "F", "GM"],
        };
        if (this.longContextOn) {
          sectors.Technology!.push(...longContext().TECHNOLOGY_EXTENSION);
          sectors.Automobile!.push(...longContext().AUTOMOBILE_EXTENSION);
        }
        return rec({ stock_list: sectors[sector as string] ?? [] });
      }),
      filter_stocks_by_price: method(["stocks", "min_price", "max_price"], ([stocks, minPrice, maxPrice]) => {
        const price = (symbol: V): V => {
          const info = this.stocks.get(key(symbol));
          return info === undefined ? 0 : dget(asDict(info), "price", 0);
        };
        return rec({
          filtered_stocks: asList(stocks).filter((s) => ge(price(s), minPrice!) && le(price(s), maxPrice!)),
        });
      }),
      add_to_watchlist: method(["stock"], ([symbol]) => {
        if (!contains(this.watch_list, symbol!) && contains(this.stocks, symbol!)) this.watch_list.push(symbol!);
        return rec({ watchlist: this.watch_list });
      }),
      notify_price_change: method(["stocks", "threshold"], ([stocks, threshold]) => {
        const changed = asList(stocks).filter(
          (s) =>
            contains(this.stocks, s) &&
            ge(f(Math.abs(num(getItem(getItem(this.stocks, s), "percent_change")))), threshold!),
        );
        if (changed.length > 0)
          return rec({
            notification: `Stocks ${changed.map((s) => str(s)).join(", ")} have significant price changes.`,
          });
        return rec({ notification: "No significant price changes in the selected stocks." });
      }),
    };
  }
}
