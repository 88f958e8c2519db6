import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HelpDTO, type HelpsPage, LIMITS, youtubeVideoId } from "@atende/contracts";
import { expectError, expectOk, caller, fieldsOf } from "../../test/calls.js";
import { type LoggedIn, buildMember, buildTeam, uid } from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";

/**
 * Help videos on a real database: the super user writes the platform's one list (the Ajuda tab),
 * every signed-in user of every company reads it (the /helps page), a company's admin or agent
 * writes nothing, and the video is stored as the YouTube id whatever form it was pasted in.
 */

let ctx: TestContext;
let root: LoggedIn;
let admin: LoggedIn;
let agent: LoggedIn;
/** The admin of another company: reads the same list. */
let otherAdmin: LoggedIn;

const call = caller(() => ctx);
const VIDEO = "dQw4w9WgXcQ";

beforeAll(async () => {
  ctx = await createTestContext();
  const team = await buildTeam(ctx);
  admin = team.adminLogin;
  agent = team.agentLogin;
  root = (await buildMember(ctx, team.company.id, { profile: "admin", super: true })).login;
  otherAdmin = (await buildTeam(ctx)).adminLogin;
});
afterAll(() => ctx.close());

async function createHelp(body: Record<string, unknown> = {}): Promise<HelpDTO> {
  return expectOk<HelpDTO>(
    await call("POST", "/helps", root, { title: `Help ${uid()}`, video: VIDEO, ...body }),
    201,
  );
}

describe("the super user writes help videos", () => {
  it("creates, updates and deletes one, with the spec's fields", async () => {
    const created = await createHelp({
      title: "  Como conectar o WhatsApp  ",
      video: `https://www.youtube.com/watch?v=${VIDEO}&t=42s`,
      description: "Leia o QR code",
      link: "https://docs.example.com/conectar",
    });
    expect(created).toEqual({
      id: expect.any(Number),
      title: "Como conectar o WhatsApp",
      description: "Leia o QR code",
      video: VIDEO,
      link: "https://docs.example.com/conectar",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    const updated = expectOk<HelpDTO>(
      await call("PUT", `/helps/${created.id}`, root, {
        title: "Conectar",
        video: "https://youtu.be/abcdefghijk",
      }),
    );
    // What the update leaves out stays.
    expect(updated).toMatchObject({
      id: created.id,
      title: "Conectar",
      video: "abcdefghijk",
      description: "Leia o QR code",
      link: "https://docs.example.com/conectar",
      createdAt: created.createdAt,
    });
    // null and "" clear the optional fields.
    const cleared = expectOk<HelpDTO>(
      await call("PUT", `/helps/${created.id}`, root, { description: null, link: "" }),
    );
    expect(cleared).toMatchObject({ description: "", link: null, title: "Conectar" });

    const list = expectOk<HelpDTO[]>(await call("GET", "/helps/list", agent));
    expect(list.find((h) => h.id === created.id)).toEqual(cleared);

    expectOk(await call("DELETE", `/helps/${created.id}`, root), 204);
    const after = expectOk<HelpDTO[]>(await call("GET", "/helps/list", root));
    expect(after.map((h) => h.id)).not.toContain(created.id);
  });

  it("creates one with only a title and a video: no description, no link", async () => {
    const help = await createHelp({ title: "Só o vídeo" });
    expect(help).toMatchObject({ title: "Só o vídeo", video: VIDEO, description: "", link: null });
  });

  it("refuses a missing title or video, a video that is not YouTube's, a bad link: 400 ERR_VALIDATION", async () => {
    expect(fieldsOf(await call("POST", "/helps", root, { video: VIDEO }))).toHaveProperty("title");
    expect(fieldsOf(await call("POST", "/helps", root, { title: "   ", video: VIDEO }))).toHaveProperty(
      "title",
    );
    expect(fieldsOf(await call("POST", "/helps", root, { title: "Sem vídeo" }))).toHaveProperty("video");
    for (const video of [
      "short",
      "https://vimeo.com/123456789",
      "https://www.youtube.com.evil.com/watch?v=dQw4w9WgXcQ",
      "javascript:alert(1)//youtube.com/watch?v=dQw4w9WgXcQ",
      "https://www.youtube.com/watch?v=dQw4w9WgXc<",
    ]) {
      const res = await call("POST", "/helps", root, { title: "Vídeo", video });
      expect(fieldsOf(res), video).toHaveProperty("video");
    }
    for (const link of ["javascript:alert(1)", "ftp://example.com/x", "not a link"]) {
      const res = await call("POST", "/helps", root, { title: "Link", video: VIDEO, link });
      expect(fieldsOf(res), link).toHaveProperty("link");
    }
    const long = await call("POST", "/helps", root, { title: "x".repeat(201), video: VIDEO });
    expect(fieldsOf(long)).toHaveProperty("title");
    const help = await createHelp();
    expect(fieldsOf(await call("PUT", `/helps/${help.id}`, root, { title: "" }))).toHaveProperty("title");
    expect(fieldsOf(await call("PUT", `/helps/${help.id}`, root, { video: "nope" }))).toHaveProperty("video");
  });

  it("answers 404 ERR_NO_HELP_FOUND for an id that does not exist", async () => {
    const help = await createHelp();
    expectOk(await call("DELETE", `/helps/${help.id}`, root), 204);
    expectError(await call("PUT", `/helps/${help.id}`, root, { title: "Outro" }), 404, "ERR_NO_HELP_FOUND");
    expectError(await call("DELETE", `/helps/${help.id}`, root), 404, "ERR_NO_HELP_FOUND");
  });
});

describe("who may do what", () => {
  it("a company's admin or agent writes nothing: 403 ERR_NO_PERMISSION, and the help stays", async () => {
    const help = await createHelp();
    for (const who of [admin, agent]) {
      expectError(
        await call("POST", "/helps", who, { title: "Minha", video: VIDEO }),
        403,
        "ERR_NO_PERMISSION",
      );
      // Checked before the lookup: the same answer for an id that exists and one that does not.
      for (const id of [help.id, 2_000_000_000]) {
        expectError(await call("PUT", `/helps/${id}`, who, { title: "Minha" }), 403, "ERR_NO_PERMISSION");
        expectError(await call("DELETE", `/helps/${id}`, who), 403, "ERR_NO_PERMISSION");
      }
    }
    const list = expectOk<HelpDTO[]>(await call("GET", "/helps/list", root));
    expect(list.find((h) => h.id === help.id)).toEqual(help);
    expect(list.some((h) => h.title === "Minha")).toBe(false);
  });

  it("every signed-in user of every company reads the same list", async () => {
    const help = await createHelp();
    const mine = expectOk<HelpDTO[]>(await call("GET", "/helps/list", root));
    expect(mine).toContainEqual(help);
    for (const who of [admin, agent, otherAdmin])
      expect(expectOk<HelpDTO[]>(await call("GET", "/helps/list", who))).toEqual(mine);
    const page = expectOk<HelpsPage>(
      await call("GET", `/helps?searchParam=${encodeURIComponent(help.title)}`, otherAdmin),
    );
    expect(page).toEqual({ records: [help], count: 1, hasMore: false });
  });

  it("without a token: 401 ERR_NO_SESSION on every route", async () => {
    const help = await createHelp();
    for (const [method, url] of [
      ["GET", "/helps"],
      ["GET", "/helps/list"],
      ["POST", "/helps"],
      ["PUT", `/helps/${help.id}`],
      ["DELETE", `/helps/${help.id}`],
    ] as const)
      expectError(await call(method, url, null, { title: "x", video: VIDEO }), 401, "ERR_NO_SESSION");
  });
});

describe("GET /helps: the Ajuda tab's table", () => {
  it("searches title and description, by title, a page at a time", async () => {
    const tag = uid();
    const made: HelpDTO[] = [];
    for (let i = 0; i < LIMITS.pageSize + 2; i++)
      made.push(await createHelp({ title: `Tema ${tag} ${String(i).padStart(2, "0")}` }));
    const byDescription = await createHelp({ title: `Outro ${uid()}`, description: `fala de ${tag}` });

    const first = expectOk<HelpsPage>(await call("GET", `/helps?searchParam=${tag}`, agent));
    expect(first.count).toBe(LIMITS.pageSize + 3);
    expect(first.hasMore).toBe(true);
    // "Outro..." sorts before "Tema...".
    expect(first.records.map((h) => h.id)).toEqual(
      [byDescription, ...made].slice(0, LIMITS.pageSize).map((h) => h.id),
    );
    const second = expectOk<HelpsPage>(await call("GET", `/helps?searchParam=${tag}&pageNumber=2`, agent));
    expect(second).toEqual({
      records: made.slice(LIMITS.pageSize - 1),
      count: LIMITS.pageSize + 3,
      hasMore: false,
    });

    // LIKE's wildcards are plain characters.
    expect(expectOk<HelpsPage>(await call("GET", "/helps?searchParam=%25%25_", agent)).count).toBe(0);
    expectError(await call("GET", "/helps?pageNumber=0", agent), 400, "ERR_VALIDATION");
  });
});

describe("youtubeVideoId", () => {
  it("reduces the forms a YouTube address takes to the id, and refuses the rest", () => {
    for (const form of [
      VIDEO,
      ` ${VIDEO} `,
      `https://www.youtube.com/watch?v=${VIDEO}`,
      `http://youtube.com/watch?feature=share&v=${VIDEO}#t=1`,
      `www.youtube.com/watch?v=${VIDEO}`,
      `https://m.youtube.com/watch?v=${VIDEO}`,
      `https://youtu.be/${VIDEO}?si=abc`,
      `youtu.be/${VIDEO}`,
      `https://www.youtube.com/embed/${VIDEO}`,
      `https://www.youtube-nocookie.com/embed/${VIDEO}`,
      `https://www.youtube.com/shorts/${VIDEO}`,
      `https://www.youtube.com/live/${VIDEO}?feature=share`,
      `HTTPS://WWW.YOUTUBE.COM/watch?v=${VIDEO}`,
    ])
      expect(youtubeVideoId(form), form).toBe(VIDEO);
    for (const bad of [
      "",
      "dQw4w9WgXc",
      "dQw4w9WgXcQQ",
      `https://www.youtube.com/watch?v=${VIDEO}x`,
      `https://www.youtube.com/watch?list=${VIDEO}`,
      `https://www.youtube.com/channel/${VIDEO}`,
      `https://user@www.youtube.com/watch?v=${VIDEO}`,
      `https://www.youtube.com:8080/watch?v=${VIDEO}`,
      `https://youtube.com.evil.com/watch?v=${VIDEO}`,
      `https://evil.com/youtu.be/${VIDEO}`,
      `ftp://youtu.be/${VIDEO}`,
      `https://youtu.be/${VIDEO}/extra`,
      `https://www.youtube.com/watch?v=${VIDEO} onerror=x`,
    ])
      expect(youtubeVideoId(bad), bad).toBeNull();
  });
});
