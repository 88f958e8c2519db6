import { performance } from "node:perf_hooks";
import { type Socket, io } from "socket.io-client";
import { companyEvent } from "@atende/contracts";

/**
 * One agent's socket as the web app opens it (token in the handshake, websocket transport). Records
 * when each `company-{id}-appMessage` create event arrives, keyed by the message body.
 */
export class AgentSocket {
  /** Events of any name this socket received. */
  eventsReceived = 0;
  private readonly expected = new Map<string, (at: number) => void>();
  /** Creates that arrived for bodies nobody was waiting for (should stay 0). */
  unexpected = 0;

  private constructor(private readonly socket: Socket) {}

  static connect(baseUrl: string, token: string, companyId: number): Promise<AgentSocket> {
    return new Promise((resolve, reject) => {
      const socket = io(baseUrl, {
        auth: { token },
        transports: ["websocket"],
        reconnection: false,
        forceNew: true,
      });
      const agent = new AgentSocket(socket);
      socket.onAny(() => agent.eventsReceived++);
      socket.on(
        companyEvent(companyId, "appMessage"),
        (payload: { action: string; message: { body: string } }) => {
          const at = performance.now();
          if (payload.action !== "create") return;
          const arrived = agent.expected.get(payload.message.body);
          if (!arrived) {
            agent.unexpected++;
            return;
          }
          agent.expected.delete(payload.message.body);
          arrived(at);
        },
      );
      const timer = setTimeout(() => reject(new Error("the agent socket did not become ready")), 10_000);
      socket.on("ready", () => {
        clearTimeout(timer);
        resolve(agent);
      });
      socket.on("connect_error", (err) => {
        clearTimeout(timer);
        socket.close();
        reject(err);
      });
    });
  }

  /** Resolves with the receive time (performance.now()) of the create event for `body`. */
  expect(body: string): Promise<number> {
    return new Promise((resolve) => this.expected.set(body, resolve));
  }

  /** Stops waiting for one body (its send failed). */
  forget(body: string): void {
    this.expected.delete(body);
  }

  /** Bodies still awaited. */
  get pending(): number {
    return this.expected.size;
  }

  /** Stops waiting for what has not come; answers how many that were. */
  abandon(): number {
    const n = this.expected.size;
    this.expected.clear();
    return n;
  }

  get connected(): boolean {
    return this.socket.connected;
  }

  close(): void {
    this.socket.close();
  }
}
