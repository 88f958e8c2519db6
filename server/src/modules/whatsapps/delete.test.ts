import { describe, expect, it } from "vitest";
import type { WhatsappDTO } from "@atende/contracts";

import { buildTeam } from "../../test/factories.js";
import { expectError } from "../../test/calls.js";
import {
  setupWhatsappsSuite,
  ctx,
  list,
  getOne,
  remove,
  rowOf,
  defaultsOf,
  queueIdsOf,
  created,
} from "./testing.js";

/**
 * Deleting a connection (DELETE /whatsapp/{id}): gone, another becomes the default, admins only.
 */
setupWhatsappsSuite();

describe("DELETE /whatsapp/{id}", () => {
  it("answers 204 and the connection is gone", async () => {
    const team = await buildTeam(ctx);
    const w = await created(team.adminLogin, { queueIds: [team.queue.id] });
    const res = await remove(team.adminLogin, w.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe("");
    expect(await rowOf(w.id)).toBeNull();
    expect(await queueIdsOf(w.id)).toEqual([]);
    expectError(await getOne(team.adminLogin, w.id), 404, "ERR_NO_WAPP_FOUND");
    expectError(await remove(team.adminLogin, w.id), 404, "ERR_NO_WAPP_FOUND");
  });

  it("deleting the default promotes another connection to default", async () => {
    const team = await buildTeam(ctx);
    const a = await created(team.adminLogin, { name: "Padrão" });
    const b = await created(team.adminLogin, { name: "Reserva 1" });
    const c = await created(team.adminLogin, { name: "Reserva 2" });
    expect((await remove(team.adminLogin, a.id)).statusCode).toBe(204);
    const defaults = await defaultsOf(team.company.id);
    expect(defaults).toHaveLength(1);
    expect([b.id, c.id]).toContain(defaults[0]);
    const listed = (await list(team.adminLogin)).json<WhatsappDTO[]>();
    expect(listed.filter((w) => w.isDefault).map((w) => w.id)).toEqual(defaults);
    // Deleting a non-default leaves the default alone.
    const nonDefault = defaults[0] === b.id ? c : b;
    expect((await remove(team.adminLogin, nonDefault.id)).statusCode).toBe(204);
    expect(await defaultsOf(team.company.id)).toEqual(defaults);
  });

  it("refuses an agent with 403 ERR_NO_PERMISSION and keeps the connection", async () => {
    const team = await buildTeam(ctx);
    const w = await created(team.adminLogin);
    expectError(await remove(team.agentLogin, w.id), 403, "ERR_NO_PERMISSION");
    expect(await rowOf(w.id)).not.toBeNull();
  });
});
