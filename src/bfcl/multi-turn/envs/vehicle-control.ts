/** BFCL's VehicleControlAPI: engine, doors, fuel, brakes, climate, cruise control, navigation. */

import { Environment, type Method, method } from "../environment.ts";
import { longContext } from "../long-context.ts";
import {
  add,
  asDict,
  asList,
  dget,
  div,
  eq,
  f,
  getItem,
  gt,
  key,
  le,
  lt,
  mul,
  num,
  type PyDict,
  rec,
  sub,
  toFloat,
  truthy,
  type V,
} from "../py.ts";
import { PyRandom } from "../py-random.ts";

const MAX_FUEL_LEVEL = 50;
const MIN_FUEL_LEVEL = f(0);
const MILE_PER_GALLON = f(20);

const DEFAULT_STATE = (): PyDict =>
  rec({
    random_seed: 141053,
    fuelLevel: f(0),
    batteryVoltage: f(12.6),
    engine_state: "stopped",
    remainingUnlockedDoors: 4,
    doorStatus: rec({ driver: "unlocked", passenger: "unlocked", rear_left: "unlocked", rear_right: "unlocked" }),
    acTemperature: f(25),
    fanSpeed: 50,
    acMode: "auto",
    humidityLevel: f(50),
    headLightStatus: "off",
    parkingBrakeStatus: "released",
    _parkingBrakeForce: f(0),
    _slopeAngle: f(0),
    brakePedalStatus: "released",
    brakePedalForce: f(0),
    distanceToNextVehicle: f(50),
    cruiseStatus: "inactive",
    destination: "None",
    frontLeftTirePressure: f(32),
    frontRightTirePressure: f(32),
    rearLeftTirePressure: f(30),
    rearRightTirePressure: f(30),
  });

/** Distances between zip codes, either way round. */
const DISTANCES: readonly (readonly [string, string, number])[] = [
  ["83214", "74532", 750],
  ["56108", "62947", 320],
  ["71354", "83462", 450],
  ["47329", "52013", 290],
  ["69238", "51479", 630],
  ["94016", "83214", 980],
  ["94016", "94704", 600],
  ["94704", "08540", 2550],
  ["94016", "08540", 1950],
  ["62947", "47329", 1053],
  ["94016", "62947", 780],
  ["74532", "94016", 880],
];

const ZIP_CODES: Record<string, string> = {
  Rivermist: "83214",
  Stonebrook: "74532",
  Maplecrest: "56108",
  Silverpine: "62947",
  Shadowridge: "71354",
  "Sunset Valley": "83462",
  Oakendale: "47329",
  Willowbend: "52013",
  "Crescent Hollow": "69238",
  Autumnville: "51479",
  "San Francisco": "94016",
};

/** The state's attribute names as BFCL's `_load_scenario` reads them from the config. */
const CONFIG_KEYS: readonly (readonly [attribute: string, configKey: string, defaultKey: string])[] = [
  ["fuelLevel", "fuelLevel", "fuelLevel"],
  ["batteryVoltage", "batteryVoltage", "batteryVoltage"],
  ["engine_state", "engineState", "engine_state"],
  ["remainingUnlockedDoors", "remainingUnlockedDoors", "remainingUnlockedDoors"],
  ["doorStatus", "doorStatus", "doorStatus"],
  ["acTemperature", "acTemperature", "acTemperature"],
  ["fanSpeed", "fanSpeed", "fanSpeed"],
  ["acMode", "acMode", "acMode"],
  ["humidityLevel", "humidityLevel", "humidityLevel"],
  ["headLightStatus", "headLightStatus", "headLightStatus"],
  ["parkingBrakeStatus", "parkingBrakeStatus", "parkingBrakeStatus"],
  ["_parkingBrakeForce", "parkingBrakeForce", "_parkingBrakeForce"],
  ["_slopeAngle", "slopeAngle", "_slopeAngle"],
  ["brakePedalStatus", "brakePedalStatus", "brakePedalStatus"],
  ["_brakePedalForce", "brakePedalForce", "brakePedalForce"],
  ["distanceToNextVehicle", "distanceToNextVehicle", "distanceToNextVehicle"],
  ["cruiseStatus", "cruiseStatus", "cruiseStatus"],
  ["destination", "destination", "destination"],
  ["frontLeftTirePressure", "frontLeftTirePressure", "frontLeftTirePressure"],
  ["frontRightTirePressure", "frontRightTirePressure", "frontRightTirePressure"],
  ["rearLeftTirePressure", "rearLeftTirePressure", "rearLeftTirePressure"],
  ["rearRightTirePressure", "rearRightTirePressure", "rearRightTirePressure"],
];

export class VehicleControlAPI extends Environment {
  readonly className = "VehicleControlAPI";
  /** Every attribute, underscore ones included, in the order `_load_scenario` sets them. */
  private readonly state = new Map<string, V>();
  private random = new PyRandom(141053);
  private longContextOn = false;

  loadScenario(config: PyDict, longContextOn: boolean): void {
    const defaults = DEFAULT_STATE();
    this.random = new PyRandom(num(dget(config, "random_seed", 141053)));
    this.state.clear();
    for (const [attribute, configKey, defaultKey] of CONFIG_KEYS) {
      this.state.set(attribute, dget(config, configKey, defaults.get(defaultKey)!));
      if (attribute === "doorStatus") {
        const doors = asDict(this.state.get("doorStatus"));
        this.state.set("remainingUnlockedDoors", 4 - [...doors.values()].filter((s) => s === "locked").length);
      }
    }
    this.longContextOn = longContextOn;
  }

  private get(name: string): V {
    return this.state.get(name) ?? null;
  }

  private set(name: string, value: V): void {
    this.state.set(name, value);
  }

  publicState(): ReadonlyArray<readonly [string, V]> {
    return [
      ...[...this.state].filter(([name]) => !name.startsWith("_")),
      ["long_context", this.longContextOn] as const,
    ];
  }

  protected defineMethods(): Record<string, Method> {
    const doors = (): PyDict => asDict(this.get("doorStatus"));
    return {
      startEngine: method(["ignitionMode"], ([mode]) => {
        if (mode === "STOP") this.set("engine_state", "stopped");
        if (gt(this.get("remainingUnlockedDoors"), 0)) {
          const unlocked = [...doors()].filter(([, s]) => s === "unlocked").map(([door]) => door as string);
          return rec({
            error: `All doors must be locked before starting the engine. Here are the unlocked doors: ${unlocked.join(", ")}`,
          });
        }
        if (this.get("brakePedalStatus") !== "pressed")
          return rec({ error: "Brake pedal needs to be pressed when starting the engine." });
        if (!eq(this.get("_brakePedalForce"), f(1000)))
          return rec({ error: "Must press the brake fully before starting the engine." });
        if (lt(this.get("fuelLevel"), MIN_FUEL_LEVEL)) return rec({ error: "Fuel tank is empty." });
        if (mode !== "START") return rec({ error: "Invalid ignition mode." });
        this.set("engine_state", "running");
        return rec({
          engineState: this.get("engine_state"),
          fuelLevel: this.get("fuelLevel"),
          batteryVoltage: this.get("batteryVoltage"),
        });
      }),
      fillFuelTank: method(["fuelAmount"], ([amount]) => {
        if (lt(amount!, 0)) return rec({ error: "Fuel amount cannot be negative." });
        const after = add(this.get("fuelLevel"), amount!);
        if (gt(after, MAX_FUEL_LEVEL)) return rec({ error: "Cannot fill gas above the tank capacity." });
        if (lt(after, MIN_FUEL_LEVEL)) return rec({ error: "Fuel tank is empty. Min fuel level is 0 gallons." });
        this.set("fuelLevel", after);
        return rec({ fuelLevel: after });
      }),
      lockDoors: method(["unlock", "door"], ([unlock, door]) => {
        const [to, delta] = truthy(unlock!) ? ["unlocked", 1] : ["locked", -1];
        for (const d of asList(door)) {
          if (getItem(doors(), d) === to) continue;
          doors().set(key(d), to);
          this.set("remainingUnlockedDoors", add(this.get("remainingUnlockedDoors"), delta));
        }
        return rec({ lockStatus: to, remainingUnlockedDoors: this.get("remainingUnlockedDoors") });
      }),
      adjustClimateControl: method(
        ["temperature", ["unit", "celsius"], ["fanSpeed", 50], ["mode", "auto"]],
        ([temperature, unit, fanSpeed, mode]) => {
          if (!(le(0, fanSpeed!) && le(fanSpeed!, 100))) return rec({ error: "Fan speed must be between 0 and 100." });
          this.set("acTemperature", temperature!);
          if (unit === "fahrenheit") this.set("acTemperature", div(mul(sub(temperature!, 32), 5), 9));
          this.set("fanSpeed", fanSpeed!);
          this.set("acMode", mode!);
          return rec({
            currentACTemperature: temperature!,
            climateMode: mode!,
            humidityLevel: this.get("humidityLevel"),
          });
        },
      ),
      get_outside_temperature_from_google: method([], () => {
        if (this.longContextOn) {
          const weather = longContext().LONG_WEATHER_EXTENSION;
          weather.set("outsideTemperature", f(this.random.uniform(-10, 40)));
          return weather;
        }
        return rec({ outsideTemperature: f(this.random.uniform(-10, 40)) });
      }),
      get_outside_temperature_from_weather_com: method([], () => rec({ error: 404 })),
      setHeadlights: method(["mode"], ([mode]) => {
        if (!(mode === "on" || mode === "off" || mode === "auto")) return rec({ error: "Invalid headlight mode." });
        const status = mode === "on" ? "on" : "off";
        this.set("headLightStatus", status);
        return rec({ headlightStatus: status });
      }),
      displayCarStatus: method(["option"], ([option]) => {
        const status = rec({});
        if (this.longContextOn) status.set("metadata", longContext().CAR_STATUS_METADATA_EXTENSION);
        const show: Record<string, readonly (readonly [string, string])[]> = {
          fuel: [["fuelLevel", "fuelLevel"]],
          battery: [["batteryVoltage", "batteryVoltage"]],
          doors: [["doorStatus", "doorStatus"]],
          climate: [
            ["currentACTemperature", "acTemperature"],
            ["fanSpeed", "fanSpeed"],
            ["climateMode", "acMode"],
            ["humidityLevel", "humidityLevel"],
          ],
          headlights: [["headlightStatus", "headLightStatus"]],
          parkingBrake: [
            ["parkingBrakeStatus", "parkingBrakeStatus"],
            ["parkingBrakeForce", "_parkingBrakeForce"],
            ["slopeAngle", "_slopeAngle"],
          ],
          brakePedal: [
            ["brakePedalStatus", "brakePedalStatus"],
            ["brakePedalForce", "_brakePedalForce"],
          ],
          engine: [["engineState", "engine_state"]],
        };
        const fields = typeof option === "string" && Object.hasOwn(show, option) ? show[option] : undefined;
        if (fields) for (const [name, attribute] of fields) status.set(name, this.get(attribute));
        else status.set("error", "Invalid option");
        return status;
      }),
      activateParkingBrake: method(["mode"], ([mode]) => {
        if (!(mode === "engage" || mode === "release")) return rec({ error: "Invalid mode" });
        const status = mode === "engage" ? "engaged" : "released";
        const force = f(mode === "engage" ? 500 : 0);
        this.set("parkingBrakeStatus", status);
        this.set("_parkingBrakeForce", force);
        this.set("_slopeAngle", f(10));
        const result = rec({});
        if (this.longContextOn) result.set("parkingBrakeInstruction", longContext().PARKING_BRAKE_INSTRUCTION);
        result.set("parkingBrakeStatus", status);
        result.set("_parkingBrakeForce", force);
        result.set("_slopeAngle", f(10));
        return result;
      }),
      pressBrakePedal: method(["pedalPosition"], ([position]) => {
        if (!(le(0, position!) && le(position!, 1))) return rec({ error: "Pedal position must be between 0 and 1." });
        if (eq(position!, 0)) {
          this.set("brakePedalStatus", "released");
          this.set("_brakePedalForce", f(0));
          return rec({ brakePedalStatus: "released", brakePedalForce: f(0) });
        }
        const force = mul(position!, 1000);
        this.set("brakePedalStatus", "pressed");
        this.set("_brakePedalForce", force);
        return rec({ brakePedalStatus: "pressed", brakePedalForce: toFloat(force) });
      }),
      releaseBrakePedal: method([], () => {
        this.set("brakePedalStatus", "released");
        this.set("_brakePedalForce", f(0));
        return rec({ brakePedalStatus: "released", brakePedalForce: f(0) });
      }),
      setCruiseControl: method(["speed", "activate", "distanceToNextVehicle"], ([speedArg, activate, distanceArg]) => {
        const distance = toFloat(distanceArg!);
        const speed = toFloat(speedArg!);
        if (this.get("engine_state") === "stopped")
          return rec({ error: "Start the engine before activating the cruise control." });
        this.set("distanceToNextVehicle", distance);
        if (truthy(activate!)) {
          if (speed.value < 0 || speed.value > 120 || pyMod(speed.value, 5) !== 0)
            return rec({ error: "Invalid speed" });
          this.set("cruiseStatus", "active");
          return rec({ cruiseStatus: "active", currentSpeed: speed, distanceToNextVehicle: distance });
        }
        this.set("cruiseStatus", "inactive");
        return rec({ cruiseStatus: "inactive", currentSpeed: speed, distanceToNextVehicle: distance });
      }),
      get_current_speed: method([], () => rec({ currentSpeed: f(this.random.uniform(0, 120)) })),
      display_log: method(["messages"], ([messages]) => rec({ log: messages! })),
      estimate_drive_feasibility_by_mileage: method(["distance"], ([distance]) =>
        rec({ canDrive: !lt(mul(this.get("fuelLevel"), MILE_PER_GALLON), distance!) }),
      ),
      liter_to_gallon: method(["liter"], ([liter]) => rec({ gallon: mul(liter!, f(0.264172)) })),
      gallon_to_liter: method(["gallon"], ([gallon]) => rec({ liter: mul(gallon!, f(3.78541)) })),
      estimate_distance: method(["cityA", "cityB"], ([a, b]) => {
        const hit = DISTANCES.find(([x, y]) => (a === x && b === y) || (a === y && b === x));
        const distance = hit ? rec({ distance: f(hit[2]) }) : rec({ error: "distance not found in database." });
        if (this.longContextOn) distance.set("intermediaryCities", longContext().INTERMEDIARY_CITIES);
        return distance;
      }),
      get_zipcode_based_on_city: method(["city"], ([city]) =>
        rec({ zipcode: (typeof city === "string" && Object.hasOwn(ZIP_CODES, city) ? ZIP_CODES[city] : "00000")! }),
      ),
      set_navigation: method(["destination"], ([destination]) => {
        this.set("destination", destination!);
        return rec({ status: `Navigating to ${destination as string}` });
      }),
      check_tire_pressure: method([], () => {
        const tires = [
          "frontLeftTirePressure",
          "frontRightTirePressure",
          "rearLeftTirePressure",
          "rearRightTirePressure",
        ];
        const average = div(
          tires.map((t) => this.get(t)).reduce((s, p) => add(s, p)),
          4,
        );
        const status = rec({});
        for (const t of tires) status.set(t, this.get(t));
        status.set("healthy_tire_pressure", le(30, average) && le(average, 35));
        status.set("car_info", this.longContextOn ? longContext().CAR_STATUS_METADATA_EXTENSION : rec({}));
        return status;
      }),
      find_nearest_tire_shop: method([], () => rec({ shopLocation: "456 Oakwood Avenue, Rivermist, 83214" })),
    };
  }
}

/** Python's float `%`: the result takes the divisor's sign. */
function pyMod(a: number, b: number): number {
  const r = a % b;
  return r !== 0 && r < 0 !== b < 0 ? r + b : r;
}
