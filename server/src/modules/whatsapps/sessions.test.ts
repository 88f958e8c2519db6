import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { WhatsappDTO, WhatsappDetailDTO, WhatsappSessionDTO } from "@atende/contracts";

import { dbAuthStore } from "../../channels/authStore.js";
import { simulatorNumber } from "../../channels/simulator/provider.js";
import { whatsappLeases } from "../../db/schema/index.js";
import { connectSimulator } from "../../test/channels.js";
import { buildTeam } from "../../test/factories.js";
import { connectSocket, record, waitFor } from "../../test/harness.js";
import { expectError } from "../../test/calls.js";
import {
  setupWhatsappsSuite,
  ctx,
  sockets,
  call,
  getOne,
  create,
  update,
  remove,
  rowOf,
  eventually,
  untilStatus,
  created,
  dialogBody,
  tokenOf,
} from "./testing.js";
import { caughtUp } from "../../test/settled.js";

/**
 * The session buttons and their live events: a simulator connection's states, a provider change restarting
 * it, admins only.
 */
setupWhatsappsSuite();

type SessionEvent = { action: "update"; session: WhatsappSessionDTO };
type WhatsappEvent = { action: "update"; whatsapp: WhatsappDTO } | { action: "delete"; whatsappId: number };

describe("sessions and their live events", () => {
  it("a simulator connection goes OPENING → qrcode → CONNECTED; disconnect, start, new QR and restart move it, live to the company only", async () => {
    const team = await buildTeam(ctx);
    const stranger = await buildTeam(ctx);
    const url = await ctx.url();
    const adminSocket = await connectSocket(url, team.adminLogin.token);
    const agentSocket = await connectSocket(url, team.agentLogin.token);
    const strangerSocket = await connectSocket(url, stranger.adminLogin.token);
    sockets.push(adminSocket, agentSocket, strangerSocket);
    const sessionEvents = record<SessionEvent>(adminSocket, `company-${team.company.id}-whatsappSession`);
    const whatsappEvents = record<WhatsappEvent>(adminSocket, `company-${team.company.id}-whatsapp`);
    const agentWhatsappEvents = record<WhatsappEvent>(agentSocket, `company-${team.company.id}-whatsapp`);
    const strangerGot: { event: string; payload: unknown }[] = [];
    strangerSocket.onAny((event: string, payload: unknown) => strangerGot.push({ event, payload }));

    const res = await create(team.adminLogin, { name: "Simulador", provider: "simulator" });
    expect(res.statusCode, res.body).toBe(201);
    const w = res.json<WhatsappDetailDTO>();
    expect(["OPENING", "qrcode"]).toContain(w.status);
    const token = await tokenOf(team.adminLogin, w.id);
    const statusesOf = () => sessionEvents.filter((e) => e.session.id === w.id).map((e) => e.session.status);

    // OPENING, then a QR code.
    await untilStatus(w.id, "qrcode");
    const qr1 = (await rowOf(w.id))!.qrcode;
    expect(qr1.length).toBeGreaterThan(0);
    await eventually(() => statusesOf().includes("qrcode"));
    expect(statusesOf().indexOf("OPENING")).toBeGreaterThanOrEqual(0);
    expect(statusesOf().indexOf("OPENING")).toBeLessThan(statusesOf().indexOf("qrcode"));
    const qrEvent = sessionEvents.find((e) => e.session.id === w.id && e.session.status === "qrcode")!;
    expect(qrEvent).toEqual({
      action: "update",
      session: {
        id: w.id,
        status: "qrcode",
        qrcode: qr1,
        retries: expect.any(Number),
        number: "",
        updatedAt: expect.any(String),
      },
    });
    await eventually(() =>
      whatsappEvents.some(
        (e) => e.action === "update" && e.whatsapp.id === w.id && e.whatsapp.status === "qrcode",
      ),
    );
    // The admin's GET shows it too.
    const shown = (await getOne(team.adminLogin, w.id)).json<WhatsappDetailDTO>();
    expect(shown).toMatchObject({ status: "qrcode", qrcode: qr1 });

    // The phone scans the QR: CONNECTED, with a number, QR cleared.
    expect((await call("POST", `/simulator/${w.id}/scan`, team.adminLogin)).statusCode).toBe(204);
    await untilStatus(w.id, "CONNECTED");
    expect(await rowOf(w.id)).toMatchObject({
      status: "CONNECTED",
      number: simulatorNumber(w.id),
      qrcode: "",
    });
    await eventually(() =>
      sessionEvents.some(
        (e) =>
          e.session.id === w.id &&
          e.session.status === "CONNECTED" &&
          e.session.number === simulatorNumber(w.id),
      ),
    );

    // Disconnect: DISCONNECTED, no QR.
    expect((await call("DELETE", `/whatsappsession/${w.id}`, team.adminLogin)).statusCode).toBe(204);
    expect(await rowOf(w.id)).toMatchObject({ status: "DISCONNECTED", qrcode: "" });
    await eventually(() =>
      sessionEvents.some(
        (e) => e.session.id === w.id && e.session.status === "DISCONNECTED" && e.session.qrcode === "",
      ),
    );
    await eventually(() =>
      whatsappEvents.some(
        (e) => e.action === "update" && e.whatsapp.id === w.id && e.whatsapp.status === "DISCONNECTED",
      ),
    );

    // Try again: it was logged out, so it asks for a new scan.
    expect((await call("POST", `/whatsappsession/${w.id}`, team.adminLogin)).statusCode).toBe(204);
    await untilStatus(w.id, "qrcode");
    const qr2 = (await rowOf(w.id))!.qrcode;
    expect(qr2).not.toBe("");
    expect(qr2).not.toBe(qr1);
    // The pairing is gone: the simulator's poll finds nothing to connect with until the next scan.
    expect(await dbAuthStore(ctx.deps.db, team.company.id, w.id).get("simulator", ["paired"])).toEqual({});
    expect((await rowOf(w.id))!.status).toBe("qrcode");

    // Pair again, then ask for a new QR: the pairing is forgotten.
    expect((await call("POST", `/simulator/${w.id}/scan`, team.adminLogin)).statusCode).toBe(204);
    await untilStatus(w.id, "CONNECTED");
    expect((await call("PUT", `/whatsappsession/${w.id}`, team.adminLogin)).statusCode).toBe(204);
    await untilStatus(w.id, "qrcode");
    const qr3 = (await rowOf(w.id))!.qrcode;
    expect(qr3).not.toBe("");
    expect([qr1, qr2]).not.toContain(qr3);
    await eventually(() => sessionEvents.some((e) => e.session.id === w.id && e.session.qrcode === qr3));

    // Restart all: a paired connection comes back CONNECTED through OPENING.
    expect((await call("POST", `/simulator/${w.id}/scan`, team.adminLogin)).statusCode).toBe(204);
    await untilStatus(w.id, "CONNECTED");
    // Events are emitted after commit: let the CONNECTED one arrive before counting.
    const connectedEvents = () =>
      sessionEvents.filter((e) => e.session.id === w.id && e.session.status === "CONNECTED").length;
    await waitFor(() => connectedEvents() >= 3, 10_000);
    const before = sessionEvents.length;
    const restart = await call("POST", "/whatsapp-restart/", team.adminLogin);
    expect(restart.statusCode).toBe(204);
    await untilStatus(w.id, "CONNECTED");
    await eventually(() => sessionEvents.slice(before).some((e) => e.session.status === "CONNECTED"));
    expect(sessionEvents.slice(before).map((e) => e.session.status)[0]).toBe("OPENING");

    // Delete: the session ends, its lease is freed, and the list hears it.
    expect((await remove(team.adminLogin, w.id)).statusCode).toBe(204);
    expect(ctx.built.channels.sessions.session(w.id)).toBeNull();
    expect(
      await ctx.deps.db.select().from(whatsappLeases).where(eq(whatsappLeases.whatsappId, w.id)),
    ).toEqual([]);
    await eventually(() => whatsappEvents.some((e) => e.action === "delete" && e.whatsappId === w.id));
    await eventually(() => agentWhatsappEvents.some((e) => e.action === "delete" && e.whatsappId === w.id));

    // Whatever agents heard about the connection carried no token.
    expect(JSON.stringify(agentWhatsappEvents)).not.toContain(token);
    for (const e of agentWhatsappEvents)
      if (e.action === "update") expect(e.whatsapp).not.toHaveProperty("token");

    // The other company's socket heard nothing of this company (all sent to it has arrived).
    await caughtUp(strangerSocket);
    expect(strangerGot.filter((g) => g.event.startsWith(`company-${team.company.id}-`))).toEqual([]);
    expect(strangerGot.filter((g) => !g.event.startsWith(`company-${stranger.company.id}-`))).toEqual([]);
  });

  it("changing the provider restarts the session with the new one; a save that changes nothing about the session leaves it running", async () => {
    const team = await buildTeam(ctx);
    const url = await ctx.url();
    const adminSocket = await connectSocket(url, team.adminLogin.token);
    sockets.push(adminSocket);
    const sessionEvents = record<SessionEvent>(adminSocket, `company-${team.company.id}-whatsappSession`);

    // beta (never reaches WhatsApp here) → simulator: a simulator QR appears.
    const w = await created(team.adminLogin, { name: "Troca de provedor" });
    const res = await update(team.adminLogin, w.id, dialogBody(w, { provider: "simulator" }));
    expect(res.statusCode, res.body).toBe(200);
    await untilStatus(w.id, "qrcode");
    expect((await rowOf(w.id))!.qrcode).toMatch(/^atende-simulator:/);

    // A connected simulator renamed: still CONNECTED, no OPENING on the way.
    expect((await call("POST", `/simulator/${w.id}/scan`, team.adminLogin)).statusCode).toBe(204);
    await untilStatus(w.id, "CONNECTED");
    await waitFor(
      () => sessionEvents.some((e) => e.session.id === w.id && e.session.status === "CONNECTED"),
      10_000,
    );
    let mark = sessionEvents.length;
    const renamed = await update(
      team.adminLogin,
      w.id,
      dialogBody(w, { provider: "simulator", name: "Renomeada" }),
    );
    expect(renamed.statusCode).toBe(200);
    // A restart would have said OPENING before the save answered; the socket has all that was sent.
    await caughtUp(adminSocket);
    expect(sessionEvents.slice(mark).map((e) => e.session.status)).toEqual([]);
    expect((await rowOf(w.id))!.status).toBe("CONNECTED");

    // A Cloud connection saved again with the same settings (secrets left empty, as the dialog sends them).
    const cloud = {
      phoneNumberId: "123",
      wabaId: "456",
      verifyToken: "vt",
      accessToken: "tok",
      appSecret: "sec",
    };
    const c = await created(team.adminLogin, { name: "Cloud estável", provider: "cloud", cloud });
    await untilStatus(c.id, "CONNECTED");
    await waitFor(
      () => sessionEvents.some((e) => e.session.id === c.id && e.session.status === "CONNECTED"),
      10_000,
    );
    mark = sessionEvents.length;
    const saved = await update(
      team.adminLogin,
      c.id,
      dialogBody(c, { name: "Cloud renomeada", cloud: { ...cloud, accessToken: "", appSecret: "" } }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    await caughtUp(adminSocket);
    expect(
      sessionEvents
        .slice(mark)
        .filter((e) => e.session.id === c.id)
        .map((e) => e.session.status),
    ).toEqual([]);
  });

  it("the session buttons and restart are for admins: an agent gets 403 ERR_NO_PERMISSION and nothing moves", async () => {
    const team = await buildTeam(ctx);
    const w = await connectSimulator(ctx, team.adminLogin);
    const before = await rowOf(w.id);
    for (const [method, url] of [
      ["POST", `/whatsappsession/${w.id}`],
      ["PUT", `/whatsappsession/${w.id}`],
      ["DELETE", `/whatsappsession/${w.id}`],
      ["POST", "/whatsapp-restart/"],
      ["POST", "/whatsapp-restart"],
    ] as const) {
      expectError(await call(method, url, team.agentLogin), 403, "ERR_NO_PERMISSION");
    }
    expect(await rowOf(w.id)).toEqual(before);
  });
});
