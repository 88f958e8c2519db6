import { describe, expect, it } from "vitest";
import { ChannelError } from "../provider.js";
import { addressToJid, jidToAddress } from "./jid.js";

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
