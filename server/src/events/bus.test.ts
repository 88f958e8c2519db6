import { describe, expect, it } from "vitest";
import { type DomainEvent, EventBus } from "./bus.js";

describe("EventBus", () => {
  it("a failing listener is logged with the event's type, and the listeners after it still hear the event", async () => {
    const bus = new EventBus();
    const logged: { obj: Record<string, unknown>; msg: string }[] = [];
    bus.logTo({ error: (obj: Record<string, unknown>, msg: string) => logged.push({ obj, msg }) } as never);
    const heard: string[] = [];
    bus.on(() => {
      throw new Error("socket gone");
    });
    bus.on((event) => void heard.push(event.type));
    await bus.publish([{ type: "contact.deleted", companyId: 7, contactId: 3 }]);
    expect(heard).toEqual(["contact.deleted"]);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      msg: "event listener failed",
      obj: {
        eventType: "contact.deleted",
        companyId: 7,
        err: expect.objectContaining({ message: "socket gone" }),
      },
    });
  });

  it("an event a follower raises is followed by every follower in turn and goes out after its cause", async () => {
    const bus = new EventBus();
    const seen: string[][] = [];
    bus.within(async (_tx, events, raise) => {
      seen.push(events.map((e) => e.type));
      for (const e of events)
        if (e.type === "contact.deleted")
          raise({ type: "queue.deleted", companyId: e.companyId, queueId: 1 });
    });
    bus.within(async (_tx, events) => void seen.push(events.map((e) => `2:${e.type}`)));
    const events: DomainEvent[] = [{ type: "contact.deleted", companyId: 7, contactId: 3 }];
    await bus.follow(null as never, events);
    expect(events.map((e) => e.type)).toEqual(["contact.deleted", "queue.deleted"]);
    expect(seen).toEqual([
      ["contact.deleted"],
      ["2:contact.deleted"],
      ["queue.deleted"],
      ["2:queue.deleted"],
    ]);
  });

  it("followers that keep raising events for one another fail the transaction rather than loop", async () => {
    const bus = new EventBus();
    bus.within(async (_tx, events, raise) => {
      for (const e of events) raise({ ...e });
    });
    await expect(
      bus.follow(null as never, [{ type: "contact.deleted", companyId: 7, contactId: 3 }]),
    ).rejects.toThrow(/kept raising/);
  });
});
