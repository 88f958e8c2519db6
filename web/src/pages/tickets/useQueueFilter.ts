import type { QueueDTO, SessionUserDTO } from "@atende/contracts";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { fetchQueues } from "../../api/users";
import { queueKeys } from "../../api/queues";
import { can } from "../../auth/permissions";

function storageKey(userId: number): string {
  return `tickets.queueIds.${userId}`;
}

/** The remembered choice; null means every queue (also queues added later). */
function readStored(userId: number): number[] | null {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(storageKey(userId)) ?? "null");
    return Array.isArray(value) ? value.filter((id): id is number => Number.isInteger(id)) : null;
  } catch {
    return null;
  }
}

export interface QueueFilter {
  /** The queues the header offers: the user's own; with tickets:accessAny (admins), all the company's. */
  options: QueueDTO[];
  /** The ids ticked in the header (never empty while there are options). */
  selected: number[];
  /** What the lists send as `queueIds`: undefined while every queue is ticked (no narrowing). */
  queueIds: number[] | undefined;
  change(ids: number[]): void;
}

/**
 * The header's multi-select of queues, remembered in this browser per user. At least one queue stays
 * ticked: the server reads an empty list as "no filter", so "none" could not mean nothing.
 */
export function useQueueFilter(user: SessionUserDTO): QueueFilter {
  // Whoever sees every queue's tickets (the server's seesEveryQueue) may narrow the lists to any of them.
  const anyQueue = can(user, "tickets:accessAny");
  const companyQueues = useQuery({
    queryKey: queueKeys.all,
    queryFn: ({ signal }) => fetchQueues(signal),
    enabled: anyQueue,
  });
  const options = anyQueue ? (companyQueues.data ?? user.queues) : user.queues;
  const [stored, setStored] = useState<number[] | null>(() => readStored(user.id));

  const all = options.map((queue) => queue.id);
  const kept = (stored ?? all).filter((id) => all.includes(id));
  const selected = kept.length ? kept : all;
  const everything = selected.length === all.length;

  function change(ids: number[]) {
    const next = ids.filter((id) => all.includes(id));
    if (next.length === 0) return;
    const value = next.length === all.length ? null : next;
    setStored(value);
    if (value === null) localStorage.removeItem(storageKey(user.id));
    else localStorage.setItem(storageKey(user.id), JSON.stringify(value));
  }

  return { options, selected, queueIds: everything ? undefined : selected, change };
}
