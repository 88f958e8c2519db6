import {
  type AnnouncementServerEvents,
  companyEvent,
  type CompanyEventName,
  type CompanyEventPayloads,
} from "@atende/contracts";
import { type Query, useQueryClient } from "@tanstack/react-query";
import { createContext, useContext, useEffect, useEffectEvent, useState, type ReactNode } from "react";
import type { CompanySocket, Room } from "./socket";

interface SocketContextValue {
  live: CompanySocket | null;
  companyId: number | null;
}

const SocketContext = createContext<SocketContextValue>({ live: null, companyId: null });

interface SocketProviderProps {
  /** The logged-in user's company and id; null when nobody is logged in (no socket then). */
  companyId: number | null;
  userId: number | null;
  children: ReactNode;
}

/** Opens the live channel for the logged-in user; a new one when the company or the user changes. */
export function SocketProvider({ companyId, userId, children }: SocketProviderProps) {
  const [live, setLive] = useState<CompanySocket | null>(null);

  useEffect(() => {
    if (companyId === null || userId === null) return;
    let opened: CompanySocket | null = null;
    let cancelled = false;
    // socket.io-client loads with the first private page, not with the login page.
    void import("./socket").then(({ openCompanySocket }) => {
      if (cancelled) return;
      opened = openCompanySocket();
      setLive(opened);
    });
    return () => {
      cancelled = true;
      opened?.close();
      setLive(null);
    };
  }, [companyId, userId]);

  useRefetchWhenReady(live);

  return <SocketContext value={{ live, companyId: live ? companyId : null }}>{children}</SocketContext>;
}

/**
 * Runs `fn` now if the tab is shown, else once it is shown; answers how to call it off. A tab in
 * the background must not read the agent's open chat: that marks it read, which nobody did.
 */
function whenShown(fn: () => void): () => void {
  if (document.visibilityState === "visible") {
    fn();
    return () => undefined;
  }
  const onVisibility = () => {
    if (document.visibilityState !== "visible") return;
    document.removeEventListener("visibilitychange", onVisibility);
    fn();
  };
  document.addEventListener("visibilitychange", onVisibility);
  return () => document.removeEventListener("visibilitychange", onVisibility);
}

/** Marks a query the provider leaves alone when the channel is back: its page catches up on its own. */
export const NOT_REFETCHED_ON_READY = { refetchOnReady: false } as const;

/**
 * Events sent while the live channel was away are lost, and so are those sent between a query's
 * answer and the first joining of the rooms: each time the channel is ready (the first time, and
 * after every reconnection) every query is read again, the ones on screen at once, the others when
 * next shown. One rule for every page, so none can forget it. It runs after the pages' own "ready"
 * handlers (useSocketReady), which may first trim what they keep, and once the tab is shown.
 * Left out: queries that never change (staleTime "static": media, the version) and those marked
 * NOT_REFETCHED_ON_READY (the open chat merges its newest page itself, so its scrolled-back pages
 * and a message just sent stay). A fetch in flight is left to finish, except a "load more"
 * (its answer was built from the pages before the outage): that one starts again.
 */
function useRefetchWhenReady(live: CompanySocket | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!live) return;
    let timer: number | undefined;
    let cancelWait = () => undefined as void;
    const refetch = () => {
      const loadingMore = new Set(
        queryClient.getQueryCache().findAll({
          predicate: (q) => q.state.fetchStatus !== "idle" && Boolean(q.state.fetchMeta?.fetchMore),
        }),
      );
      const ours = (q: Query) => q.meta?.refetchOnReady !== false;
      void queryClient.invalidateQueries(
        { predicate: (q) => ours(q) && !loadingMore.has(q) },
        { cancelRefetch: false },
      );
      void queryClient.invalidateQueries({ predicate: (q) => ours(q) && loadingMore.has(q) });
    };
    const onReady = () => {
      window.clearTimeout(timer);
      cancelWait();
      timer = window.setTimeout(() => (cancelWait = whenShown(refetch)), 0);
    };
    live.socket.on("ready", onReady);
    return () => {
      window.clearTimeout(timer);
      cancelWait();
      live.socket.off("ready", onReady);
    };
  }, [live, queryClient]);
}

/** Runs `handler` for each `company-{companyId}-{name}` event while the component is mounted. */
export function useCompanyEvent<N extends CompanyEventName>(
  name: N,
  handler: (payload: CompanyEventPayloads[N]) => void,
): void {
  const { live, companyId } = useContext(SocketContext);
  const onEvent = useEffectEvent(handler);

  useEffect(() => {
    if (!live || companyId === null) return;
    const event: string = companyEvent(companyId, name);
    const listener = (payload: CompanyEventPayloads[N]) => onEvent(payload);
    live.socket.on(event, listener);
    return () => {
      live.socket.off(event, listener);
    };
  }, [live, companyId, name]);
}

/**
 * Runs `handler` each time the live channel becomes ready (connected, rooms joined) while the
 * component is mounted: after a reconnection, and after the first connection when the component
 * was there before it. The provider reads every query again right after (useRefetchWhenReady):
 * this is for what a page must do before that, such as trimming a long list to its first pages,
 * or, with `whenShown`, for a query marked NOT_REFETCHED_ON_READY that catches up on its own once
 * the tab is shown.
 */
export function useSocketReady(handler: () => void, opts: { whenShown?: boolean } = {}): void {
  const { live } = useContext(SocketContext);
  const onReady = useEffectEvent(handler);
  const deferred = opts.whenShown ?? false;

  useEffect(() => {
    if (!live) return;
    let cancelWait = () => undefined as void;
    const listener = () => {
      cancelWait();
      if (deferred) cancelWait = whenShown(() => onReady());
      else onReady();
    };
    live.socket.on("ready", listener);
    return () => {
      cancelWait();
      live.socket.off("ready", listener);
    };
  }, [live, deferred]);
}

/**
 * A ticket's chat box: the server lets in only who may see the ticket, and sends it what the open
 * chat needs (the ticket's updates, its messages, what the contact is typing).
 */
export function chatBoxRoom(ticketId: number): Room {
  return {
    key: `chatBox:${ticketId}`,
    join: (socket) => socket.emit("joinChatBox", ticketId),
    leave: (socket) => socket.emit("leaveChatBox", ticketId),
  };
}

/**
 * Keeps the live channel in `room` while the component is mounted: joined as soon as the channel
 * is ready and again after every reconnection, left on unmount or when another room (another
 * `key`) is asked for. `null` joins nothing.
 */
export function useJoinRoom(room: Room | null): void {
  const { live } = useContext(SocketContext);
  const key = room?.key ?? null;
  // The room is the same as long as its key is: a new object at each render must not rejoin.
  const currentRoom = useEffectEvent(() => room);

  useEffect(() => {
    if (!live || key === null) return;
    const joined = currentRoom();
    return joined ? live.joinRoom(joined) : undefined;
  }, [live, key]);
}

/** Runs `handler` for a server event not named per company (`company-announcement`) while mounted. */
export function usePlatformEvent<N extends keyof AnnouncementServerEvents>(
  name: N,
  handler: AnnouncementServerEvents[N],
): void {
  const { live } = useContext(SocketContext);
  const onEvent = useEffectEvent(handler);
  useEffect(() => {
    if (!live) return;
    const event: string = name;
    const listener = (payload: never) => (onEvent as (payload: unknown) => void)(payload);
    live.socket.on(event, listener);
    return () => {
      live.socket.off(event, listener);
    };
  }, [live, name]);
}

/**
 * A per-company event whose name is not in CompanyEventPayloads (the contact lists' and file
 * lists' own: `company-{id}-ContactList`, `-ContactListItem`, `-ContactListItem-{listId}`,
 * `-ContactListImport`, `-file`).
 * `suffix` is what follows `company-{id}-`.
 */
export function useCompanySuffixEvent<P>(suffix: string, handler: (payload: P) => void): void {
  const { live, companyId } = useContext(SocketContext);
  const onEvent = useEffectEvent(handler);
  useEffect(() => {
    if (!live || companyId === null) return;
    const event = `company-${companyId}-${suffix}`;
    const listener = (payload: P) => onEvent(payload);
    live.socket.on(event as never, listener as never);
    return () => {
      live.socket.off(event as never, listener as never);
    };
  }, [live, companyId, suffix]);
}
