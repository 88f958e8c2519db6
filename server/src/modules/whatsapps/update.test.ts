import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { WhatsappDetailDTO, WhatsappTokenDTO } from "@atende/contracts";
import { whatsapps } from "../../db/schema/index.js";
import { secretBoxFor } from "../../lib/secretBox.js";

import { buildQueue, buildTeam } from "../../test/factories.js";
import { expectError } from "../../test/calls.js";
import {
  setupWhatsappsSuite,
  ctx,
  getOne,
  update,
  rowOf,
  defaultsOf,
  queueIdsOf,
  created,
  dialogBody,
  rotateToken,
  tokenOf,
  SCHEDULES,
} from "./testing.js";
import { connectionTokenHash, hashLegacyTokens } from "./tokens.js";

/**
 * Editing a connection (PUT /whatsapp/{id}): fields and queues, the token (and its rotation), the name, the default
 * connection, Cloud secrets, admins only.
 */
setupWhatsappsSuite();

describe("PUT /whatsapp/{id}", () => {
  it("edits the fields and the queues", async () => {
    const team = await buildTeam(ctx);
    const q2 = await buildQueue(ctx.deps.db, team.company.id);
    const w = await created(team.adminLogin, { queueIds: [team.queue.id] });
    const res = await update(
      team.adminLogin,
      w.id,
      dialogBody(w, {
        name: "Renomeada",
        greetingMessage: "Bem-vindo",
        queueIds: [q2.id, team.queue.id],
        transferQueueId: q2.id,
        timeToTransfer: 15,
        maxUseBotQueues: 7,
        schedules: SCHEDULES,
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<WhatsappDetailDTO>();
    expect(body).toMatchObject({
      id: w.id,
      name: "Renomeada",
      greetingMessage: "Bem-vindo",
      transferQueueId: q2.id,
      timeToTransfer: 15,
      maxUseBotQueues: 7,
      schedules: SCHEDULES,
      token: "",
      tokenHint: w.tokenHint,
      isDefault: true,
    });
    expect(body.queues.map((q) => q.id).sort((a, b) => a - b)).toEqual(
      [team.queue.id, q2.id].sort((a, b) => a - b),
    );
    expect(await rowOf(w.id)).toMatchObject({
      name: "Renomeada",
      greetingMessage: "Bem-vindo",
      tokenHint: w.tokenHint,
    });
    expect(await queueIdsOf(w.id)).toEqual([team.queue.id, q2.id].sort((a, b) => a - b));

    // Dropping the queues.
    const cleared = await update(team.adminLogin, w.id, dialogBody(body, { queueIds: [] }));
    expect(cleared.statusCode).toBe(200);
    expect(await queueIdsOf(w.id)).toEqual([]);
  });

  it("keeps the token when it is sent blank or as itself; refuses any other (another company's too) with 400", async () => {
    const team = await buildTeam(ctx);
    const other = await buildTeam(ctx);
    const foreign = await created(other.adminLogin);
    const foreignToken = await tokenOf(other.adminLogin, foreign.id);
    const w = await created(team.adminLogin);
    const token = await tokenOf(team.adminLogin, w.id);
    const before = (await rowOf(w.id))!.tokenHash;
    for (const sent of ["", token]) {
      const kept = await update(team.adminLogin, w.id, dialogBody(w, { token: sent }));
      expect(kept.statusCode, kept.body).toBe(200);
      expect(kept.json<WhatsappDetailDTO>()).toMatchObject({ token: "", tokenHint: token.slice(-4) });
    }
    const typed = await update(team.adminLogin, w.id, dialogBody(w, { token: "novo-token-da-api-123" }));
    expectError(typed, 400, "ERR_WAPP_TOKEN_NOT_SETTABLE");
    const taken = await update(team.adminLogin, w.id, dialogBody(w, { token: foreignToken }));
    expectError(taken, 400, "ERR_WAPP_TOKEN_NOT_SETTABLE");
    expect(taken.body).toBe(typed.body);
    expect((await rowOf(w.id))!.tokenHash).toBe(before);
  });

  it("POST /whatsapp/{id}/token answers a new token once; the old one is gone; admins of the company only", async () => {
    const team = await buildTeam(ctx);
    const other = await buildTeam(ctx);
    const w = await created(team.adminLogin);
    const first = await tokenOf(team.adminLogin, w.id);
    const res = await rotateToken(ctx, team.adminLogin.auth, w.id);
    expect(res.statusCode, res.body).toBe(200);
    const fresh = res.json<WhatsappTokenDTO>();
    expect(fresh.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fresh).toEqual({ token: fresh.token, tokenHint: fresh.token.slice(-4) });
    expect(fresh.token).not.toBe(first);
    const detail = (await getOne(team.adminLogin, w.id)).json<WhatsappDetailDTO>();
    expect(detail).toMatchObject({ token: "", tokenHint: fresh.token.slice(-4) });
    // The old token sent back is now just a typed one.
    expectError(
      await update(team.adminLogin, w.id, dialogBody(w, { token: first })),
      400,
      "ERR_WAPP_TOKEN_NOT_SETTABLE",
    );
    const hash = (await rowOf(w.id))!.tokenHash;
    expectError(await rotateToken(ctx, team.agentLogin.auth, w.id), 403, "ERR_NO_PERMISSION");
    expectError(await rotateToken(ctx, other.adminLogin.auth, w.id), 404, "ERR_NO_WAPP_FOUND");
    expect((await rowOf(w.id))!.tokenHash).toBe(hash);
  });

  it("a token from before the hashes, rotated away, stays gone: the rotation drops it and the start-up step keeps the newer hash", async () => {
    const team = await buildTeam(ctx);
    const box = secretBoxFor(ctx.deps.config);
    const legacyOf = async (legacy: string, hashed: boolean) => {
      const w = await created(team.adminLogin);
      if (hashed) await tokenOf(team.adminLogin, w.id);
      await ctx.deps.db.update(whatsapps).set({ legacyToken: legacy }).where(eq(whatsapps.id, w.id));
      return w.id;
    };
    // Rotated before the start-up step hashed its clear token: the rotation drops the clear one.
    const rotatedFirst = await legacyOf("1234", false);
    const fresh = (await rotateToken(ctx, team.adminLogin.auth, rotatedFirst)).json<WhatsappTokenDTO>();
    expect(await rowOf(rotatedFirst)).toMatchObject({ legacyToken: null, tokenHint: fresh.token.slice(-4) });
    // A row holding both (written by a rotation that left the clear token): the newer hash wins.
    const both = await legacyOf("5678", true);
    const newer = (await rowOf(both))!;
    expect(newer.tokenHash).not.toBeNull();
    expect(await hashLegacyTokens(ctx.deps.db, box)).toBe(0);
    expect(await rowOf(both)).toMatchObject({
      legacyToken: null,
      tokenHash: newer.tokenHash,
      tokenHint: newer.tokenHint,
    });
    expect((await rowOf(both))!.tokenHash).not.toBe(connectionTokenHash(box, "5678"));
    expect((await rowOf(rotatedFirst))!.tokenHash).toBe(connectionTokenHash(box, fresh.token));
    // A clear token alone is still hashed (a client holding it keeps working).
    const alone = await legacyOf("9012", false);
    expect(await hashLegacyTokens(ctx.deps.db, box)).toBe(1);
    expect(await rowOf(alone)).toMatchObject({
      legacyToken: null,
      tokenHash: connectionTokenHash(box, "9012"),
      tokenHint: "****",
    });
  });

  it("refuses the name of another connection of the company, and validates like create", async () => {
    const team = await buildTeam(ctx);
    const a = await created(team.adminLogin, { name: "Loja A" });
    const b = await created(team.adminLogin, { name: "Loja B" });
    expectError(
      await update(team.adminLogin, b.id, dialogBody(b, { name: "Loja A" })),
      409,
      "ERR_WAPP_NAME_TAKEN",
    );
    // Saving with its own name is fine.
    expect((await update(team.adminLogin, a.id, dialogBody(a))).statusCode).toBe(200);
    const short = await update(team.adminLogin, b.id, dialogBody(b, { name: "B" }));
    expectError(short, 400, "ERR_VALIDATION");
    expect(short.json().fields).toMatchObject({ name: "Too Short!" });
    const q2 = await buildQueue(ctx.deps.db, team.company.id);
    expectError(
      await update(
        team.adminLogin,
        b.id,
        dialogBody(b, { queueIds: [team.queue.id, q2.id], greetingMessage: "" }),
      ),
      400,
      "ERR_WAPP_GREETING_REQUIRED",
    );
    expect(await rowOf(b.id)).toMatchObject({ name: "Loja B" });
    expect(await queueIdsOf(b.id)).toEqual([]);
  });

  it("setting isDefault on B unsets A; unsetting it on the only default answers 400 ERR_NO_OTHER_WHATSAPP", async () => {
    const team = await buildTeam(ctx);
    const a = await created(team.adminLogin, { name: "Padrão A" });
    const b = await created(team.adminLogin, { name: "Outra B" });
    expect(await defaultsOf(team.company.id)).toEqual([a.id]);

    const res = await update(team.adminLogin, b.id, dialogBody(b, { isDefault: true }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<WhatsappDetailDTO>().isDefault).toBe(true);
    expect(await defaultsOf(team.company.id)).toEqual([b.id]);
    expect((await getOne(team.adminLogin, a.id)).json<WhatsappDetailDTO>().isDefault).toBe(false);

    const refused = await update(team.adminLogin, b.id, dialogBody(b, { isDefault: false }));
    expectError(refused, 400, "ERR_NO_OTHER_WHATSAPP");
    expect(await defaultsOf(team.company.id)).toEqual([b.id]);
  });

  it("Cloud secrets: an empty accessToken keeps the stored one, a new one replaces it, and neither is ever answered", async () => {
    const team = await buildTeam(ctx);
    const cloud = {
      phoneNumberId: "555",
      wabaId: "666",
      verifyToken: "vt",
      accessToken: "first-access-token",
      appSecret: "first-app-secret",
    };
    const w = await created(team.adminLogin, { provider: "cloud", cloud });
    expect(w.cloud).toMatchObject({ accessTokenSet: true, appSecretSet: true });

    const kept = await update(
      team.adminLogin,
      w.id,
      dialogBody(w, { cloud: { ...cloud, accessToken: "", appSecret: "", wabaId: "777" } }),
    );
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<WhatsappDetailDTO>().cloud).toMatchObject({
      wabaId: "777",
      accessTokenSet: true,
      appSecretSet: true,
    });
    expect((await rowOf(w.id))!.providerConfig).toMatchObject({
      accessToken: "first-access-token",
      appSecret: "first-app-secret",
      wabaId: "777",
    });

    const replaced = await update(
      team.adminLogin,
      w.id,
      dialogBody(w, { cloud: { ...cloud, accessToken: "second-access-token", appSecret: "" } }),
    );
    expect(replaced.statusCode).toBe(200);
    expect(replaced.body).not.toContain("second-access-token");
    expect(replaced.body).not.toContain("first-app-secret");
    expect((await rowOf(w.id))!.providerConfig).toMatchObject({
      accessToken: "second-access-token",
      appSecret: "first-app-secret",
    });

    // A save without the cloud block (the dialog of another provider) keeps the settings too.
    await update(team.adminLogin, w.id, dialogBody(w));
    expect((await rowOf(w.id))!.providerConfig).toMatchObject({ accessToken: "second-access-token" });
  });

  it("refuses an agent with 403 and an unknown id with 404, changing nothing", async () => {
    const team = await buildTeam(ctx);
    const w = await created(team.adminLogin, { name: "Intacta" });
    expectError(
      await update(team.agentLogin, w.id, dialogBody(w, { name: "Do agente" })),
      403,
      "ERR_NO_PERMISSION",
    );
    expectError(await update(team.adminLogin, 2_147_483_647, dialogBody(w)), 404, "ERR_NO_WAPP_FOUND");
    expect((await rowOf(w.id))!.name).toBe("Intacta");
  });
});
