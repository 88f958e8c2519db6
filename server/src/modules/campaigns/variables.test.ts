import { describe, expect, it } from "vitest";
import {
  CAMPAIGN_SETTINGS_DEFAULTS,
  addCampaignVariable,
  fillCampaignVariables,
  isCampaignEditable,
  isOptOutAnswer,
  readCampaignSettings,
} from "@atende/contracts";
import { nextDay, pickVariant, startOfDay, waitAfterSend, windowOpening } from "./variables.js";

/** The sender's pure decisions with a pinned random and clock. */

const variants = {
  message1: "um",
  message2: "",
  message3: "três",
  message4: "  ",
  message5: "cinco",
  confirmationMessage1: "",
  confirmationMessage2: "",
  confirmationMessage3: "",
  confirmationMessage4: "",
  confirmationMessage5: "",
};

describe("campaign variants", () => {
  it("picks only non-empty variants, each for its share of the random range", () => {
    expect(pickVariant(variants, "message", () => 0)).toEqual({ index: 1, text: "um" });
    expect(pickVariant(variants, "message", () => 0.4)).toEqual({ index: 3, text: "três" });
    expect(pickVariant(variants, "message", () => 0.7)).toEqual({ index: 5, text: "cinco" });
    expect(pickVariant(variants, "message", () => 0.999999)).toEqual({ index: 5, text: "cinco" });
    expect(pickVariant(variants, "confirmationMessage", () => 0.5)).toBeNull();
  });
});

describe("campaign waits", () => {
  const settings = { messageInterval: 20, longerIntervalAfter: 3, greaterInterval: 60 };
  it("is random in 0..messageInterval, and greaterInterval after every longerIntervalAfter sends", () => {
    expect(waitAfterSend(1, settings, () => 0)).toBe(0);
    expect(waitAfterSend(2, settings, () => 0.999)).toBe(20);
    expect(waitAfterSend(4, settings, () => 0.5)).toBe(10);
    expect(waitAfterSend(3, settings, () => 0)).toBe(60);
    expect(waitAfterSend(6, settings, () => 0.9)).toBe(60);
    expect(waitAfterSend(3, { ...settings, longerIntervalAfter: 0 }, () => 0.5)).toBe(10);
    expect(waitAfterSend(5, { ...settings, messageInterval: 0 }, () => 0.99)).toBe(0);
  });
});

describe("campaign variables", () => {
  it("fills {nome} {numero} {email} and custom variables; an empty one leaves nothing behind", () => {
    const vars = [{ key: "loja", value: "Centro" }];
    expect(
      fillCampaignVariables("Olá {nome}, {loja} ({numero})", { name: "Ana", number: "5511" }, vars),
    ).toBe("Olá Ana, Centro (5511)");
    expect(fillCampaignVariables("Olá {nome}, tudo bem?", { name: "" })).toBe("Olá, tudo bem?");
    expect(fillCampaignVariables("{nome} seu email {email}", { name: null, email: "" })).toBe("seu email");
    expect(fillCampaignVariables("Oi {NOME}", { name: "Bia" })).toBe("Oi Bia");
  });
  it("adds a custom variable only when its key is new", () => {
    const list = [{ key: "a", value: "1" }];
    expect(addCampaignVariable(list, { key: "a", value: "2" })).toEqual(list);
    expect(addCampaignVariable(list, { key: "b", value: "2" })).toHaveLength(2);
  });
});

describe("opt-out words", () => {
  const words = ["SAIR", "PARAR", "STOP", "CANCELAR"];
  it("matches the whole message in any case, not a word inside a sentence", () => {
    for (const yes of ["sair", " Parar! ", "STOP.", "cancelar"])
      expect(isOptOutAnswer(yes, words), yes).toBe(true);
    for (const no of ["quero sair", "não pare", "stop it", "", "saír"])
      expect(isOptOutAnswer(no, words), no).toBe(false);
  });
});

describe("campaign settings and the editable rule", () => {
  it("reads stored JSON values over the defaults, ignoring unreadable ones", () => {
    expect(readCampaignSettings([])).toEqual(CAMPAIGN_SETTINGS_DEFAULTS);
    const read = readCampaignSettings([
      { key: "messageInterval", value: "5" },
      { key: "variables", value: '[{"key":"x","value":"y"}]' },
      { key: "greaterInterval", value: "not json" },
      { key: "unknown", value: "1" },
    ]);
    expect(read).toMatchObject({
      messageInterval: 5,
      greaterInterval: 60,
      variables: [{ key: "x", value: "y" }],
    });
  });
  it("is editable when INATIVA, CANCELADA, or PROGRAMADA more than an hour ahead", () => {
    const now = new Date("2030-01-01T12:00:00Z");
    const at = (min: number) => new Date(now.getTime() + min * 60_000).toISOString();
    expect(isCampaignEditable({ status: "INATIVA", scheduledAt: null }, now)).toBe(true);
    expect(isCampaignEditable({ status: "CANCELADA", scheduledAt: at(5) }, now)).toBe(true);
    expect(isCampaignEditable({ status: "PROGRAMADA", scheduledAt: at(61) }, now)).toBe(true);
    expect(isCampaignEditable({ status: "PROGRAMADA", scheduledAt: at(59) }, now)).toBe(false);
    expect(isCampaignEditable({ status: "EM_ANDAMENTO", scheduledAt: at(120) }, now)).toBe(false);
    expect(isCampaignEditable({ status: "FINALIZADA", scheduledAt: null }, now)).toBe(false);
  });
});

describe("sending window and the company's day", () => {
  const zone = "America/Sao_Paulo"; // UTC-3
  const win = { sendWindowStart: 9, sendWindowEnd: 18 };
  it("lets a send go inside the window, else answers when it opens", () => {
    expect(windowOpening(new Date("2030-03-04T15:00:00Z"), win, zone)).toBeNull(); // 12:00
    expect(windowOpening(new Date("2030-03-04T10:00:00Z"), win, zone)).toEqual(
      new Date("2030-03-04T12:00:00Z"),
    ); // 07:00
    expect(windowOpening(new Date("2030-03-04T22:00:00Z"), win, zone)).toEqual(
      new Date("2030-03-05T12:00:00Z"),
    ); // 19:00
    expect(
      windowOpening(new Date("2030-03-04T22:00:00Z"), { sendWindowStart: null, sendWindowEnd: 18 }, zone),
    ).toBeNull();
    // A window past midnight: 22 to 6.
    const night = { sendWindowStart: 22, sendWindowEnd: 6 };
    expect(windowOpening(new Date("2030-03-05T04:00:00Z"), night, zone)).toBeNull(); // 01:00
    expect(windowOpening(new Date("2030-03-04T15:00:00Z"), night, zone)).toEqual(
      new Date("2030-03-05T01:00:00Z"),
    );
  });
  it("counts the day from the company's midnight", () => {
    expect(startOfDay(new Date("2030-03-05T02:00:00Z"), zone)).toEqual(new Date("2030-03-04T03:00:00Z"));
    expect(nextDay(new Date("2030-03-05T02:00:00Z"), zone)).toEqual(new Date("2030-03-05T03:00:00Z"));
  });
});
