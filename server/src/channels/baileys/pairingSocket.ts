import { ChannelError } from "../provider.js";
import type { BaileysSocket } from "./supervisor.js";

/** How long a pairing code request waits for the socket to be ready to pair (its QR shown). */
export const PAIRING_WAIT_MS = 30_000;

/**
 * The socket a pairing code is asked of: the one that last offered a QR code (it waits to be
 * paired). A request made while none does waits for the next offer, up to PAIRING_WAIT_MS.
 */
export class PairingSocket {
  private offering: BaileysSocket | null = null;
  private waiters: { resolve(socket: BaileysSocket): void; reject(err: Error): void }[] = [];

  /** `socket` offered a QR code: the requests waiting get it. */
  offered(socket: BaileysSocket): void {
    this.offering = socket;
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((w) => w.resolve(socket));
  }

  /** The socket closed: a code is never asked of it. */
  closed(): void {
    this.offering = null;
  }

  /** The session stops: the requests waiting fail with `err`. */
  fail(err: Error): void {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((w) => w.reject(err));
  }

  /** The socket ready to pair, once `current` (the supervisor's live socket) is one. */
  ready(current: BaileysSocket | null): Promise<BaileysSocket> {
    if (this.offering && this.offering === current) return Promise.resolve(this.offering);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new ChannelError("WhatsApp was not ready to pair in time", true, "ERR_WAPP_PAIRING_FAILED"));
      }, PAIRING_WAIT_MS);
      const waiter = {
        resolve: (socket: BaileysSocket) => {
          clearTimeout(timer);
          resolve(socket);
        },
        reject: (err: Error) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      this.waiters.push(waiter);
    });
  }
}
