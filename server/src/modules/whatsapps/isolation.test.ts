import { describe, expect, it } from "vitest";
import type { WhatsappDTO, WhatsappDetailDTO } from "@atende/contracts";

import { connectSimulator } from "../../test/channels.js";
import { buildTeam } from "../../test/factories.js";
import { expectError } from "../../test/calls.js";
import {
  setupWhatsappsSuite,
  ctx,
  call,
  list,
  getOne,
  create,
  update,
  remove,
  rowOf,
  eventually,
  queueIdsOf,
  created,
  dialogBody,
  tokenOf,
} from "./testing.js";

/**
 * Tenant isolation: another company's admin gets 404 on every call and changes nothing, and the caller's
 * company always decides.
 */
setupWhatsappsSuite();

describe("tenant isolation", () => {
  it("an admin of company B gets 404 ERR_NO_WAPP_FOUND on every call about company A's connection, and nothing changes", async () => {
    const teamA = await buildTeam(ctx);
    const teamB = await buildTeam(ctx);
    const w = await connectSimulator(ctx, teamA.adminLogin, {
      name: "Conexão de A",
      queueIds: [teamA.queue.id],
    });
    const own = await created(teamB.adminLogin, { name: "Conexão de B" });
    const token = await tokenOf(teamA.adminLogin, w.id);
    const before = await rowOf(w.id);
    expect(before!.status).toBe("CONNECTED");
    const queuesBefore = await queueIdsOf(w.id);

    const attempts = [
      await getOne(teamB.adminLogin, w.id),
      await update(teamB.adminLogin, w.id, { name: "Tomada por B", isDefault: true, queueIds: [] }),
      await update(teamB.adminLogin, w.id, dialogBody(own, { name: "Tomada por B" })),
      await call("POST", `/whatsappsession/${w.id}`, teamB.adminLogin),
      await call("PUT", `/whatsappsession/${w.id}`, teamB.adminLogin),
      await call("DELETE", `/whatsappsession/${w.id}`, teamB.adminLogin),
      await call("POST", `/whatsapp/${w.id}/token`, teamB.adminLogin),
      await remove(teamB.adminLogin, w.id),
    ];
    for (const res of attempts) {
      expectError(res, 404, "ERR_NO_WAPP_FOUND");
      expect(res.body).not.toContain(token);
      expect(res.body).not.toContain("Conexão de A");
    }
    // An agent of B is told the same (not 403, which would confirm the id exists).
    expectError(await getOne(teamB.agentLogin, w.id), 404, "ERR_NO_WAPP_FOUND");

    // Restarting B's connections leaves A's session alone: once B's own is running again, A's is untouched.
    expect((await call("POST", "/whatsapp-restart/", teamB.adminLogin)).statusCode).toBe(204);
    await eventually(() => ctx.built.channels.sessions.session(own.id) !== null);
    expect(await rowOf(w.id)).toEqual(before);
    expect(await queueIdsOf(w.id)).toEqual(queuesBefore);
    expect(ctx.built.channels.sessions.session(w.id)).not.toBeNull();

    for (const who of [teamB.adminLogin, teamB.agentLogin]) {
      const listed = (await list(who)).json<WhatsappDTO[]>();
      expect(listed.map((x) => x.id)).toEqual([own.id]);
    }
    const listedA = (await list(teamA.adminLogin)).json<WhatsappDTO[]>();
    expect(listedA.map((x) => x.id)).toEqual([w.id]);
  });

  it("a companyId in the query or the body is ignored: the caller's company decides", async () => {
    const teamA = await buildTeam(ctx);
    const teamB = await buildTeam(ctx);
    const a = await created(teamA.adminLogin, { name: "Só de A" });
    for (const path of [
      `/whatsapp?companyId=${teamA.company.id}`,
      `/whatsapp/?companyId=${teamA.company.id}&session=0`,
    ]) {
      const res = await list(teamB.adminLogin, path);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
    }
    const res = await create(teamB.adminLogin, { name: "Tentativa", companyId: teamA.company.id });
    expect(res.statusCode, res.body).toBe(201);
    expect((await rowOf(res.json<WhatsappDetailDTO>().id))!.companyId).toBe(teamB.company.id);
    expect((await list(teamA.adminLogin)).json<WhatsappDTO[]>().map((w) => w.id)).toEqual([a.id]);
  });

  it("a queue of company B cannot be attached to A's connection through PUT", async () => {
    const teamA = await buildTeam(ctx);
    const teamB = await buildTeam(ctx);
    const w = await created(teamA.adminLogin, { queueIds: [teamA.queue.id] });
    expectError(
      await update(teamA.adminLogin, w.id, dialogBody(w, { queueIds: [teamB.queue.id] })),
      404,
      "ERR_NO_QUEUE_FOUND",
    );
    expectError(
      await update(teamA.adminLogin, w.id, dialogBody(w, { transferQueueId: teamB.queue.id })),
      404,
      "ERR_NO_QUEUE_FOUND",
    );
    expect(await queueIdsOf(w.id)).toEqual([teamA.queue.id]);
    expect((await rowOf(w.id))!.transferQueueId).toBeNull();
  });
});
