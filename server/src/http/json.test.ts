import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoggedIn, buildTeam } from "../test/factories.js";
import { type TestContext, createTestContext } from "../test/harness.js";

/** Text is valid Unicode: a body that is not is refused whole, never stored as "��". */
let ctx: TestContext;
let admin: LoggedIn;
beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  admin = (await buildTeam(ctx)).adminLogin;
});
afterAll(() => ctx.close());

function postContact(body: string | Buffer, lang = "en") {
  return ctx.app.inject({
    method: "POST",
    url: "/contacts",
    headers: { ...admin.auth, "content-type": "application/json", "accept-language": lang },
    payload: body,
  });
}

async function contactNames(): Promise<string[]> {
  const res = await ctx.app.inject({ method: "GET", url: "/contacts", headers: admin.auth });
  return res.json<{ contacts: { name: string }[] }>().contacts.map((c) => c.name);
}

describe("JSON bodies are valid Unicode", () => {
  it("invalid UTF-8 bytes answer 400 ERR_VALIDATION and store nothing", async () => {
    const before = await contactNames();
    for (const bytes of [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
      const body = Buffer.concat([
        Buffer.from('{"name":"Bad '),
        Buffer.from(bytes),
        Buffer.from('","number":"5511987650101"}'),
      ]);
      const res = await postContact(body);
      expect(res.statusCode, JSON.stringify(bytes)).toBe(400);
      expect(res.json()).toMatchObject({
        error: "ERR_VALIDATION",
        fields: { _: "Invalid text: it holds characters that are not valid Unicode" },
      });
    }
    expect(await contactNames()).toEqual(before);
  });

  it("lone surrogates, escaped in the JSON, answer 400 in values and in keys", async () => {
    const before = await contactNames();
    for (const body of [
      '{"name":"Half \\ud800","number":"5511987650102"}',
      '{"name":"Low \\udc00 first","number":"5511987650102"}',
      '{"name":"Ok","number":"5511987650102","extraInfo":[{"name":"k","value":"\\udbff"}]}',
      '{"name":"Ok","number":"5511987650102","\\ud800":1}',
      '{"name":"Upper \\uDBFF case","number":"5511987650102"}',
    ]) {
      const res = await postContact(body, "pt");
      expect(res.statusCode, body).toBe(400);
      expect(res.json().error).toBe("ERR_VALIDATION");
      expect(res.json().fields._).toMatch(/Unicode válido/);
    }
    expect(await contactNames()).toEqual(before);
  });

  it("valid text (accents, emoji written raw or as escaped pairs) is stored as sent; unknown fields are ignored", async () => {
    const res = await postContact(
      '{"name":"Jo\u00e3o \ud83d\ude00 \\ud83d\\ude80","number":"5511987650103","whatever":"\\u00e9"}',
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().name).toBe("João 😀 🚀");
  });

  it("prototype poisoning is still refused", async () => {
    const res = await postContact('{"name":"P","number":"5511987650104","__proto__":{"x":1}}');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe("ERR_VALIDATION");
  });
});
