import { describe, expect, it } from "vitest";
import { type MessageDTO, validationMessage } from "@atende/contracts";
import type { OutboundMessage } from "../../channels/provider.js";

import { expectError } from "../../test/calls.js";
import { jobsIdle } from "../../test/settled.js";
import { buildConnection, buildTicket } from "../../test/factories.js";
import {
  setupMessagesSuite,
  MEDIA_MAX_BYTES,
  ctx,
  team,
  ana,
  stranger,
  PNG,
  PDF,
  WEBM,
  RECORDING_WEBM,
  call,
  phoneSays,
  phoneOut,
  openConversation,
  page,
  stored,
  countOf,
  onPhone,
  postForm,
  mediaFiles,
} from "./testing.js";

/**
 * Sending files (POST /messages/{ticketId}, multipart): images, documents and voice notes, the size limit,
 * and bad requests.
 */
setupMessagesSuite();

describe("POST /messages/{ticketId} with files (multipart)", () => {
  it("an image with its caption and a document are stored with their mediaType, served back byte for byte, and reach the phone", async () => {
    const { number, ticketId } = await openConversation();
    const res = await postForm(ticketId, ana.login, [
      { name: "body", value: "Segue a foto e o contrato" },
      { name: "signMessage", value: "true" },
      { name: "medias", filename: "foto.png", type: "image/png", data: PNG },
      { name: "medias", filename: "contrato.pdf", type: "application/pdf", data: PDF },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const [image, doc] = res.json<MessageDTO[]>();
    expect(image).toMatchObject({
      fromMe: true,
      body: "*Ana Souza:*\nSegue a foto e o contrato",
      mediaType: "image",
      mediaName: "foto.png",
      mediaUrl: expect.stringMatching(new RegExp(`^/media/${team.company.id}/[0-9a-f-]{36}\\.png$`)),
    });
    // The caption rides on the first file only.
    expect(doc).toMatchObject({
      fromMe: true,
      body: "",
      mediaType: "application",
      mediaName: "contrato.pdf",
    });

    const imageFile = await call("GET", image!.mediaUrl!, ana.login);
    expect(imageFile.statusCode).toBe(200);
    expect(imageFile.headers["content-type"]).toBe("image/png");
    expect(imageFile.rawPayload.equals(PNG)).toBe(true);
    const docFile = await call("GET", doc!.mediaUrl!, ana.login);
    expect(docFile.headers["content-type"]).toBe("application/pdf");
    expect(docFile.rawPayload.equals(PDF)).toBe(true);
    expectError(await call("GET", image!.mediaUrl!, stranger), 404, "ERR_NOT_FOUND");

    const onImage = await onPhone(number, image!.id);
    expect(onImage).toMatchObject({
      kind: "image",
      body: "*Ana Souza:*\nSegue a foto e o contrato",
      media: { filename: "foto.png", mimetype: "image/png" },
    });
    expect((await call("GET", onImage.media!.url, team.adminLogin)).rawPayload.equals(PNG)).toBe(true);
    expect(await onPhone(number, doc!.id)).toMatchObject({
      kind: "document",
      media: { filename: "contrato.pdf", mimetype: "application/pdf" },
    });
    expect((await page(ticketId)).messages.slice(-2).map((m) => [m.mediaType, m.mediaName])).toEqual([
      ["image", "foto.png"],
      ["application", "contrato.pdf"],
    ]);
  });

  it("a recorded voice note (WebM declared as audio) is converted to Ogg/Opus and goes out as a voice note; a WebM video stays video; a declared audio type retypes nothing else", async () => {
    const { number, ticketId } = await openConversation();
    // What the connection's session is handed, as the outbound queue sends.
    const session = ctx.built.channels.sessions.session(team.connection.id)!;
    const handed: OutboundMessage[] = [];
    const send = session.send.bind(session);
    session.send = (message) => {
      handed.push(message);
      return send(message);
    };
    try {
      const phoneId = await phoneSays(number, { id: `PH-${number}-V`, body: "Pode mandar um áudio?" });
      const quoted = (await page(ticketId)).messages.find((m) => m.body === "Pode mandar um áudio?")!;
      const voice = await postForm(ticketId, ana.login, [
        { name: "body", value: "" },
        { name: "quotedMsgId", value: String(quoted.id) },
        { name: "signMessage", value: "true" },
        {
          name: "medias",
          filename: "audio-20240521-143005.webm",
          type: "audio/webm;codecs=opus",
          data: RECORDING_WEBM,
        },
      ]);
      expect(voice.statusCode, voice.body).toBe(201);
      const audio = voice.json<MessageDTO>();
      // Converted once, on the way in: the agent's bubble plays the same Ogg/Opus the customer gets.
      expect(audio).toMatchObject({
        fromMe: true,
        body: "",
        mediaType: "audio",
        mediaName: "audio-20240521-143005.ogg",
        mediaUrl: expect.stringMatching(/\.opus$/),
        quotedMsg: { id: quoted.id },
      });
      expect((await stored(audio.id)).mediaMime).toBe("audio/ogg; codecs=opus");
      expect(await onPhone(number, audio.id)).toMatchObject({
        kind: "audio",
        media: { filename: "audio-20240521-143005.ogg", mimetype: "audio/ogg; codecs=opus", voiceNote: true },
        quotedId: phoneId,
      });
      const audioOut = handed.find((m) => m.media?.filename === "audio-20240521-143005.ogg");
      expect(audioOut?.media).toMatchObject({
        kind: "audio",
        mimetype: "audio/ogg; codecs=opus",
        voiceNote: true,
      });
      const ogg = audioOut!.media!.data;
      expect(ogg.subarray(0, 4).toString("latin1")).toBe("OggS");
      expect(ogg.includes(Buffer.from("OpusHead"))).toBe(true);

      // Bytes that only look like WebM cannot be made a voice note: refused whole, nothing queued.
      const before = handed.length;
      const broken = await postForm(ticketId, ana.login, [
        { name: "medias", filename: "audio-20240521-143100.webm", type: "audio/webm", data: WEBM },
      ]);
      expectError(broken, 400, "ERR_AUDIO_CONVERSION_FAILED");
      expect(
        (await page(ticketId)).messages.some((m) => m.mediaName?.startsWith("audio-20240521-143100")),
      ).toBe(false);
      expect(handed.length).toBe(before);

      // The same bytes declared as a video are a video, not a voice note.
      const film = await postForm(ticketId, ana.login, [
        { name: "medias", filename: "clip.webm", type: "video/webm", data: WEBM },
      ]);
      expect(film.statusCode, film.body).toBe(201);
      const video = film.json<MessageDTO>();
      expect(video).toMatchObject({ mediaType: "video", mediaName: "clip.webm" });
      expect((await stored(video.id)).mediaMime).toBe("video/webm");
      expect(await onPhone(number, video.id)).toMatchObject({
        kind: "video",
        media: { mimetype: "video/webm" },
      });
      expect(handed.find((m) => m.media?.filename === "clip.webm")?.media).toMatchObject({
        kind: "video",
        voiceNote: false,
      });

      // Declaring audio does not make other content audio: the bytes decide.
      const disguised = await postForm(ticketId, ana.login, [
        { name: "medias", filename: "audio.ogg", type: "audio/ogg", data: PNG },
      ]);
      expect(disguised.statusCode, disguised.body).toBe(201);
      expect(disguised.json<MessageDTO>()).toMatchObject({ mediaType: "image", mediaName: "audio.ogg" });
      expect((await stored(disguised.json<MessageDTO>().id)).mediaMime).toBe("image/png");
      expect(await onPhone(number, disguised.json<MessageDTO>().id)).toMatchObject({ kind: "image" });
    } finally {
      session.send = send;
    }
  });

  it("on a Cloud API connection, a type Meta refuses answers 400 ERR_CLOUD_MEDIA_TYPE before anything is queued; a recording goes as Ogg/Opus", async () => {
    const cloud = await buildConnection(ctx.deps.db, team.company.id, {
      provider: "cloud",
      providerConfig: { phoneNumberId: "1", accessToken: "t" },
    });
    const ticket = await buildTicket(ctx.deps.db, team.company.id, {
      status: "open",
      userId: ana.id,
      whatsappId: cloud.id,
      queueId: team.queues[0]!.id,
    });
    const gif = Buffer.from("474946383961010001000000002c00000000010001000002024401003b", "hex");
    const refused = await postForm(ticket.id, ana.login, [
      { name: "medias", filename: "animacao.gif", type: "image/gif", data: gif },
    ]);
    expectError(refused, 400, "ERR_CLOUD_MEDIA_TYPE");
    expect(await countOf(ticket.id)).toBe(0);

    const voice = await postForm(ticket.id, ana.login, [
      { name: "medias", filename: "audio-20240521-150000.webm", type: "audio/webm", data: RECORDING_WEBM },
    ]);
    expect(voice.statusCode, voice.body).toBe(201);
    expect(voice.json<MessageDTO>()).toMatchObject({
      mediaType: "audio",
      mediaName: "audio-20240521-150000.ogg",
    });
  });

  it("a file over the size limit answers 413 ERR_MEDIA_TOO_LARGE and stores nothing", async () => {
    const { number, ticketId } = await openConversation();
    const before = await countOf(ticketId);
    const files = mediaFiles().length;
    const res = await postForm(ticketId, ana.login, [
      { name: "body", value: "arquivo grande" },
      {
        name: "medias",
        filename: "grande.bin",
        type: "application/octet-stream",
        data: Buffer.alloc(MEDIA_MAX_BYTES + 1, 7),
      },
    ]);
    expectError(res, 413, "ERR_MEDIA_TOO_LARGE");
    expect(res.json().message).toBe("O arquivo é grande demais.");
    await jobsIdle(ctx);
    expect(await countOf(ticketId)).toBe(before);
    expect(mediaFiles()).toHaveLength(files);
    expect(await phoneOut(number)).toEqual([]);
  });

  it("a bad multipart request answers 400 with translated field messages, never a raw key", async () => {
    const { ticketId } = await openConversation();
    const before = await countOf(ticketId);
    const files = mediaFiles().length;

    // A form cut short: no closing boundary.
    const cut = await ctx.app.inject({
      method: "POST",
      url: `/messages/${ticketId}`,
      payload: '------x\r\nContent-Disposition: form-data; name="body"\r\n\r\nmeia mensa',
      headers: { ...ana.login.auth, "content-type": "multipart/form-data; boundary=----x" },
    });
    expectError(cut, 400, "ERR_VALIDATION");
    expect(cut.json().fields).toEqual({ medias: validationMessage("validation.invalid", "pt") });
    expect(cut.json().fields.medias).toBe("Valor inválido");

    // A caption over the limit, in English.
    const long = await postForm(
      ticketId,
      ana.login,
      [
        { name: "body", value: "x".repeat(65_537) },
        { name: "medias", filename: "foto.png", type: "image/png", data: PNG },
      ],
      "en",
    );
    expectError(long, 400, "ERR_VALIDATION");
    expect(long.json().fields).toEqual({ body: "Too Long!" });

    // A quoted message id that is not an id.
    const quoted = await postForm(ticketId, ana.login, [
      { name: "quotedMsgId", value: "abc" },
      { name: "medias", filename: "foto.png", type: "image/png", data: PNG },
    ]);
    expectError(quoted, 400, "ERR_VALIDATION");
    expect(quoted.json().fields).toEqual({ quotedMsgId: "Valor inválido" });

    // An empty file, and more files than one message may carry (10).
    const empty = await postForm(ticketId, ana.login, [
      { name: "body", value: "vazio" },
      { name: "medias", filename: "vazio.png", type: "image/png", data: Buffer.alloc(0) },
    ]);
    expectError(empty, 400, "ERR_VALIDATION");
    expect(empty.json().fields).toEqual({ medias: "Valor inválido" });
    const many = await postForm(
      ticketId,
      ana.login,
      Array.from({ length: 11 }, (_, i) => ({
        name: "medias",
        filename: `f${i}.png`,
        type: "image/png",
        data: PNG,
      })),
      "es",
    );
    expectError(many, 400, "ERR_VALIDATION");
    expect(many.json().fields).toEqual({ medias: "Valor inválido" });

    for (const res of [cut, long, quoted, empty, many]) {
      for (const text of Object.values(res.json<{ fields: Record<string, string> }>().fields)) {
        expect(text).not.toMatch(/^validation\./);
      }
    }
    expect(await countOf(ticketId)).toBe(before);
    expect(mediaFiles()).toHaveLength(files);
  });
});
