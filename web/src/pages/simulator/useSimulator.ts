import type { SimulatorPhoneMessage } from "@atende/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import {
  fetchPhoneMessages,
  fetchPhones,
  markPhoneRead,
  sendFromPhone,
  simulatorKeys,
  type SimulatorSend,
} from "../../api/simulator";
import { toastError } from "../../api/toast";

export function usePhones(whatsappId: number | null) {
  return useQuery({
    queryKey: simulatorKeys.phones(whatsappId ?? 0),
    queryFn: ({ signal }) => fetchPhones(whatsappId ?? 0, signal),
    enabled: whatsappId !== null,
    select: (phones) =>
      [...phones].sort((a, b) => (b.lastMessageAt ?? "").localeCompare(a.lastMessageAt ?? "")),
  });
}

export function usePhoneMessages(whatsappId: number | null, number: string | null) {
  const queryClient = useQueryClient();
  const key = simulatorKeys.messages(whatsappId ?? 0, number ?? "");
  return useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      // What the list holds as the read leaves: whatever else it holds when the answer lands came
      // live meanwhile, and the answer (read by the server at some point on the way) may lack it.
      const before = new Set((queryClient.getQueryData<SimulatorPhoneMessage[]>(key) ?? []).map((m) => m.id));
      const stored = await fetchPhoneMessages(whatsappId ?? 0, number ?? "", signal);
      const held = queryClient.getQueryData<SimulatorPhoneMessage[]>(key) ?? [];
      const live = new Map(held.map((m) => [m.id, m]));
      const ids = new Set(stored.map((m) => m.id));
      const newest = stored.at(-1)?.createdAt ?? "";
      // Kept: bubbles still on their way (ack 0 lives only here), messages that came live while the
      // answer was on its way (the bot's reply to the message just sent), whatever their timestamps
      // say (the phone's message is stamped by the server, the bot's reply by the bot: either may be
      // the older), and anything newer than the answer.
      const kept = held.filter(
        (m) => !ids.has(m.id) && (m.ack === 0 || !before.has(m.id) || m.createdAt > newest),
      );
      // A message in both: the answer may be older than a tick heard live meanwhile (ticks only move
      // forward; the read tick of the bot's reply came live while the answer said "sent").
      const merged = stored.map((m) => {
        const heard = live.get(m.id);
        return heard && heard.ack > m.ack ? { ...m, ack: heard.ack } : m;
      });
      return [...merged, ...kept];
    },
    enabled: whatsappId !== null && number !== null,
  });
}

/**
 * Sends as the phone: every send carries the phone's number, name and a fresh message id. Like a
 * phone, the next message may be sent while the last is on its way: each shows at once, and the
 * sends go one after the other, so the business receives them in the order they were written.
 */
export function usePhoneSender(whatsappId: number | null, number: string | null, name: string) {
  const queryClient = useQueryClient();
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const inFlight = useRef(0);
  const [sending, setSending] = useState(false);

  async function send(input: Omit<SimulatorSend, "from" | "name" | "id">): Promise<boolean> {
    if (whatsappId === null || number === null) return false;
    const id = crypto.randomUUID();
    const messagesKey = simulatorKeys.messages(whatsappId, number);
    const plainText = !input.media && !input.location && !input.vcard && !input.edit && !input.reaction;
    if (input.body && plainText && !input.revoke) {
      const pending: SimulatorPhoneMessage = {
        id,
        direction: "in",
        body: input.body,
        kind: "text",
        media: null,
        quotedId: input.quotedId ?? null,
        ack: 0,
        isDeleted: false,
        createdAt: new Date().toISOString(),
      };
      queryClient.setQueryData<SimulatorPhoneMessage[]>(messagesKey, (list) => [...(list ?? []), pending]);
    }
    inFlight.current += 1;
    setSending(true);
    const sent = queue.current.then(() =>
      sendFromPhone(whatsappId, { ...input, from: number, name: name.trim() || undefined, id }),
    );
    queue.current = sent.catch(() => undefined);
    try {
      await sent;
      return true;
    } catch (error) {
      queryClient.setQueryData<SimulatorPhoneMessage[]>(messagesKey, (list) =>
        list?.filter((m) => m.id !== id),
      );
      toastError(error);
      return false;
    } finally {
      inFlight.current -= 1;
      // Read back once the last send is through: sooner, the answer would drop the bubbles still queued.
      if (inFlight.current === 0) {
        setSending(false);
        void queryClient.invalidateQueries({ queryKey: messagesKey });
        void queryClient.invalidateQueries({ queryKey: simulatorKeys.phones(whatsappId) });
      }
    }
  }

  return { send, sending };
}

function useDocumentVisible(): boolean {
  const [visible, setVisible] = useState(() => document.visibilityState === "visible");
  useEffect(() => {
    const update = () => setVisible(document.visibilityState === "visible");
    document.addEventListener("visibilitychange", update);
    return () => document.removeEventListener("visibilitychange", update);
  }, []);
  return visible;
}

/**
 * While the conversation is on screen, the phone reads what the business sent: once per newest
 * unread message (ack below 4), so the business's ticks turn blue.
 */
export function useMarkRead(
  whatsappId: number | null,
  number: string | null,
  messages: SimulatorPhoneMessage[] | undefined,
): void {
  const visible = useDocumentVisible();
  const lastMarked = useRef("");
  const unread = messages?.filter((m) => m.direction === "out" && !m.isDeleted && m.ack < 4);
  const newest = unread?.[unread.length - 1]?.id;
  const key = whatsappId !== null && number !== null && newest ? `${whatsappId}:${number}:${newest}` : "";

  useEffect(() => {
    if (!visible || !key || key === lastMarked.current || whatsappId === null || number === null) return;
    lastMarked.current = key;
    markPhoneRead(whatsappId, number).catch(toastError);
  }, [visible, key, whatsappId, number]);
}
