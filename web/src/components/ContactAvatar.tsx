import type { TicketDTO } from "@atende/contracts";
import GroupsIcon from "@mui/icons-material/Groups";
import { Avatar } from "@mui/material";

// Mid-tone backgrounds that keep white initials above 4.5:1 contrast.
const COLORS = ["#00796b", "#1565c0", "#6a1b9a", "#ad1457", "#c62828", "#5d4037", "#37474f", "#2e7d32"];

function colorFor(text: string): string {
  let hash = 0;
  for (const char of text) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return COLORS[Math.abs(hash) % COLORS.length]!;
}

function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0]!, words[words.length - 1]!] : words;
  return letters.map((word) => [...word][0]?.toUpperCase() ?? "").join("") || "#";
}

/** The contact's picture, or their initials on a colour of their own; a group shows a group icon. */
export function ContactAvatar({ contact, size = 40 }: { contact: TicketDTO["contact"]; size?: number }) {
  const label = contact.name || contact.number;
  return (
    <Avatar
      src={contact.profilePicUrl || undefined}
      alt=""
      sx={{
        width: size,
        height: size,
        fontSize: size * 0.4,
        fontWeight: 600,
        bgcolor: colorFor(label),
        color: "#fff",
      }}
    >
      {contact.isGroup ? <GroupsIcon fontSize="small" /> : initials(label)}
    </Avatar>
  );
}
