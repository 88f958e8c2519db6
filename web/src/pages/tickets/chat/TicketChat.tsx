import { FullPageLoader } from "../../../components/FullPageLoader";

/** The chat window of one ticket, opened by its uuid. (Being built: the chat issue replaces this file.) */
export function TicketChat({ uuid }: { uuid: string }) {
  return <FullPageLoader key={uuid} />;
}
