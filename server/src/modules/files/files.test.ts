import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileListDTO, FileListsPage } from "@atende/contracts";
import { TINY_PNG, caller, expectError, expectOk, fieldsOf } from "../../test/calls.js";
import { type LoggedIn, buildTeam, uid } from "../../test/factories.js";
import { type TestContext, connectSocket, createTestContext, waitFor } from "../../test/harness.js";

/**
 * File lists over HTTP on a real database: name min 3 ('nome muito curto') and message required,
 * the {files, count, hasMore} page, options kept/added/removed on edit, files uploaded to their
 * option through /files/uploadList/{id}, another company's list not found, live `company-{id}-file`.
 */

let ctx: TestContext;
let adminA: LoggedIn;
let adminB: LoggedIn;
const call = caller(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({ LOGIN_MAX_PER_EMAIL: 1000, LOGIN_MAX_PER_IP: 100_000 });
  adminA = (await buildTeam(ctx)).adminLogin;
  adminB = (await buildTeam(ctx)).adminLogin;
});
afterAll(() => ctx.close());

/** The uploadList form: files in order, with the option id and name each is for. */
function uploadForm(parts: { id?: number; name?: string; data: Buffer; filename: string; type: string }[]) {
  const boundary = `----atende${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  const field = (name: string, value: string) =>
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  field("typeArch", "fileList");
  for (const p of parts) {
    if (p.id) field("id", String(p.id));
    if (p.name) field("name", p.name);
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`,
      ),
      p.data,
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

describe("file lists", () => {
  it("validates: name min 3 ('nome muito curto'), message required", async () => {
    const f = fieldsOf(await call("POST", "/files", adminA, { name: "ab", message: "" }));
    expect(f).toMatchObject({ name: "nome muito curto", message: "Required" });
  });

  it("creates with options, pages, edits options, uploads files, deletes; live on company-{id}-file", async () => {
    const socket = await connectSocket(await ctx.url(), adminA.token);
    const heard: { action: string }[] = [];
    socket.on(`company-${adminA.user.companyId}-file`, (p: { action: string }) => heard.push(p));
    try {
      const name = `Catálogo ${uid()}`;
      const list = expectOk<FileListDTO>(
        await call("POST", "/files", adminA, {
          name,
          message: "Veja",
          options: [{ name: "Foto" }, { name: "Tabela" }],
        }),
        201,
      );
      expect(list.options.map((o) => [o.name, o.path])).toEqual([
        ["Foto", ""],
        ["Tabela", ""],
      ]);
      const page = expectOk<FileListsPage>(
        await call("GET", `/files/?searchParam=${encodeURIComponent(name)}&pageNumber=1`, adminA),
      );
      expect(page).toMatchObject({ count: 1, hasMore: false });
      expect(page.files[0]!.id).toBe(list.id);

      // Keep Foto (renamed), drop Tabela, add PDF.
      const [foto] = list.options;
      const edited = expectOk<FileListDTO>(
        await call("PUT", `/files/${list.id}`, adminA, {
          options: [{ id: foto!.id, name: "Foto 1" }, { name: "PDF" }],
        }),
      );
      expect(edited.options.map((o) => o.name)).toEqual(["Foto 1", "PDF"]);

      const form = uploadForm([{ id: foto!.id, data: TINY_PNG, filename: "a.png", type: "image/png" }]);
      const uploaded = expectOk<FileListDTO>(
        await call("POST", `/files/uploadList/${list.id}`, adminA, form.payload, form.headers),
      );
      const withFile = uploaded.options.find((o) => o.id === foto!.id)!;
      expect(withFile.mediaType).toBe("image/png");
      expect(withFile.path).toMatch(/\.png$/);
      const read = await call("GET", `/files/${list.id}/options/${foto!.id}`, adminA);
      expect(read.statusCode).toBe(200);
      expect(read.rawPayload.equals(TINY_PNG)).toBe(true);
      const reread = expectOk<FileListDTO>(await call("GET", `/files/${list.id}`, adminA));
      expect(reread.options).toEqual(uploaded.options);

      expectOk(await call("DELETE", `/files/${list.id}`, adminA));
      expectError(await call("GET", `/files/${list.id}`, adminA), 404, "ERR_NO_FILE_LIST_FOUND");
      await waitFor(() => heard.length >= 4);
      expect(heard.map((h) => h.action)).toEqual(["create", "update", "update", "delete"]);
    } finally {
      socket.close();
    }
  });

  it("another company's file list is not found", async () => {
    const list = expectOk<FileListDTO>(
      await call("POST", "/files", adminA, { name: "Privada", message: "m" }),
      201,
    );
    expectError(await call("GET", `/files/${list.id}`, adminB), 404, "ERR_NO_FILE_LIST_FOUND");
    expectError(
      await call("PUT", `/files/${list.id}`, adminB, { name: "Minha" }),
      404,
      "ERR_NO_FILE_LIST_FOUND",
    );
    expectError(await call("DELETE", `/files/${list.id}`, adminB), 404, "ERR_NO_FILE_LIST_FOUND");
    const form = uploadForm([{ data: TINY_PNG, filename: "a.png", type: "image/png" }]);
    expectError(
      await call("POST", `/files/uploadList/${list.id}`, adminB, form.payload, form.headers),
      404,
      "ERR_NO_FILE_LIST_FOUND",
    );
    const page = expectOk<FileListsPage>(await call("GET", "/files/?searchParam=Privada", adminB));
    expect(page.files.map((f) => f.id)).not.toContain(list.id);
  });
});
