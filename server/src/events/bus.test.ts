import { describe, expect, it } from "vitest";
import { EventBus } from "./bus.js";

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
});
