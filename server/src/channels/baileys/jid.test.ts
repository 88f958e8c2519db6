import { describe, expect, it, vi } from "vitest";
import { ChannelError } from "../provider.js";
import { addressToJid, jidToAddress, NumberDirectory } from "./jid.js";

describe("jidToAddress", () => {
  it("strips the device suffix and normalises the number", () => {
    expect(jidToAddress("5511987654321:12@s.whatsapp.net")).toStrictEqual({
      number: "5511987654321",
      isGroup: false,
    });
  });

  it("keeps a group id as it is", () => {
    expect(jidToAddress("5511987654321-1609459200@g.us")).toStrictEqual({
      number: "5511987654321-1609459200",
      isGroup: true,
    });
  });

  it("resolves a LID through its phone-number alt, and a phone number keeps its LID alt", () => {
    expect(jidToAddress("123@lid", "5511987654321:3@s.whatsapp.net")).toStrictEqual({
      number: "5511987654321",
      isGroup: false,
      lid: "123",
    });
    expect(jidToAddress("5511987654321@s.whatsapp.net", "123@lid")).toStrictEqual({
      number: "5511987654321",
      isGroup: false,
      lid: "123",
    });
  });

  it("refuses status, broadcast lists, newsletters and garbage", () => {
    for (const jid of ["status@broadcast", "1234@broadcast", "1203@newsletter", "", undefined, "not a jid"]) {
      expect(jidToAddress(jid)).toBeNull();
    }
  });
});

describe("addressToJid", () => {
  it("builds person, group and LID jids", () => {
    expect(addressToJid({ number: "5511987654321", isGroup: false })).toBe("5511987654321@s.whatsapp.net");
    expect(addressToJid({ number: "120363025246125486", isGroup: true })).toBe("120363025246125486@g.us");
    expect(addressToJid({ number: "", isGroup: false, lid: "123" })).toBe("123@lid");
  });

  it("refuses an address with nothing to send to", () => {
    expect(() => addressToJid({ number: "", isGroup: false })).toThrow(ChannelError);
    expect(() => addressToJid({ number: "55 11 9", isGroup: false })).toThrow(ChannelError);
  });
});

describe("NumberDirectory", () => {
  it("asks WhatsApp once for a Brazilian mobile and remembers its 8-digit jid", async () => {
    const lookup = vi.fn(async () => [{ jid: "551187654321@s.whatsapp.net", exists: true }]);
    const directory = new NumberDirectory(lookup);
    const to = { number: "5511987654321", isGroup: false };
    expect(await directory.jidFor(to)).toBe("551187654321@s.whatsapp.net");
    expect(await directory.jidFor(to)).toBe("551187654321@s.whatsapp.net");
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(lookup).toHaveBeenCalledWith(["5511987654321", "551187654321"]);
  });

  it("skips the lookup for numbers with one form, and falls back to the plain jid when WhatsApp cannot be asked", async () => {
    const lookup = vi.fn(async () => {
      throw new Error("Connection Closed");
    });
    const directory = new NumberDirectory(lookup);
    expect(await directory.jidFor({ number: "14155550123", isGroup: false })).toBe(
      "14155550123@s.whatsapp.net",
    );
    expect(lookup).not.toHaveBeenCalled();
    expect(await directory.jidFor({ number: "5511987654321", isGroup: false })).toBe(
      "5511987654321@s.whatsapp.net",
    );
  });

  it("refuses to send to a number WhatsApp does not know", async () => {
    const directory = new NumberDirectory(async () => []);
    await expect(directory.jidFor({ number: "5511987654321", isGroup: false })).rejects.toMatchObject({
      retryable: false,
      code: "ERR_WAPP_INVALID_CONTACT",
    });
  });
});
