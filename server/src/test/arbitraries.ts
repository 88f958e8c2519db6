import fc from "fast-check";
import type { ZodType } from "zod";

/**
 * fast-check arbitraries from zod 4 schemas, for the guard suite: values of the schema's input
 * side (what a client sends), mostly valid, covering the kinds contracts uses. Strings and arrays
 * stay short; a kind not listed here gets any JSON value (still a fair input to refuse).
 */
interface Def {
  type: string;
  [key: string]: unknown;
}
interface CheckDef {
  check: string;
  [key: string]: unknown;
}

const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def): CheckDef[] =>
  ((def.checks as { _zod: { def: CheckDef } }[] | undefined) ?? []).map((c) => c._zod.def);

const MAX_TEXT = 60;

function stringArb(def: Def): fc.Arbitrary<string> {
  let minLength = 0;
  let maxLength = MAX_TEXT;
  let arb: fc.Arbitrary<string> | null = null;
  // z.email(), z.uuid()...: the format is the schema's own check.
  const own = def.check === "string_format" ? [def as unknown as CheckDef] : [];
  for (const c of [...own, ...checksOf(def)]) {
    if (c.check === "min_length") minLength = c.minimum as number;
    else if (c.check === "max_length") maxLength = Math.min(maxLength, c.maximum as number);
    else if (c.check === "length_equals") minLength = maxLength = c.length as number;
    else if (c.check === "string_format") {
      const format = c.format as string;
      if (format === "email") arb = fc.stringMatching(/^[a-z][a-z0-9]{0,8}@[a-z]{1,8}\.(com|br)$/);
      else if (format === "uuid" || format === "guid") arb = fc.uuid();
      else if (format === "regex" && c.pattern instanceof RegExp)
        // fast-check takes no flags: the case-sensitive pattern matches a subset, still valid.
        arb = fc.stringMatching(new RegExp(c.pattern.source)).filter((s) => s.length <= 200);
      else if (format === "datetime") arb = fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      else if (format === "date")
        arb = fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    }
  }
  maxLength = Math.max(minLength, maxLength);
  return arb ?? fc.string({ minLength, maxLength, unit: "grapheme" });
}

function numberArb(def: Def): fc.Arbitrary<number> {
  let min = -1_000_000;
  let max = 1_000_000;
  let integer = false;
  for (const c of checksOf(def)) {
    if (c.check === "greater_than") min = Math.max(min, (c.value as number) + (c.inclusive ? 0 : 1));
    else if (c.check === "less_than") max = Math.min(max, (c.value as number) - (c.inclusive ? 0 : 1));
    else if (c.check === "number_format") integer = true;
  }
  if (min > max) max = min;
  return integer ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
}

export function arbitraryOf(schema: ZodType): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case "object": {
      const shape = def.shape as Record<string, ZodType>;
      const required = Object.keys(shape).filter(
        (k) => !["optional", "default"].includes(defOf(shape[k]).type),
      );
      return fc.record(Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, arbitraryOf(v)])), {
        requiredKeys: required,
      });
    }
    case "string":
      return stringArb(def);
    case "number":
      return numberArb(def);
    case "int":
      return fc.integer({ min: 1, max: 1000 });
    case "bigint":
      return fc.bigInt();
    case "boolean":
      return fc.boolean();
    case "date":
      return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
    case "enum":
      return fc.constantFrom(...Object.values(def.entries as Record<string, string | number>));
    case "literal":
      return fc.constantFrom(...(def.values as unknown[]));
    case "null":
      return fc.constant(null);
    case "array": {
      const checks = checksOf(def);
      const min = (checks.find((c) => c.check === "min_length")?.minimum as number | undefined) ?? 0;
      const max = (checks.find((c) => c.check === "max_length")?.maximum as number | undefined) ?? 5;
      return fc.array(arbitraryOf(def.element as ZodType), {
        minLength: min,
        maxLength: Math.max(min, Math.min(max, 5)),
      });
    }
    case "tuple":
      return fc.tuple(...(def.items as ZodType[]).map(arbitraryOf));
    case "record":
      return fc.dictionary(
        fc.string({ minLength: 1, maxLength: 10 }),
        arbitraryOf(def.valueType as ZodType),
        {
          maxKeys: 5,
        },
      );
    case "union":
      return fc.oneof(...(def.options as ZodType[]).map(arbitraryOf));
    case "optional":
    case "default":
    case "prefault":
      return fc.option(arbitraryOf(def.innerType as ZodType), { nil: undefined, freq: 4 });
    case "nullable":
      return fc.option(arbitraryOf(def.innerType as ZodType), { nil: null, freq: 4 });
    case "catch":
    case "readonly":
    case "nonoptional":
      return arbitraryOf(def.innerType as ZodType);
    case "lazy":
      return arbitraryOf((def.getter as () => ZodType)());
    case "pipe": {
      // A preprocess's input is anything its function takes: generate what comes out of it.
      // A string piped into a stricter string (an email): the stricter one.
      const input = def.in as ZodType;
      const output = def.out as ZodType;
      const inType = defOf(input).type;
      return inType === "transform" || inType === defOf(output).type
        ? arbitraryOf(output)
        : arbitraryOf(input);
    }
    default:
      return fc.jsonValue();
  }
}

/** A value the schema accepts, if the arbitrary finds one in a few tries. */
export function validSample(schema: ZodType): unknown {
  for (const value of fc.sample(arbitraryOf(schema), { numRuns: 40, seed: 42 }))
    if (schema.safeParse(value).success) return value;
  return undefined;
}
