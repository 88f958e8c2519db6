import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";

describe("WA_WEB_VERSION", () => {
  it("is unset by default: the Baileys sessions announce the version bundled with Baileys", () => {
    expect(loadConfig({}).WA_WEB_VERSION).toBeUndefined();
    expect(loadConfig({ WA_WEB_VERSION: "" }).WA_WEB_VERSION).toBeUndefined();
  });

  it("reads a version as WhatsApp writes it into the three numbers Baileys takes", () => {
    expect(loadConfig({ WA_WEB_VERSION: "2.3000.1023223821" }).WA_WEB_VERSION).toStrictEqual([
      2, 3000, 1023223821,
    ]);
    expect(loadConfig({ WA_WEB_VERSION: " 2.3000.1 " }).WA_WEB_VERSION).toStrictEqual([2, 3000, 1]);
  });

  it.each(["2.3000", "2.3000.1023223821.1", "v2.3000.1", "2,3000,1", "2.3000.x", "latest"])(
    "refuses %j at start, naming the variable",
    (value) => {
      expect(() => loadConfig({ WA_WEB_VERSION: value })).toThrow(
        /Invalid configuration: WA_WEB_VERSION: three numbers/,
      );
    },
  );
});
