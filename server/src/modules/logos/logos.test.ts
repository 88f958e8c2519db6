import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOGO_MAX_BYTES, LOGO_TARGETS, type LogoUploadAnswer, type LogosDTO } from "@atende/contracts";
import { type LoggedIn, buildPlatformOperator, buildTeam } from "../../test/factories.js";
import { type TestContext, createTestContext } from "../../test/harness.js";
import { expectError, expectOk, fileForm } from "../../test/calls.js";
import { sanitizeSvg } from "./svg.js";

/**
 * The platform's logos (back-office spec: Settings page Logo tab, §5 Logo upload, §7
 * POST /settings/media-upload?ref={target}, §8 messages, §9 targets): the super user uploads a PNG,
 * ICO or SVG per target, checked by content; an SVG is rewritten without script and every logo is
 * served under a sandboxing CSP; anyone reads the current logos before logging in; a new upload
 * replaces the old file. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */

let ctx: TestContext;
let superLogin: LoggedIn;
let team: Awaited<ReturnType<typeof buildTeam>>;

beforeAll(async () => {
  ctx = await createTestContext();
  superLogin = (await buildPlatformOperator(ctx)).login;
  team = await buildTeam(ctx);
});
afterAll(async () => {
  await ctx.close();
});

/** A real 1x1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
/** A real ICO holding that PNG (ICONDIR, one ICONDIRENTRY, the image). */
const ICO = Buffer.concat([
  Buffer.from([0, 0, 1, 0, 1, 0]),
  Buffer.from([1, 1, 0, 0, 1, 0, 32, 0]),
  Buffer.from(Uint32Array.of(PNG.length).buffer),
  Buffer.from(Uint32Array.of(22).buffer),
  PNG,
]);
/** The start of a real JPEG (SOI, JFIF APP0). */
const JPEG = Buffer.from(
  "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=",
  "base64",
);
const SVG = Buffer.from(
  `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#008069"/></svg>`,
);
const HOSTILE_SVG = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(1)" viewBox="0 0 10 10">
  <script>alert(document.cookie)</script>
  <SCRIPT type="text/ecmascript">alert(2)</SCRIPT>
  <foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:alert(3)"></iframe></foreignObject>
  <a xlink:href="javascript:alert(4)"><circle cx="5" cy="5" r="4" fill="#008069" onclick="alert(5)"/></a>
  <a href="&#106;avascript:alert(6)"><rect width="1" height="1"/></a>
  <a><set attributeName="href" to="javascript:alert(7)"/><text x="1" y="9">Atende</text></a>
</svg>`,
);

const upload = (
  ref: string | null,
  data: Buffer | null,
  filename = "logo.png",
  mimetype = "image/png",
  who: LoggedIn | null = superLogin,
) => {
  const form = data ? fileForm(data, filename, mimetype) : { payload: undefined, headers: {} };
  return ctx.app.inject({
    method: "POST",
    url: ref === null ? "/settings/media-upload" : `/settings/media-upload?ref=${encodeURIComponent(ref)}`,
    payload: form.payload,
    headers: { ...(who?.auth ?? {}), ...form.headers },
  });
};

/** The public read, without a session. */
const logos = async () => expectOk<LogosDTO>(await ctx.app.inject({ method: "GET", url: "/settings/logos" }));
const fetchLogo = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: "GET", url, headers });

/** The web app manifest, as a browser reads it before anyone logs in. */
const webManifest = async () => {
  const res = await ctx.app.inject({ method: "GET", url: "/manifest.webmanifest" });
  expect(res.headers["content-type"]).toMatch(/^application\/manifest\+json/);
  return expectOk<{ name: string; icons: unknown[]; theme_color: string }>(res);
};

const logosDir = () => path.join(ctx.deps.media.root, "logos");
const storedFiles = () => (fs.existsSync(logosDir()) ? fs.readdirSync(logosDir()).sort() : []);

describe("POST /settings/media-upload?ref={target}", () => {
  it("before any upload, every target reads null (the built-in logo), without logging in", async () => {
    expect(await logos()).toEqual(Object.fromEntries(LOGO_TARGETS.map((t) => [t, null])));
    expectError(await fetchLogo("/public/logotipos/login.png"), 404, "ERR_NOT_FOUND");
    // The app installs with the built-in icons: the sizes Chrome and Android ask for, one maskable.
    const manifest = await webManifest();
    expect(manifest).toMatchObject({ name: "Atende", start_url: "/", display: "standalone" });
    expect(manifest.icons).toEqual([
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ]);
  });

  it("the web app manifest takes the platform's 256x256 icon once one is uploaded", async () => {
    const answer = expectOk<LogoUploadAnswer>(await upload("favicon-256x256", PNG, "icon.png"));
    const manifest = await webManifest();
    expect(manifest.icons).toEqual([
      { src: answer.url, sizes: "256x256", type: "image/png", purpose: "any" },
    ]);
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
  });

  it("takes a real PNG, ICO or SVG for each target; anyone reads it back at the URL the public read names", async () => {
    const files: Record<string, [Buffer, string, string, string]> = {
      signup: [PNG, "signup.png", "image/png", "image/png"],
      login: [SVG, "login.svg", "image/svg+xml", "image/svg+xml"],
      interno: [PNG, "interno.png", "image/png", "image/png"],
      favicon: [ICO, "favicon.ico", "image/x-icon", "image/x-icon"],
      "favicon-256x256": [PNG, "icon.png", "image/png", "image/png"],
      "apple-touch-icon": [ICO, "apple.ico", "image/vnd.microsoft.icon", "image/x-icon"],
    };
    expect(Object.keys(files).sort()).toEqual([...LOGO_TARGETS].sort());
    for (const [target, [data, name, declared, served]] of Object.entries(files)) {
      const answer = expectOk<LogoUploadAnswer>(await upload(target, data, name, declared));
      expect(answer.mensagem).toBe("Arquivo Anexado");
      expect(answer.ref).toBe(target);
      expect(answer.logos[target as keyof LogosDTO]).toBe(answer.url);
      const ext = served === "image/png" ? "png" : served === "image/x-icon" ? "ico" : "svg";
      expect(answer.url).toMatch(new RegExp(`^/public/logotipos/${target}\\.${ext}\\?v=[0-9a-f-]{36}$`));
      expect((await logos())[target as keyof LogosDTO]).toBe(answer.url);

      const res = await fetchLogo(answer.url);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["content-type"]).toBe(served);
      expect(res.headers["content-security-policy"]).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      );
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      if (ext !== "svg") expect(res.rawPayload.equals(data)).toBe(true);
      // The compatible path without a version ("/public/logotipos/{target}.png") serves the same file.
      const compat = await fetchLogo(`/public/logotipos/${target}.png?r=0.123`);
      expect(compat.rawPayload.equals(res.rawPayload)).toBe(true);
      expect(compat.headers["cache-control"]).toBe("no-cache");
    }
  });

  it("a versioned URL is cached for good; a revalidation with the ETag answers 304", async () => {
    const { url } = expectOk<LogoUploadAnswer>(await upload("interno", PNG));
    const res = await fetchLogo(url);
    expect(res.headers["cache-control"]).toContain("immutable");
    const again = await fetchLogo("/public/logotipos/interno.png", {
      "if-none-match": String(res.headers.etag),
    });
    expect(again.statusCode).toBe(304);
  });

  it("refuses by content: a JPEG named .png, text named .svg, an HTML page, a non-SVG XML; nothing changes", async () => {
    const before = await logos();
    const filesBefore = storedFiles();
    const cases: [Buffer, string, string][] = [
      [JPEG, "logo.png", "image/png"],
      [Buffer.from("just some words"), "logo.svg", "image/svg+xml"],
      [Buffer.from("<html><body><script>alert(1)</script></body></html>"), "logo.svg", "image/svg+xml"],
      [Buffer.from('<?xml version="1.0"?><note><to>x</to></note>'), "logo.svg", "image/svg+xml"],
      [Buffer.from("<svg><g></svg>"), "logo.svg", "image/svg+xml"],
      [
        Buffer.from('<!DOCTYPE svg [<!ENTITY x "&#60;script&#62;alert(1)&#60;/script&#62;">]><svg>&x;</svg>'),
        "logo.svg",
        "image/svg+xml",
      ],
    ];
    for (const [data, name, mimetype] of cases) {
      const res = await upload("login", data, name, mimetype);
      expectError(res, 400, "ERR_LOGO_INVALID_TYPE");
      expect(res.json<{ message: string }>().message).toBe(
        "Use somente arquivos em formato PNG, ICO ou SVG!",
      );
    }
    const jpeg = fileForm(JPEG, "logo.png", "image/png");
    const en = await ctx.app.inject({
      method: "POST",
      url: "/settings/media-upload?ref=login",
      payload: jpeg.payload,
      headers: { ...superLogin.auth, ...jpeg.headers, "accept-language": "en" },
    });
    expect(en.json<{ message: string }>().message).toBe("Use only PNG, ICO or SVG files!");
    expect(await logos()).toEqual(before);
    expect(storedFiles()).toEqual(filesBefore);
  });

  it("an SVG is served without its script, handlers, javascript: links or foreignObject, under a sandboxing CSP", async () => {
    const { url } = expectOk<LogoUploadAnswer>(
      await upload("login", HOSTILE_SVG, "logo.svg", "image/svg+xml"),
    );
    const res = await fetchLogo(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("image/svg+xml");
    expect(res.headers["content-security-policy"]).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    const served = res.body;
    for (const gone of [
      /script/i,
      /\bon[a-z]+=/i,
      /javascript:/i,
      /&#106;/,
      /foreignObject/i,
      /iframe/i,
      /alert/,
      /<set/,
    ])
      expect(served, String(gone)).not.toMatch(gone);
    // The drawing itself stays.
    expect(served).toContain('<circle cx="5" cy="5" r="4" fill="#008069"/>');
    expect(served).toContain('<text x="1" y="9">Atende</text>');
    expect(served.startsWith("<svg")).toBe(true);
  });

  it("a new upload for a target replaces its file: the old one is removed, other targets' files stay", async () => {
    const first = expectOk<LogoUploadAnswer>(await upload("signup", PNG));
    const files = storedFiles();
    const signupFiles = files.filter((f) => f.startsWith("signup-"));
    expect(signupFiles).toHaveLength(1);
    const second = expectOk<LogoUploadAnswer>(await upload("signup", SVG, "new.svg", "image/svg+xml"));
    expect(second.url).not.toBe(first.url);
    const after = storedFiles();
    expect(after.filter((f) => f.startsWith("signup-"))).toHaveLength(1);
    expect(after).not.toContain(signupFiles[0]);
    expect(after.filter((f) => !f.startsWith("signup-"))).toEqual(
      files.filter((f) => !f.startsWith("signup-")),
    );
    // One stored file per target, whatever was uploaded before.
    expect(after).toHaveLength(LOGO_TARGETS.length);
    expect((await logos()).signup).toBe(second.url);
    expect((await fetchLogo(second.url)).headers["content-type"]).toBe("image/svg+xml");
  });

  it("no file: 'Escolha um arquivo!'; no target or an unknown one: 'Escolha um destino!'", async () => {
    const noFile = await upload("login", null);
    expectError(noFile, 400, "ERR_LOGO_FILE_REQUIRED");
    expect(noFile.json<{ message: string }>().message).toBe("Escolha um arquivo!");
    expectError(await upload("login", Buffer.alloc(0)), 400, "ERR_LOGO_FILE_REQUIRED");
    for (const ref of [null, "", "banner", "../../etc/passwd", "LOGIN"]) {
      const res = await upload(ref, PNG);
      expectError(res, 400, "ERR_LOGO_TARGET_REQUIRED");
      expect(res.json<{ message: string }>().message).toBe("Escolha um destino!");
    }
  });

  it("a file over the limit answers 413 ERR_MEDIA_TOO_LARGE", async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES)]);
    expectError(await upload("login", big), 413, "ERR_MEDIA_TOO_LARGE");
  });

  it("only the super user uploads: a company admin and an agent get 403, no session 401; nothing changes", async () => {
    const before = await logos();
    const filesBefore = storedFiles();
    expectError(
      await upload("login", PNG, "logo.png", "image/png", team.adminLogin),
      403,
      "ERR_NO_PERMISSION",
    );
    expectError(
      await upload("login", PNG, "logo.png", "image/png", team.agentLogin),
      403,
      "ERR_NO_PERMISSION",
    );
    expectError(await upload("login", PNG, "logo.png", "image/png", null), 401, "ERR_NO_SESSION");
    expect(await logos()).toEqual(before);
    expect(storedFiles()).toEqual(filesBefore);
  });

  it("the files path takes only a target's name (any extension): anything else is 404", async () => {
    for (const file of ["banner.png", "..%2F..%2Fetc%2Fpasswd", "login.png.exe", "logins.png", "%2e%2e"])
      expect((await fetchLogo(`/public/logotipos/${file}`)).statusCode, file).toBe(404);
  });
});

describe("sanitizeSvg (DOMPurify's SVG profile on jsdom)", () => {
  const clean = async (svg: string) => (await sanitizeSvg(Buffer.from(svg)))?.toString("utf8") ?? null;

  it("drops script by local name and prefix, handlers, and href-like values that run script", async () => {
    const out = await clean(
      `<svg:svg xmlns:svg="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/1999/xhtml">` +
        `<svg:script>alert(1)</svg:script><x:script>alert(2)</x:script>` +
        `<svg:image href="  java&#x09;script:alert(3)"/><svg:image href="data:text/html,&lt;script&gt;"/>` +
        `<svg:image href="data:image/png;base64,AAAA" ONLOAD="alert(4)"/>` +
        `<svg:animate attributeName="xlink:href" values="x;javascript:alert(5)"/>` +
        `<svg:use href="#a"/><svg:handler type="application/ecmascript">alert(6)</svg:handler></svg:svg>`,
    );
    expect(out).not.toBeNull();
    expect(out).not.toMatch(/script|alert|onload|data:text|animate|handler/i);
    // Written again without prefixes, in the SVG namespace.
    expect(out).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg">/);
    expect(out).toContain('<image href="data:image/png;base64,AAAA"/>');
    expect(out).toContain('<use href="#a"/>');
  });

  it("drops processing instructions (xml-stylesheet), comments and the DOCTYPE; keeps CDATA's text and text", async () => {
    const out = await clean(
      `<?xml version="1.0"?><?xml-stylesheet href="javascript:alert(1)"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">` +
        `<!-- hi --><svg><style><![CDATA[circle{fill:red}]]></style><text>a &amp; b</text></svg>`,
    );
    expect(out).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg"><style>circle{fill:red}</style><text>a &amp; b</text></svg>',
    );
  });

  it("refuses what it cannot read: no svg root, two roots, text outside, unquoted or broken attributes, entities", async () => {
    for (const bad of [
      "<html></html>",
      '<svg xmlns="http://www.w3.org/1999/xhtml"></svg>',
      "<svg></svg><svg></svg>",
      "x<svg></svg>",
      "<svg width=10></svg>",
      '<svg a="1></svg>',
      "<svg><g></svg>",
      "<svg>",
      "\u0000<svg></svg>",
      '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><svg><text>&b;</text></svg>',
    ])
      expect(await clean(bad), bad).toBeNull();
  });

  it("keeps the drawing: camelCase names, gradients, filters, clip paths, text, and references inside the file", async () => {
    const drawing =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" preserveAspectRatio="xMidYMid meet" xmlns:xlink="http://www.w3.org/1999/xlink">' +
      '<defs><linearGradient id="g" gradientUnits="userSpaceOnUse"><stop offset="0" stop-color="#008069"/></linearGradient>' +
      '<filter id="f"><feGaussianBlur stdDeviation="1"/></filter><clipPath id="c"><rect width="5" height="5"/></clipPath></defs>' +
      '<circle cx="5" cy="5" r="4" fill="url(#g)" filter="url(#f)" clip-path="url(#c)" style="stroke:url(#g)"/>' +
      '<use xlink:href="#c"/><text x="1" y="9" font-family="sans-serif">Atende</text></svg>';
    expect(await clean(drawing)).toBe(drawing);
  });

  it("refers to nothing outside the logo: external hrefs (use, image, feImage, a), url() in attributes and styles, @import", async () => {
    const out = await clean(
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">' +
        '<use href="https://evil.example/x.svg#a"/><use xlink:href="//evil.example/x.svg#a"/>' +
        '<image href="https://evil.example/p.png"/><image xlink:href="data:image/svg+xml;base64,PHN2Zz4="/>' +
        '<filter id="f"><feImage href="https://evil.example/x.png"/></filter>' +
        '<a href="https://evil.example/"><text>link</text></a>' +
        '<rect style="fill:url(https://evil.example/f.svg#g)" filter="url( \'https://evil.example/f.svg#f\' )"/>' +
        '<rect fill="url(evil.svg#g)" mask="u\\72l(https://evil.example/m.svg)"/>' +
        "<style>@import url(https://evil.example/x.css);</style>" +
        "<style>circle{fill:url(https://evil.example/f.svg#g)}</style>" +
        '<style>rect{background:image-set("https://evil.example/x.png" 1x)}</style></svg>',
    );
    expect(out).not.toBeNull();
    expect(out).not.toMatch(/evil|data:image\/svg|@import|\\72/);
    expect(out).toContain("<text>link</text>");
  });
});
