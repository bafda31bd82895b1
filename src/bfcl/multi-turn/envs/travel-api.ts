/** BFCL's TravelAPI (travel_booking): a token, credit cards, flight costs, bookings, insurance. */

import { Environment, type Method, method } from "../environment.ts";
import { longContext } from "../long-context.ts";
import {
  add,
  asDict,
  asStr,
  contains,
  deepCopy,
  dget,
  dict,
  div,
  eq,
  f,
  getItem,
  key,
  lt,
  mul,
  num,
  type PyDict,
  PyException,
  pyRound,
  rec,
  repr,
  str,
  sub,
  toFloat,
  type V,
} from "../py.ts";
import { PyRandom } from "../py-random.ts";
import { strptime } from "./dates.ts";

/** BFCL's base costs, "FROM-TO:cost", in its dict's order (the long-context cost list follows it). */
const ROUTES: readonly (readonly [string, string, number])[] = [
  "SFO-LAX:200 SFO-JFK:500 SFO-ORD:400 SFO-BOS:450 SFO-RMS:300 SFO-SBK:350 SFO-MPC:370 SFO-SVP:320",
  "SFO-SHD:330 SFO-SSV:340 SFO-OKD:360 SFO-WLB:310 SFO-CRH:380 SFO-ATV:390 SFO-PHV:420 SFO-GFD:430",
  "SFO-CIA:700 LAX-SFO:100 LAX-JFK:600 LAX-ORD:500 LAX-BOS:550 LAX-RMS:310 LAX-SBK:320 LAX-MPC:330",
  "LAX-SVP:340 LAX-SHD:350 LAX-SSV:360 LAX-OKD:370 LAX-WLB:380 LAX-CRH:390 LAX-ATV:400 LAX-PHV:410",
  "LAX-GFD:420 LAX-HND:430 JFK-ORD:300 JFK-BOS:250 JFK-RMS:450 JFK-SBK:460 JFK-MPC:470 JFK-SVP:480",
  "JFK-SHD:490 JFK-SSV:500 JFK-OKD:510 JFK-WLB:520 JFK-CRH:530 JFK-ATV:540 JFK-PHV:550 JFK-GFD:560",
  "JFK-LAX:570 JFK-HND:800 JFK-PVG:950 JFK-PEK:1000 ORD-LAX:180 ORD-BOS:200 ORD-RMS:350 ORD-SBK:360",
  "ORD-MPC:370 ORD-SVP:380 ORD-SHD:390 ORD-SSV:400 ORD-OKD:410 ORD-WLB:420 ORD-CRH:430 ORD-ATV:440",
  "ORD-PHV:450 ORD-GFD:460 BOS-RMS:400 BOS-SBK:410 BOS-MPC:420 BOS-SVP:430 BOS-SHD:440 BOS-SSV:450",
  "BOS-OKD:460 BOS-WLB:470 BOS-CRH:480 BOS-ATV:490 BOS-PHV:500 BOS-GFD:510 RMS-BOS:200 RMS-JFK:210",
  "RMS-SBK:220 RMS-MPC:230 RMS-SVP:240 RMS-SHD:250 RMS-SSV:260 RMS-OKD:270 RMS-WLB:280 RMS-CRH:290",
  "RMS-ATV:300 RMS-PHV:310 RMS-GFD:320 RMS-LAX:330 SBK-MPC:200 SBK-SVP:210 SBK-SHD:220 SBK-SSV:230",
  "SBK-OKD:240 SBK-WLB:250 SBK-CRH:260 SBK-ATV:270 SBK-PHV:280 SBK-GFD:290 MPC-SVP:210 MPC-SHD:220",
  "MPC-SSV:230 MPC-OKD:240 MPC-WLB:250 MPC-CRH:260 MPC-ATV:270 MPC-PHV:280 MPC-GFD:290 SVP-SHD:230",
  "SVP-SSV:240 SVP-OKD:250 SVP-WLB:260 SVP-CRH:270 SVP-ATV:280 SVP-PHV:290 SVP-GFD:300 SHD-SSV:220",
  "SHD-OKD:230 SHD-WLB:240 SHD-CRH:250 SHD-ATV:260 SHD-PHV:270 SHD-GFD:280 SSV-OKD:240 SSV-WLB:250",
  "SSV-CRH:260 SSV-ATV:270 SSV-PHV:280 SSV-GFD:290 OKD-WLB:230 OKD-CRH:240 OKD-ATV:250 OKD-PHV:260",
  "OKD-GFD:270 WLB-CRH:250 WLB-ATV:260 WLB-PHV:270 WLB-GFD:280 CRH-ATV:240 CRH-PHV:250 CRH-GFD:260",
  "CRH-SFO:270 CRH-RMS:280 CRH-HKG:290 CRH-JFK:300 ATV-PHV:230 ATV-GFD:240 PHV-GFD:220 LHR-CDG:100",
  "OKD-LAX:220",
]
  .join(" ")
  .split(" ")
  .map((route) => {
    const [pair, cost] = route.split(":") as [string, string];
    const [from, to] = pair.split("-") as [string, string];
    return [from, to, Number(cost)] as const;
  });

const AIRPORTS = [
  "RMS",
  "SBK",
  "MPC",
  "SVP",
  "SHD",
  "CDG",
  "LHR",
  "SSV",
  "OKD",
  "WLB",
  "PEK",
  "HND",
  "HKG",
  "CIA",
  "CRH",
  "ATV",
  "PHV",
  "GFD",
  "SFO",
  "LAX",
  "JFK",
  "ORD",
  "BOS",
];

const EXCHANGE_RATES: readonly (readonly [string, string, V])[] = [
  ["USD", "RMB", 7],
  ["USD", "EUR", f(0.8)],
  ["USD", "JPY", 110],
  ["USD", "GBP", f(0.7)],
  ["USD", "CAD", f(1.3)],
  ["USD", "AUD", f(1.4)],
  ["USD", "INR", 70],
  ["USD", "RUB", 60],
  ["USD", "BRL", f(3.8)],
  ["USD", "MXN", 20],
];

const NEAREST_AIRPORT: Record<string, string> = {
  Rivermist: "RMS",
  Stonebrook: "SBK",
  Maplecrest: "MPC",
  Silverpine: "SVP",
  Shadowridge: "SHD",
  London: "LHR",
  Paris: "CDG",
  "Sunset Valley": "SSV",
  Oakendale: "OKD",
  Willowbend: "WLB",
  "Crescent Hollow": "CRH",
  Autumnville: "ATV",
  Pinehaven: "PHV",
  Greenfield: "GFD",
  "San Francisco": "SFO",
  "Los Angeles": "LAX",
  "New York": "JFK",
  Chicago: "ORD",
  Boston: "BOS",
  Beijing: "PEK",
  "Hong Kong": "HKG",
  Rome: "CIA",
  Tokyo: "HND",
};

const CLASS_FACTOR: Record<string, number> = { economy: 1, business: 2, first: 5 };

export class TravelAPI extends Environment {
  readonly className = "TravelAPI";
  private random = new PyRandom(141053);
  credit_card_list: PyDict = dict();
  booking_record: PyDict = dict();
  access_token: V = null;
  token_type: V = null;
  token_expires_in: V = null;
  token_scope: V = null;
  user_first_name: V = null;
  user_last_name: V = null;
  budget_limit: V = null;
  private longContextOn = false;
  private flightCostLookup = dict();

  loadScenario(config: PyDict, longContextOn: boolean): void {
    this.random = new PyRandom(num(dget(config, "random_seed", 141053)));
    this.credit_card_list = asDict(dget(config, "credit_card_list", dict()));
    this.booking_record = asDict(dget(config, "booking_record", dict()));
    this.access_token = dget(config, "access_token", null);
    this.token_type = dget(config, "token_type", null);
    this.token_expires_in = dget(config, "token_expires_in", null);
    this.token_scope = dget(config, "token_scope", null);
    this.user_first_name = dget(config, "user_first_name", null);
    this.user_last_name = dget(config, "user_last_name", null);
    this.budget_limit = dget(config, "budget_limit", null);
    this.longContextOn = longContextOn;
    if (longContextOn) {
      // the module's own objects, not copies, as BFCL stores them
      for (const [id, card] of longContext().CREDIT_CARD_EXTENSION)
        if (!this.credit_card_list.has(id)) this.credit_card_list.set(id, card);
      for (const [id, booking] of longContext().BOOKING_RECORD_EXTENSION)
        if (!this.booking_record.has(id)) this.booking_record.set(id, booking);
    }
  }

  publicState(): ReadonlyArray<readonly [string, V]> {
    return [
      ...this.attributes([
        "credit_card_list",
        "booking_record",
        "access_token",
        "token_type",
        "token_expires_in",
        "token_scope",
        "user_first_name",
        "user_last_name",
        "budget_limit",
      ]),
      ["long_context", this.longContextOn],
    ];
  }

  private expired(): boolean {
    return eq(this.token_expires_in, 0);
  }

  private flightCost(from: V, to: V, date: V, travelClass: V): V {
    const route = ROUTES.find(([a, b]) => a === from && b === to);
    if (!route) throw new PyException("ValueError", "No available route for the given airports.");
    const factor = CLASS_FACTOR[travelClass as string];
    if (factor === undefined)
      throw new PyException("ValueError", "Invalid travel class. Options are: economy, business, first.");
    const digitSum = [...asStr(date)].filter((c) => /\d/.test(c)).reduce((s, c) => s + Number(c), 0);
    const dateFactor = digitSum % 2 === 0 ? 2 : 1;
    const lookupKey = (a: string, b: string): string => `${a}|${b}|${str(travelClass)}|${str(date)}`;
    if (this.longContextOn) {
      this.flightCostLookup = dict();
      const costs = ROUTES.map(([a, b, base]) => {
        const cost = f(base * factor * dateFactor);
        this.flightCostLookup.set(lookupKey(a, b), rec({ cost }));
        return cost;
      });
      return rec({ travel_cost_list: costs });
    }
    const cost = f(route[2] * factor * dateFactor);
    this.flightCostLookup = dict([[lookupKey(route[0], route[1]), rec({ cost })]]);
    return rec({ travel_cost_list: [cost] });
  }

  protected defineMethods(): Record<string, Method> {
    const card = (id: V): PyDict => asDict(getItem(this.credit_card_list, id));
    return {
      authenticate_travel: method(
        ["client_id", "client_secret", "refresh_token", "grant_type", "user_first_name", "user_last_name"],
        ([, , , grantType, firstName, lastName]) => {
          this.token_expires_in = 2;
          this.access_token = String(this.random.randint(100000, 999999));
          this.token_type = "Bearer";
          this.token_scope = grantType!;
          this.user_first_name = firstName!;
          this.user_last_name = lastName!;
          return rec({ expires_in: 2, access_token: this.access_token, token_type: "Bearer", scope: grantType! });
        },
      ),
      travel_get_login_status: method([], () =>
        rec({ status: !(this.token_expires_in === null || eq(this.token_expires_in, 0)) }),
      ),
      get_budget_fiscal_year: method(
        [
          ["lastModifiedAfter", null],
          ["includeRemoved", null],
        ],
        () => rec({ budget_fiscal_year: "2018" }),
      ),
      register_credit_card: method(
        ["access_token", "card_number", "expiration_date", "cardholder_name", "card_verification_number"],
        ([token, cardNumber, expiration, holder, cvv]) => {
          if (this.token_expires_in === null) return rec({ error: "Token not initialized" });
          if (this.expired()) return rec({ error: "Token expired" });
          if (!eq(token!, this.access_token)) return rec({ error: "Invalid access token" });
          if (contains(this.credit_card_list, cardNumber!)) return rec({ error: "Card already registered" });
          const cardId = String(this.random.randint(100000000000, 999999999999));
          this.credit_card_list.set(
            cardId,
            rec({
              card_number: cardNumber!,
              expiration_date: expiration!,
              cardholder_name: holder!,
              card_verification_number: cvv!,
              balance: this.random.randint(10000, 99999),
            }),
          );
          return rec({ card_id: cardId });
        },
      ),
      get_flight_cost: method(["travel_from", "travel_to", "travel_date", "travel_class"], ([from, to, date, cls]) =>
        this.flightCost(from!, to!, date!, cls!),
      ),
      get_credit_card_balance: method(["access_token", "card_id"], ([token, cardId]) => {
        if (this.expired()) return rec({ error: "Token expired" });
        if (!eq(token!, this.access_token)) return rec({ error: "Invalid access token" });
        if (!contains(this.credit_card_list, cardId!))
          return rec({
            error: `Card not registered. Here are a list of card_id's: ${repr([...this.credit_card_list.keys()])}`,
          });
        return rec({ card_balance: getItem(card(cardId!), "balance") });
      }),
      book_flight: method(
        ["access_token", "card_id", "travel_date", "travel_from", "travel_to", "travel_class"],
        ([token, cardId, date, from, to, cls]) => {
          const fail = (error: string): PyDict => rec({ booking_status: false, error });
          if (this.expired()) return fail("Token expired");
          if (!eq(token!, this.access_token)) return fail("Invalid access token");
          if (!contains(this.credit_card_list, cardId!)) return fail("Card not registered");
          if (!card(cardId!).has("balance")) return fail("Balance not found");
          if (!AIRPORTS.includes(from as string)) return fail(`Invalid departure airport code: ${str(from!)}`);
          if (!AIRPORTS.includes(to as string)) return fail(`Invalid destination airport code: ${str(to!)}`);
          try {
            strptime(asStr(date), false);
          } catch {
            return fail("Invalid date format. Use YYYY-MM-DD.");
          }
          if (!(cls === "economy" || cls === "business" || cls === "first"))
            // Python prints a set of three strings here, in an order that changes run to run
            return fail("Invalid travel class. Must be one of {'economy', 'business', 'first'}");
          let travelCost: V;
          try {
            this.flightCost(from!, to!, date!, cls!);
            const entry = this.flightCostLookup.get(`${str(from!)}|${str(to!)}|${str(cls!)}|${str(date!)}`);
            if (entry === undefined) return fail("No available route for the given parameters");
            travelCost = getItem(entry, "cost");
          } catch (error) {
            if (error instanceof PyException && error.pyType === "ValueError") return fail(error.message);
            throw error;
          }
          const balance = getItem(card(cardId!), "balance");
          if (lt(balance, travelCost)) return fail("Insufficient funds");
          if (this.budget_limit !== null && lt(balance, this.budget_limit))
            return fail("Balance is less than budget limit");
          card(cardId!).set("balance", sub(balance, travelCost));
          const bookingId = String(this.random.randint(1000000, 9999999));
          const transactionId = String(this.random.randint(10000000, 99999999));
          this.booking_record.set(
            bookingId,
            rec({
              card_id: cardId!,
              travel_date: date!,
              travel_from: from!,
              travel_to: to!,
              travel_class: cls!,
              travel_cost: travelCost,
              transaction_id: transactionId,
            }),
          );
          return rec({
            booking_id: bookingId,
            transaction_id: transactionId,
            booking_status: true,
            booking_history: this.longContextOn ? this.booking_record : dict(),
          });
        },
      ),
      retrieve_invoice: method(["access_token", ["booking_id", null], ["insurance_id", null]], ([token, bookingId]) => {
        if (this.expired()) return rec({ error: "Token expired" });
        if (!eq(token!, this.access_token)) return rec({ error: "Invalid access token" });
        if (!contains(this.booking_record, bookingId!)) return rec({ error: "Booking not found" });
        const booking = asDict(getItem(this.booking_record, bookingId!));
        const field = (name: string): V => getItem(booking, name);
        return rec({
          invoice: rec({
            booking_id: bookingId!,
            travel_date: field("travel_date"),
            travel_from: field("travel_from"),
            travel_to: field("travel_to"),
            travel_class: field("travel_class"),
            travel_cost: field("travel_cost"),
            transaction_id: field("transaction_id"),
          }),
        });
      }),
      get_booking_history: method(["access_token"], ([token]) => {
        if (this.expired()) return rec({ error: "Token expired" });
        if (!eq(token!, this.access_token)) return rec({ error: "Invalid access token" });
        return rec({ booking_history: deepCopy(this.booking_record) });
      }),
      list_all_airports: method([], () => [...AIRPORTS]),
      cancel_booking: method(["access_token", "booking_id"], ([token, bookingId]) => {
        if (this.expired()) return rec({ cancel_status: false, error: "Token expired" });
        if (!eq(token!, this.access_token)) return rec({ cancel_status: false, error: "Invalid access token" });
        if (!contains(this.booking_record, bookingId!))
          return rec({ cancel_status: false, error: "Booking not found" });
        const booking = asDict(getItem(this.booking_record, bookingId!));
        const cardId = getItem(booking, "card_id");
        card(cardId).set("balance", add(getItem(card(cardId), "balance"), getItem(booking, "travel_cost")));
        this.booking_record.delete(key(bookingId!));
        return rec({ cancel_status: true });
      }),
      compute_exchange_rate: method(["base_currency", "target_currency", "value"], ([base, target, value]) => {
        for (const [from, to, rate] of EXCHANGE_RATES) {
          if (base === from && target === to) return rec({ exchanged_value: toFloat(mul(value!, rate)) });
          if (base === to && target === from) return rec({ exchanged_value: pyRound(div(value!, rate), 2) });
        }
        throw new PyException("ValueError", "No available exchange rate for the given currencies.");
      }),
      verify_traveler_information: method(
        ["first_name", "last_name", "date_of_birth", "passport_number"],
        ([first, last, birth, passport]) => {
          const fail = (why: string): PyDict => rec({ verification_status: false, verification_failure: why });
          if (!eq(this.user_first_name, first!) || !eq(this.user_last_name, last!))
            return fail(
              `Cannot book flight information for another user.Expected ${str(this.user_first_name)} ${str(this.user_last_name)}, got ${str(first!)} ${str(last!)}`,
            );
          let born: Date;
          try {
            born = new Date(strptime(asStr(birth), false));
          } catch {
            return fail("Invalid date of birth format. Please use YYYY-MM-DD.");
          }
          const today = new Date();
          const beforeBirthday =
            today.getMonth() < born.getUTCMonth() ||
            (today.getMonth() === born.getUTCMonth() && today.getDate() < born.getUTCDate());
          const age = today.getFullYear() - born.getUTCFullYear() - (beforeBirthday ? 1 : 0);
          if (age < 18) return fail("Traveler must be at least 18 years old.");
          if (!asStr(passport).startsWith("US")) return fail("Passport must be issued by the United States.");
          return rec({ verification_status: true });
        },
      ),
      set_budget_limit: method(["access_token", "budget_limit"], ([token, limit]) => {
        if (this.expired()) return rec({ error: "Token expired" });
        if (!eq(token!, this.access_token)) return rec({ error: "Invalid access token" });
        this.budget_limit = toFloat(limit!);
        return rec({ budget_limit: this.budget_limit });
      }),
      get_nearest_airport_by_city: method(["location"], ([location]) =>
        rec({ nearest_airport: NEAREST_AIRPORT[location as string] ?? "Unknown" }),
      ),
      purchase_insurance: method(
        ["access_token", "insurance_type", "booking_id", "insurance_cost", "card_id"],
        ([token, , bookingId, cost, cardId]) => {
          const fail = (error: string): PyDict => rec({ insurance_status: false, error });
          if (this.expired()) return fail("Token expired");
          if (!eq(token!, this.access_token)) return fail("Invalid access token");
          if (this.budget_limit !== null && lt(this.budget_limit, cost!)) return fail("Exceeded budget limit");
          if (!contains(this.booking_record, bookingId!)) return fail("Booking not found");
          if (!contains(this.credit_card_list, cardId!)) return fail("Credit card not registered");
          card(cardId!).set("balance", sub(getItem(card(cardId!), "balance"), cost!));
          return rec({ insurance_id: String(this.random.randint(100000000, 999999999)), insurance_status: true });
        },
      ),
      contact_customer_support: method(["booking_id", "message"], ([bookingId]) => {
        if (!contains(this.booking_record, bookingId!)) return rec({ error: "Booking not found" });
        return rec({
          customer_support_message:
            "Thank you for contacting customer support. Your message has been received and we will get back to you shortly.",
        });
      }),
      get_all_credit_cards: method([], () => rec({ credit_card_list: this.credit_card_list })),
    };
  }
}
