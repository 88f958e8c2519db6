import { ERROR_CATALOGUES, ERRORS, LANGS } from "@atende/contracts";
import { describe, expect, it } from "vitest";

describe("the ERR_* catalogue (contracts/errors)", () => {
  it("names each code in one domain file only, so no spread hides another's text", () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [catalogue, codes] of Object.entries(ERROR_CATALOGUES)) {
      for (const code of Object.keys(codes)) {
        const first = seen.get(code);
        if (first) twice.push(`${code} in ${first} and ${catalogue}`);
        seen.set(code, catalogue);
      }
    }
    expect(twice).toEqual([]);
    expect(Object.keys(ERRORS).sort()).toEqual([...seen.keys()].sort());
  });

  it("gives every code a 4xx (or the two 5xx it allows), an ERR_ name and a text in pt, en and es", () => {
    for (const [code, def] of Object.entries(ERRORS)) {
      expect(code).toMatch(/^ERR_[A-Z0-9_]+$/);
      if (code !== "ERR_INTERNAL" && code !== "ERR_DATABASE_UNAVAILABLE") {
        expect(def.status, code).toBeGreaterThanOrEqual(400);
        expect(def.status, code).toBeLessThan(500);
      }
      for (const lang of LANGS) expect(def[lang].trim().length, `${code} ${lang}`).toBeGreaterThan(0);
    }
  });
});
