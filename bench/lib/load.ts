import crypto from "node:crypto";
import { performance } from "node:perf_hooks";
import type { AgentSocket } from "./agent.js";
import { RawHttpClient } from "./rawHttp.js";
import type { ServerInfo } from "./server.js";

/** One customer's phone number; Brazilian mobiles with the ninth digit, as the server stores them. */
export function phoneOf(contact: number): string {
  return `55119${String(81_000_000 + contact)}`;
}

export interface Message {
  contact: number;
  body: string;
  /** When the message was meant to leave (open loop); absent: the moment it leaves. */
  scheduledAt?: number;
}

export interface PhaseResult {
  sent: number;
  failed: number;
  /** Messages whose socket event never came (failed sends excluded). */
  lost: number;
  errors: string[];
  /** Send start (or scheduled time) → the agent's socket event, ms. */
  latencies: number[];
  /** Send start → HTTP 201 answered, ms. */
  httpLatencies: number[];
  firstSendAt: number;
  lastEventAt: number;
  lastSendAt: number;
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  return cause ? `${err.message}: ${describe(cause)}` : err.message;
}

/** Plays the customers' phones through the simulator API over real HTTP, watching the agent's socket. */
export class Phones {
  private readonly runId = crypto.randomBytes(3).toString("hex");
  private seq = 0;
  private stopped = false;
  private readonly http: RawHttpClient;
  private readonly path: string;
  private readonly headers: string;

  constructor(
    private readonly info: ServerInfo,
    private readonly agent: AgentSocket,
  ) {
    const target = new URL(info.url);
    this.http = new RawHttpClient(target.hostname, Number(target.port));
    this.path = `/simulator/${info.whatsappId}/messages`;
    this.headers = `Authorization: Bearer ${info.adminToken}\r\n`;
  }

  /**
   * POST /simulator/{id}/messages over a kept-alive connection, with a lean HTTP/1.1 client
   * (RawHttpClient): the load generator shares the two cores with the server and PostgreSQL, and
   * with node:http's client its CPU per message was 0.24 ms against 0.09 ms with this one.
   */
  private post(body: string): Promise<{ status: number; text: string }> {
    return this.http.post(this.path, this.headers, body);
  }

  /** Sends nothing more and waits for nothing more (the run was interrupted). */
  stop(): void {
    this.stopped = true;
    this.http.close();
  }

  /** A unique body per message, so the socket event finds its send. */
  body(phase: string): string {
    return `bench:${phase}:${this.runId}:${++this.seq}`;
  }

  private fresh(): PhaseResult {
    return {
      sent: 0,
      failed: 0,
      lost: 0,
      errors: [],
      latencies: [],
      httpLatencies: [],
      firstSendAt: Number.POSITIVE_INFINITY,
      lastEventAt: 0,
      lastSendAt: 0,
    };
  }

  private async sendOne(msg: Message, result: PhaseResult): Promise<void> {
    const startedAt = performance.now();
    const from = msg.scheduledAt ?? startedAt;
    result.sent++;
    result.firstSendAt = Math.min(result.firstSendAt, from);
    result.lastSendAt = Math.max(result.lastSendAt, startedAt);
    void this.agent.expect(msg.body).then((at) => {
      result.latencies.push(at - from);
      result.lastEventAt = Math.max(result.lastEventAt, at);
    });
    try {
      const res = await this.post(
        JSON.stringify({ from: phoneOf(msg.contact), name: `Cliente ${msg.contact}`, body: msg.body }),
      );
      result.httpLatencies.push(performance.now() - from);
      if (res.status !== 201) throw new Error(`HTTP ${res.status}: ${res.text.slice(0, 200)}`);
    } catch (err) {
      result.failed++;
      this.agent.forget(msg.body);
      if (result.errors.length < 5) result.errors.push(describe(err));
    }
  }

  /** Waits for the socket events still due (up to timeoutMs), then counts the missing ones as lost. */
  private async drain(result: PhaseResult, timeoutMs: number): Promise<PhaseResult> {
    const until = Date.now() + timeoutMs;
    while (this.agent.pending > 0 && Date.now() < until && !this.stopped)
      await new Promise((r) => setTimeout(r, 5));
    result.lost = this.agent.abandon();
    return result;
  }

  /**
   * One closed loop per phone: each list is one phone's messages, sent one after another (the next
   * as soon as the last was answered), all phones at once. No message leaves after `maxMs`; the
   * ones left are counted as `unsent`.
   */
  async perPhone(
    phones: Message[][],
    maxMs = Number.POSITIVE_INFINITY,
    drainMs = 30_000,
  ): Promise<PhaseResult & { unsent: number }> {
    const result = this.fresh();
    const stopAt = performance.now() + maxMs;
    let unsent = 0;
    await Promise.all(
      phones.map(async (messages) => {
        let next = 0;
        while (next < messages.length && performance.now() < stopAt && !this.stopped)
          await this.sendOne(messages[next++]!, result);
        unsent += messages.length - next;
      }),
    );
    return { ...(await this.drain(result, drainMs)), unsent };
  }

  /**
   * Closed loop: `concurrency` senders, each sending its next message as soon as the last was answered.
   * No message leaves after `maxMs` (a slow server must not stretch the run without end); the ones
   * left are counted as `unsent`.
   */
  async closedLoop(
    messages: Message[],
    concurrency: number,
    maxMs = Number.POSITIVE_INFINITY,
    drainMs = 30_000,
  ): Promise<PhaseResult & { unsent: number }> {
    const result = this.fresh();
    const stopAt = performance.now() + maxMs;
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, messages.length) }, async () => {
        while (next < messages.length && performance.now() < stopAt && !this.stopped)
          await this.sendOne(messages[next++]!, result);
      }),
    );
    return { ...(await this.drain(result, drainMs)), unsent: messages.length - next };
  }

  /**
   * Open loop: message i is due at start + i/rate whatever happened to the others; latency counts from
   * that moment, so a server (or client) that falls behind is charged for it rather than hiding it.
   * At most `maxInflight` requests are open at once (each needs its own HTTP connection): past that the
   * sender waits, and the wait is charged to the late messages' latency. A server that cannot keep the
   * rate would stretch the run without end: sending stops `graceMs` after the window, and the messages
   * left unsent are counted as `unsent`.
   */
  async openLoop(
    make: (i: number) => Message,
    ratePerSecond: number,
    seconds: number,
    maxInflight: number,
    graceMs = 5_000,
    drainMs = 30_000,
  ): Promise<PhaseResult & { peakInflight: number; capped: number; unsent: number }> {
    const result = this.fresh();
    const total = Math.round(ratePerSecond * seconds);
    const interval = 1000 / ratePerSecond;
    const all: Promise<void>[] = [];
    let open = 0;
    let peakInflight = 0;
    let capped = 0;
    let freed: (() => void) | null = null;
    const start = performance.now() + 5;
    const stopAt = start + seconds * 1000 + graceMs;
    let i = 0;
    for (; i < total && performance.now() < stopAt && !this.stopped; i++) {
      const due = start + i * interval;
      const wait = due - performance.now();
      if (wait > 0.5) await new Promise((r) => setTimeout(r, wait));
      if (open >= maxInflight) {
        capped++;
        while (open >= maxInflight) await new Promise<void>((r) => (freed = r));
      }
      open++;
      peakInflight = Math.max(peakInflight, open);
      all.push(
        this.sendOne({ ...make(i), scheduledAt: due }, result).finally(() => {
          open--;
          const wake = freed;
          freed = null;
          wake?.();
        }),
      );
    }
    await Promise.all(all);
    return { ...(await this.drain(result, drainMs)), peakInflight, capped, unsent: total - i };
  }
}
