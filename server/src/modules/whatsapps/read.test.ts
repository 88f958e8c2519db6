import { describe, expect, it } from "vitest";
import type { WhatsappDTO, WhatsappDetailDTO } from "@atende/contracts";

import { buildTeam } from "../../test/factories.js";
import { expectError } from "../../test/calls.js";
import { setupWhatsappsSuite, ctx, list, getOne, created, tokenOf, LIST_KEYS } from "./testing.js";

/**
 * Reading connections (GET /whatsapp, /whatsapp/{id}): the list every user of the company sees without
 * secrets, and the admin's dialog with the token's hint.
 */
setupWhatsappsSuite();

describe("GET /whatsapp", () => {
  it("answers a bare array to every user of the company, agents too, with no token and no provider secrets", async () => {
    const team = await buildTeam(ctx);
    const beta = await created(team.adminLogin, { name: "Beta principal", queueIds: [team.queue.id] });
    const cloud = await created(team.adminLogin, {
      name: "Oficial",
      provider: "cloud",
      cloud: {
        phoneNumberId: "106540352242922",
        wabaId: "102290129340398",
        verifyToken: "verify-token-value",
        accessToken: "EAAG-very-secret-access-token",
        appSecret: "very-secret-app-secret",
      },
    });
    const betaToken = await tokenOf(team.adminLogin, beta.id);
    const cloudToken = await tokenOf(team.adminLogin, cloud.id);
    for (const who of [team.adminLogin, team.agentLogin]) {
      for (const path of ["/whatsapp", "/whatsapp/", "/whatsapp?session=0", "/whatsapp/?session=0"]) {
        const res = await list(who, path);
        expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
        const body = res.json<WhatsappDTO[]>();
        expect(Array.isArray(body)).toBe(true);
        expect(body.map((w) => w.id).sort()).toEqual([beta.id, cloud.id].sort());
        for (const w of body) expect(Object.keys(w).sort()).toEqual(LIST_KEYS);
        expect(res.body).not.toContain(betaToken);
        for (const secret of [
          cloudToken,
          "EAAG-very-secret-access-token",
          "very-secret-app-secret",
          "verify-token-value",
          "providerConfig",
          "accessToken",
          "appSecret",
        ]) {
          expect(res.body).not.toContain(secret);
        }
      }
    }
    const agentView = (await list(team.agentLogin)).json<WhatsappDTO[]>();
    expect(agentView.find((w) => w.id === beta.id)).toMatchObject({
      name: "Beta principal",
      provider: "beta",
      isDefault: true,
      queues: [{ id: team.queue.id, name: team.queue.name, color: team.queue.color }],
    });
  });

  it("answers [] to a company without connections, and 401 without a session", async () => {
    const team = await buildTeam(ctx);
    const res = await list(team.agentLogin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect((await list(null)).statusCode).toBe(401);
  });
});

describe("GET /whatsapp/{id}", () => {
  it("gives the admin the detail: the token only as its hint, and the Cloud settings with secrets only as set/not set", async () => {
    const team = await buildTeam(ctx);
    const cloud = await created(team.adminLogin, {
      name: "Cloud detalhe",
      provider: "cloud",
      cloud: {
        phoneNumberId: "111",
        wabaId: "222",
        verifyToken: "vt-333",
        accessToken: "secret-access-444",
        appSecret: "",
      },
    });
    // The token itself is answered once, by the generate button; afterwards its hint only.
    const token = await tokenOf(team.adminLogin, cloud.id);
    const res = await getOne(team.adminLogin, cloud.id);
    expect(res.statusCode).toBe(200);
    const body = res.json<WhatsappDetailDTO>();
    expect(Object.keys(body).sort()).toEqual([...LIST_KEYS, "cloud", "token", "tokenHint"].sort());
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(body).toMatchObject({ token: "", tokenHint: token.slice(-4) });
    expect(res.body).not.toContain(token);
    expect(body.cloud).toEqual({
      phoneNumberId: "111",
      wabaId: "222",
      verifyToken: "vt-333",
      accessTokenSet: true,
      appSecretSet: false,
      webhookUrl: expect.stringMatching(new RegExp(`/webhooks/cloud/${cloud.id}$`)),
    });
    expect(res.body).not.toContain("secret-access-444");
    expect(res.body).not.toContain("providerConfig");
    // Same on the POST answer.
    expect(JSON.stringify(cloud)).not.toContain("secret-access-444");
  });

  it("answers 403 ERR_NO_PERMISSION to an agent, and 404 ERR_NO_WAPP_FOUND for an id that does not exist", async () => {
    const team = await buildTeam(ctx);
    const w = await created(team.adminLogin);
    const token = await tokenOf(team.adminLogin, w.id);
    const res = await getOne(team.agentLogin, w.id);
    expectError(res, 403, "ERR_NO_PERMISSION");
    expect(res.body).not.toContain(token);
    expectError(await getOne(team.adminLogin, 2_147_483_647), 404, "ERR_NO_WAPP_FOUND");
  });
});
