import { describe, expect, it } from "vitest";
import { markdownToWhatsapp } from "./markdown.js";
import { commandOf, readTypebotAnswer } from "./typebot.js";

describe("Typebot's markdown in WhatsApp", () => {
  it("bold, italic and strike in WhatsApp's marks; underline is plain text, never strike", () => {
    expect(markdownToWhatsapp("**negrito** e *itálico* e _também_ e ~~riscado~~ e <u>sublinhado</u>")).toBe(
      "*negrito* e _itálico_ e _também_ e ~riscado~ e sublinhado",
    );
    expect(markdownToWhatsapp("__forte__")).toBe("*forte*");
    expect(markdownToWhatsapp("***os dois***")).toBe("*_os dois_*");
  });

  it("escaped marks stay literal; links keep their address; headings are bold", () => {
    expect(markdownToWhatsapp("2 \\* 3 \\_x\\_")).toBe("2 * 3 _x_");
    expect(markdownToWhatsapp("[site](https://a.b/c)")).toBe("site (https://a.b/c)");
    expect(markdownToWhatsapp("[https://a.b](https://a.b)")).toBe("https://a.b");
    expect(markdownToWhatsapp("# Título\nlinha")).toBe("*Título*\nlinha");
  });

  it("reads the command bubble with numbers or strings", () => {
    expect(commandOf('#{"queueId":"3","userId":7}')).toEqual({ type: "transfer", queueId: 3, userId: 7 });
    expect(commandOf('#{ "stopBot": "true" }')).toEqual({ type: "end" });
    expect(commandOf("#hashtag")).toBeNull();
    expect(commandOf("texto")).toBeNull();
  });

  it("bubbles and inputs into replies: a flow without an input has ended", () => {
    const out = readTypebotAnswer({
      sessionId: "s1",
      messages: [
        { type: "text", content: { type: "markdown", markdown: "Oi **você**" } },
        { type: "video", content: { type: "url", url: "https://x/v.mp4" } },
        { type: "embed", content: { url: "https://x/doc.pdf" } },
      ],
      input: { type: "choice input", items: [{ content: "A" }, { content: "B" }] },
    });
    expect(out).toEqual({
      replies: [
        { type: "text", text: "Oi *você*" },
        { type: "video", url: "https://x/v.mp4" },
        { type: "file", url: "https://x/doc.pdf" },
        { type: "choices", text: "", options: ["A", "B"] },
      ],
      action: undefined,
      externalId: "s1",
    });
    expect(readTypebotAnswer({ messages: [] }).action).toEqual({ type: "end" });
  });
});
