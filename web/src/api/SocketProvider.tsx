import { companyEvent, type CompanyEventName, type CompanyEventPayloads } from "@atende/contracts";
import { useQueryClient } from "@tanstack/react-query";
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
 * Events sent while the live channel was away are lost, and so are those sent between a query's
 * answer and the first joining of the rooms: each time the channel is ready (the first time, and
 * after every reconnection) every query read before that moment is read again, the ones on screen
 * at once, the others when next shown. One rule for every page, so none can forget it. It runs after
 * the pages' own "ready" handlers (useSocketReady), which may first trim what they keep; a query
 * still being fetched is left to finish rather than asked again. A tab in the background waits
 * until it is shown: reading the agent's open chat again marks it read, which nobody did.
 */
function useRefetchWhenReady(live: CompanySocket | null): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!live) return;
    let timer: number | undefined;
    let waitingToBeShown = false;
    const refetch = () => void queryClient.invalidateQueries(undefined, { cancelRefetch: false });
    const onReady = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        if (document.visibilityState === "visible") refetch();
        else waitingToBeShown = true;
      }, 0);
    };
    const onVisibility = () => {
      if (!waitingToBeShown || document.visibilityState !== "visible") return;
      waitingToBeShown = false;
      refetch();
    };
    live.socket.on("ready", onReady);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.clearTimeout(timer);
      live.socket.off("ready", onReady);
      document.removeEventListener("visibilitychange", onVisibility);
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
 * this is for what a page must do before that, such as trimming a long list to its first pages.
 */
export function useSocketReady(handler: () => void): void {
  const { live } = useContext(SocketContext);
  const onReady = useEffectEvent(handler);

  useEffect(() => {
    if (!live) return;
    const listener = () => onReady();
    live.socket.on("ready", listener);
    return () => {
      live.socket.off("ready", listener);
    };
  }, [live]);
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
