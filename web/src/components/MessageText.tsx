import { Box, Link } from "@mui/material";
import { Fragment, type ReactNode } from "react";

// WhatsApp's own marks: *bold*, _italic_, ~strike~, ```monospace```; links become clickable.
const TOKEN = /(```[^`]+```|\*[^*\n]+\*|_[^_\n]+_|~[^~\n]+~|https?:\/\/[^\s<]+[^\s<.,;:!?)"'])/g;

function render(token: string, key: number): ReactNode {
  if (token.startsWith("```")) {
    return (
      <Box key={key} component="code" sx={{ fontFamily: "monospace", fontSize: "0.92em" }}>
        {token.slice(3, -3)}
      </Box>
    );
  }
  if (token.startsWith("http")) {
    return (
      <Link key={key} href={token} target="_blank" rel="noreferrer" sx={{ wordBreak: "break-all" }}>
        {token}
      </Link>
    );
  }
  const inner = token.slice(1, -1);
  if (token.startsWith("*")) return <strong key={key}>{inner}</strong>;
  if (token.startsWith("_")) return <em key={key}>{inner}</em>;
  return <s key={key}>{inner}</s>;
}

/** A message body as WhatsApp shows it. */
export function MessageText({ text }: { text: string }) {
  return text
    .split(TOKEN)
    .map((part, index) => (index % 2 === 1 ? render(part, index) : <Fragment key={index}>{part}</Fragment>));
}

/** A message body on one line without its marks, as the ticket list previews it ("*Ana:*\nOi" → "Ana: Oi"). */
export function plainText(text: string): string {
  return text
    .split(TOKEN)
    .map((part, index) => {
      if (index % 2 === 0 || part.startsWith("http")) return part;
      return part.startsWith("```") ? part.slice(3, -3) : part.slice(1, -1);
    })
    .join("")
    .replace(/\s*\n\s*/g, " ");
}
