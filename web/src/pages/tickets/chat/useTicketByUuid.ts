import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useNavigate } from "react-router-dom";
import { ApiError } from "../../../api/http";
import { fetchTicketByUuid, ticketKeys } from "../../../api/tickets";
import { toastError } from "../../../api/toast";

/**
 * The ticket opened by its uuid. A ticket the user may not see (403 'Acesso não permitido') or that
 * does not exist (404) sends them back to /tickets with the reason.
 */
export function useTicketByUuid(uuid: string) {
  const navigate = useNavigate();
  const query = useQuery({
    queryKey: ticketKeys.byUuid(uuid),
    queryFn: ({ signal }) => fetchTicketByUuid(uuid, signal),
    meta: { silent: true },
  });
  const refused = query.error instanceof ApiError && query.error.status >= 400 && query.error.status < 500;

  useEffect(() => {
    if (!refused) return;
    toastError(query.error);
    navigate("/tickets", { replace: true });
  }, [refused, query.error, navigate]);

  return { ...query, refused };
}
