import { describe, expect, it } from "vitest";
import { cloudWebhookPayload } from "../../test/fakes/graph.js";
import { type CloudEvent, mapCloudWebhook } from "./mapping.js";

/** Messages as Meta documents them in the "messages" webhook, mapped to InboundMessages. */
const PHONE_NUMBER_ID = "106540352242922";
const CUSTOMER = "16505551234";
const AT = "1749416383";
const AT_DATE = new Date(Number(AT) * 1000);

const webhook = (value: Record<string, unknown>) => cloudWebhookPayload(PHONE_NUMBER_ID, value);
const sheena = { contacts: [{ profile: { name: "Sheena Nelson" }, wa_id: CUSTOMER }] };
const inbound = (message: Record<string, unknown>) =>
  webhook({ ...sheena, messages: [{ from: CUSTOMER, timestamp: AT, ...message }] });

const fetched: string[] = [];
const fetchMedia = async (mediaId: string) => {
  fetched.push(mediaId);
  return Buffer.from(`bytes of ${mediaId}`);
};
const map = (body: unknown): CloudEvent[] => mapCloudWebhook(body, fetchMedia);

/** The common part of a message from Sheena. */
const fromSheena = {
  chat: { number: CUSTOMER, isGroup: false },
  fromMe: false,
  pushName: "Sheena Nelson",
  timestamp: AT_DATE,
};

describe("mapCloudWebhook: messages", () => {
  it("maps a text message with the sender's profile name", () => {
    const events = map(
      inbound({ id: "wamid.TEXT", type: "text", text: { body: "Does it come in another color?" } }),
    );
    expect(events).toEqual([
      {
        phoneNumberId: PHONE_NUMBER_ID,
        event: {
          type: "message",
          message: { id: "wamid.TEXT", ...fromSheena, kind: "text", body: "Does it come in another color?" },
        },
      },
    ]);
  });

  it("maps an image with caption, and downloads it by media id only when asked", async () => {
    const image = { caption: "Red one", mime_type: "image/jpeg", sha256: "abc=", id: "1003383421387256" };
    const events = map(inbound({ id: "wamid.IMG", type: "image", image }));
    expect(events).toEqual([
      {
        phoneNumberId: PHONE_NUMBER_ID,
        event: {
          type: "message",
          message: {
            id: "wamid.IMG",
            ...fromSheena,
            kind: "image",
            body: "Red one",
            // The media job downloads it later by this id.
            media: {
              mimetype: "image/jpeg",
              ref: { mediaId: "1003383421387256" },
              download: expect.any(Function),
            },
          },
        },
      },
    ]);
    fetched.length = 0;
    const event = events[0]!.event;
    if (event.type !== "message") throw new Error("expected a message");
    expect((await event.message.media!.download()).toString()).toBe("bytes of 1003383421387256");
    expect(fetched).toEqual(["1003383421387256"]);
  });

  it("maps a document with its file name, and a voice note as audio", () => {
    const document = { filename: "invoice.pdf", mime_type: "application/pdf", id: "doc-1" };
    const audio = { mime_type: "audio/ogg; codecs=opus", id: "audio-1", voice: true };
    const events = map(
      webhook({
        ...sheena,
        messages: [
          { from: CUSTOMER, timestamp: AT, id: "wamid.DOC", type: "document", document },
          { from: CUSTOMER, timestamp: AT, id: "wamid.AUDIO", type: "audio", audio },
        ],
      }),
    );
    expect(events.map((e) => e.event)).toEqual([
      {
        type: "message",
        message: {
          id: "wamid.DOC",
          ...fromSheena,
          kind: "document",
          body: "invoice.pdf",
          media: {
            mimetype: "application/pdf",
            filename: "invoice.pdf",
            ref: { mediaId: "doc-1" },
            download: expect.any(Function),
          },
        },
      },
      {
        type: "message",
        message: {
          id: "wamid.AUDIO",
          ...fromSheena,
          kind: "audio",
          body: "",
          media: {
            mimetype: "audio/ogg; codecs=opus",
            ref: { mediaId: "audio-1" },
            download: expect.any(Function),
          },
        },
      },
    ]);
  });

  it("maps a reply: context.id becomes quotedId", () => {
    const events = map(
      inbound({
        id: "wamid.REPLY",
        type: "text",
        text: { body: "Yes, this one" },
        context: { from: "15550783881", id: "wamid.ORIGINAL" },
      }),
    );
    expect(events[0]!.event).toEqual({
      type: "message",
      message: {
        id: "wamid.REPLY",
        ...fromSheena,
        kind: "text",
        body: "Yes, this one",
        quotedId: "wamid.ORIGINAL",
      },
    });
  });

  it("maps a reaction, and a removed reaction (no emoji) to an empty emoji", () => {
    const added = map(
      inbound({ id: "wamid.R1", type: "reaction", reaction: { message_id: "wamid.OUT", emoji: "👍" } }),
    );
    const removed = map(inbound({ id: "wamid.R2", type: "reaction", reaction: { message_id: "wamid.OUT" } }));
    expect(added[0]!.event).toEqual({
      type: "message",
      message: {
        id: "wamid.R1",
        ...fromSheena,
        kind: "reaction",
        body: "👍",
        reaction: { targetId: "wamid.OUT", emoji: "👍" },
      },
    });
    expect(removed[0]!.event).toMatchObject({ message: { reaction: { targetId: "wamid.OUT", emoji: "" } } });
  });

  it("maps a location to a maps link with its name and address", () => {
    const location = {
      latitude: 37.44216251868683,
      longitude: -122.16153582049394,
      name: "Philz Coffee",
      address: "101 Forest Ave, Palo Alto, CA 94301",
    };
    const events = map(inbound({ id: "wamid.LOC", type: "location", location }));
    expect(events[0]!.event).toEqual({
      type: "message",
      message: {
        id: "wamid.LOC",
        ...fromSheena,
        kind: "location",
        body:
          "https://maps.google.com/maps?q=37.44216251868683,-122.16153582049394\n" +
          "Philz Coffee\n101 Forest Ave, Palo Alto, CA 94301",
        location: { latitude: 37.44216251868683, longitude: -122.16153582049394, name: "Philz Coffee" },
      },
    });
  });

  it("maps shared contacts to their names and a vCard", () => {
    const contacts = [
      {
        name: { formatted_name: "Barbara J. Johnson", first_name: "Barbara", last_name: "Johnson" },
        phones: [{ phone: "+1 (940) 555-1234", wa_id: "19405551234", type: "HOME" }],
        emails: [{ email: "bjohnson@example.com", type: "WORK" }],
        org: { company: "Social Media Inc" },
      },
      { name: { formatted_name: "Jo" }, phones: [{ wa_id: "5511987654321" }] },
    ];
    const events = map(inbound({ id: "wamid.VCARD", type: "contacts", contacts }));
    expect(events[0]!.event).toEqual({
      type: "message",
      message: {
        id: "wamid.VCARD",
        ...fromSheena,
        kind: "contact",
        body: "Barbara J. Johnson, Jo",
        vcard: [
          "BEGIN:VCARD",
          "VERSION:3.0",
          "N:Johnson;Barbara;;;",
          "FN:Barbara J. Johnson",
          "ORG:Social Media Inc",
          "TEL;type=HOME;waid=19405551234:+1 (940) 555-1234",
          "EMAIL:bjohnson@example.com",
          "END:VCARD",
          "BEGIN:VCARD",
          "VERSION:3.0",
          "N:;;;;",
          "FN:Jo",
          "TEL;type=CELL;waid=5511987654321:+5511987654321",
          "END:VCARD",
        ].join("\n"),
      },
    });
  });

  it("maps button and list replies, and template quick replies, to their titles as text", () => {
    const events = map(
      webhook({
        ...sheena,
        messages: [
          {
            from: CUSTOMER,
            timestamp: AT,
            id: "wamid.B1",
            type: "interactive",
            interactive: { type: "button_reply", button_reply: { id: "opt-1", title: "Sales" } },
            context: { from: "15550783881", id: "wamid.MENU" },
          },
          {
            from: CUSTOMER,
            timestamp: AT,
            id: "wamid.B2",
            type: "interactive",
            interactive: {
              type: "list_reply",
              list_reply: { id: "row-2", title: "Support", description: "Help" },
            },
          },
          {
            from: CUSTOMER,
            timestamp: AT,
            id: "wamid.B3",
            type: "button",
            button: { text: "Stop", payload: "STOP" },
          },
        ],
      }),
    );
    expect(events.map((e) => e.event)).toEqual([
      {
        type: "message",
        message: { id: "wamid.B1", ...fromSheena, kind: "text", body: "Sales", quotedId: "wamid.MENU" },
      },
      { type: "message", message: { id: "wamid.B2", ...fromSheena, kind: "text", body: "Support" } },
      { type: "message", message: { id: "wamid.B3", ...fromSheena, kind: "text", body: "Stop" } },
    ]);
  });

  it("stores a Brazilian number with the ninth digit and marks forwarded messages", () => {
    const events = map(
      webhook({
        contacts: [{ profile: { name: "Ana" }, wa_id: "551187654321" }],
        messages: [
          {
            from: "551187654321",
            timestamp: AT,
            id: "wamid.BR",
            type: "text",
            text: { body: "Oi" },
            context: { forwarded: true },
          },
        ],
      }),
    );
    expect(events[0]!.event).toEqual({
      type: "message",
      message: {
        id: "wamid.BR",
        chat: { number: "5511987654321", isGroup: false },
        fromMe: false,
        pushName: "Ana",
        timestamp: AT_DATE,
        kind: "text",
        body: "Oi",
        isForwarded: true,
      },
    });
  });
});
