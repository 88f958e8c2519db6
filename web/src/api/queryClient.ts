import { QueryCache, QueryClient } from "@tanstack/react-query";
import { ApiError } from "./http";
import { toastError } from "./toast";

declare module "@tanstack/react-query" {
  interface Register {
    /**
     * `silent`: the screen shows the failure itself, so no error toast. `refetchOnReady: false`: left
     * out of the refresh after a reconnection (useRefetchWhenReady).
     */
    queryMeta: { silent?: boolean; refetchOnReady?: boolean };
  }
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error, query) => {
      // Past due: the session provider keeps an admin to the payment pages, which say why (or logs
      // anyone else out with the message); the shell's own reads failing meanwhile add nothing.
      if (error instanceof ApiError && error.code === "ERR_SUBSCRIPTION_EXPIRED") return;
      if (!query.meta?.silent) toastError(error);
    },
  }),
  defaultOptions: {
    queries: {
      // An answer from the server is final; only network failures are worth another try.
      retry: (failures, error) => !(error instanceof ApiError) && failures < 2,
      refetchOnWindowFocus: false,
      staleTime: 30_000,
    },
  },
});
