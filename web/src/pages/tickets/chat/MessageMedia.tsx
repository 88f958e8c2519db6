import type { MessageDTO } from "@atende/contracts";
import CloseIcon from "@mui/icons-material/Close";
import DownloadIcon from "@mui/icons-material/Download";
import InsertDriveFileIcon from "@mui/icons-material/InsertDriveFile";
import LocationOnIcon from "@mui/icons-material/LocationOn";
import MissedVideoCallIcon from "@mui/icons-material/MissedVideoCall";
import PhoneMissedIcon from "@mui/icons-material/PhoneMissed";
import PersonIcon from "@mui/icons-material/Person";
import PhonelinkEraseIcon from "@mui/icons-material/PhonelinkErase";
import {
  Avatar,
  Box,
  ButtonBase,
  CircularProgress,
  Dialog,
  IconButton,
  Link,
  Skeleton,
  Toolbar,
  Typography,
} from "@mui/material";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useMediaUrl } from "../../../hooks/useMediaUrl";
import { formatTime } from "../../../i18n/format";
import { formatPhone, parseContactCard, parseLocation } from "./conversation";

/** The kinds whose body is the content itself (not a caption under a file). */
export function bodyIsContent(message: MessageDTO): boolean {
  return ["locationMessage", "vcard", "contactMessage", "call_log", "unreadable"].includes(message.mediaType);
}

function Unavailable() {
  const { t } = useTranslation();
  return (
    <Typography variant="body2" sx={{ fontStyle: "italic", opacity: 0.75, py: 0.5 }}>
      {t("chat.media.unavailable")}
    </Typography>
  );
}

/**
 * Pictures already seen, by URL: their natural size. Drawn again (the list draws only the rows on
 * screen, so a picture is drawn each time it scrolls back in), a picture takes its final size at
 * once instead of growing from a placeholder and moving the messages around it.
 */
const pictureSizes = new Map<string, { width: number; height: number }>();

/** How the picture is laid out below: its natural size, at most `max` high, at least 80 wide. */
function shownSize(natural: { width: number; height: number }, max: number) {
  const scale = Math.min(1, max / natural.height);
  return { width: Math.max(80, natural.width * scale), height: Math.min(max, natural.height) };
}

function ImageMedia({ message, sticker }: { message: MessageDTO; sticker: boolean }) {
  const { t } = useTranslation();
  const { src, failed } = useMediaUrl(message.mediaUrl);
  const [open, setOpen] = useState(false);
  const name = message.mediaName ?? t("chat.media.image");
  const size = sticker ? 140 : 330;
  const known = message.mediaUrl ? pictureSizes.get(message.mediaUrl) : undefined;
  const box = known ? shownSize(known, size) : null;
  // Until the picture has loaded (its size unknown), it keeps the placeholder's box: an image with
  // no size yet is drawn zero high, and the row would shrink and then grow again around it.
  const [loaded, setLoaded] = useState(false);
  // Narrower bubbles scale it down, keeping its proportions, as they do the picture itself.
  const knownBox = box && {
    width: box.width,
    height: "auto",
    aspectRatio: `${box.width} / ${box.height}`,
    maxWidth: "100%",
  };
  const placeholderBox = { width: sticker ? 140 : 260, height: sticker ? 140 : 190, maxWidth: "100%" };
  if (failed) return <Unavailable />;
  if (!src) {
    return <Skeleton variant="rounded" aria-label={t("common.loading")} sx={knownBox ?? placeholderBox} />;
  }
  return (
    <>
      <ButtonBase
        onClick={() => setOpen(true)}
        aria-label={t("chat.media.openImage", { name })}
        sx={{ display: "block", borderRadius: 1.5, overflow: "hidden", maxWidth: "100%" }}
      >
        <Box
          component="img"
          src={src}
          alt={name}
          onLoad={(event) => {
            const img = event.currentTarget;
            if (message.mediaUrl && img.naturalHeight > 0)
              pictureSizes.set(message.mediaUrl, { width: img.naturalWidth, height: img.naturalHeight });
            setLoaded(true);
          }}
          sx={{
            display: "block",
            objectFit: "cover",
            // A known size lays the picture out before it is decoded.
            ...(knownBox ??
              (loaded ? { maxWidth: "100%", width: "auto", maxHeight: size, minWidth: 80 } : placeholderBox)),
          }}
        />
      </ButtonBase>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        fullScreen
        aria-label={name}
        slotProps={{ paper: { sx: { bgcolor: "rgba(11,20,26,0.96)", color: "#e9edef" } } }}
      >
        <Toolbar sx={{ gap: 1 }}>
          <Typography noWrap sx={{ flex: 1 }}>
            {name}
          </Typography>
          <IconButton
            component="a"
            href={src}
            download={name}
            color="inherit"
            aria-label={t("chat.media.download", { name })}
          >
            <DownloadIcon />
          </IconButton>
          <IconButton color="inherit" aria-label={t("chat.close")} onClick={() => setOpen(false)} autoFocus>
            <CloseIcon />
          </IconButton>
        </Toolbar>
        <Box
          onClick={() => setOpen(false)}
          sx={{
            flex: 1,
            minHeight: 0,
            display: "flex",
            alignItems: "center",
            justifyContent: "center",
            p: 2,
          }}
        >
          <Box
            component="img"
            src={src}
            alt={name}
            onClick={(event) => event.stopPropagation()}
            sx={{ maxWidth: "100%", maxHeight: "100%", objectFit: "contain", boxShadow: 8 }}
          />
        </Box>
      </Dialog>
    </>
  );
}

function PlayerMedia({ message, kind }: { message: MessageDTO; kind: "audio" | "video" }) {
  const { t } = useTranslation();
  const { src, failed } = useMediaUrl(message.mediaUrl);
  const label = message.mediaName ?? t(`chat.media.${kind}`);
  if (failed) return <Unavailable />;
  if (!src) {
    return kind === "audio" ? (
      <Skeleton
        variant="rounded"
        aria-label={t("common.loading")}
        sx={{ width: 280, height: 40, maxWidth: "100%" }}
      />
    ) : (
      <Skeleton
        variant="rounded"
        aria-label={t("common.loading")}
        sx={{ width: 280, height: 158, maxWidth: "100%" }}
      />
    );
  }
  if (kind === "audio") {
    return (
      <Box
        component="audio"
        controls
        preload="metadata"
        src={src}
        aria-label={label}
        sx={{ display: "block", width: 280, maxWidth: "100%", height: 40 }}
      />
    );
  }
  return (
    <Box
      component="video"
      controls
      preload="metadata"
      src={src}
      aria-label={label}
      sx={{
        display: "block",
        width: 330,
        maxWidth: "100%",
        maxHeight: 330,
        borderRadius: 1.5,
        bgcolor: "#000",
      }}
    />
  );
}

function fileSize(bytes: number | undefined): string {
  if (!bytes) return "";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function DocumentMedia({ message }: { message: MessageDTO }) {
  const { t } = useTranslation();
  const { src, failed, size } = useMediaUrl(message.mediaUrl);
  const name = message.mediaName ?? t("chat.media.document");
  const ext = /\.([a-z0-9]{1,5})$/i.exec(name)?.[1]?.toUpperCase() ?? "";
  const details = [ext, fileSize(size)].filter(Boolean).join(" · ");
  if (failed) return <Unavailable />;
  return (
    <Box
      sx={{
        display: "flex",
        alignItems: "center",
        gap: 1.25,
        p: 1,
        minWidth: 240,
        maxWidth: 330,
        borderRadius: 1.5,
        bgcolor: "rgba(0,0,0,0.05)",
      }}
    >
      <InsertDriveFileIcon sx={{ fontSize: 34, color: ext === "PDF" ? "#e5252a" : "#8696a0" }} aria-hidden />
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 500, wordBreak: "break-all" }}>
          {name}
        </Typography>
        {details && (
          <Typography variant="caption" sx={{ opacity: 0.7 }}>
            {details}
          </Typography>
        )}
      </Box>
      {src ? (
        <IconButton
          component="a"
          href={src}
          download={name}
          size="small"
          aria-label={t("chat.media.download", { name })}
          sx={{ color: "inherit", border: 1, borderColor: "divider" }}
        >
          <DownloadIcon fontSize="small" />
        </IconButton>
      ) : (
        <CircularProgress size={20} aria-label={t("common.loading")} />
      )}
    </Box>
  );
}

function LocationMedia({ body }: { body: string }) {
  const { t } = useTranslation();
  const location = parseLocation(body);
  if (!location) return <Typography variant="body2">{body}</Typography>;
  return (
    <Link
      href={location.url}
      target="_blank"
      rel="noreferrer"
      underline="none"
      color="inherit"
      aria-label={t("chat.media.openMap")}
      sx={{ display: "block", width: 270, maxWidth: "100%" }}
    >
      <Box
        aria-hidden
        sx={{
          height: 120,
          borderRadius: 1.5,
          display: "flex",
          alignItems: "center",
          justifyContent: "center",
          background:
            "repeating-linear-gradient(0deg, rgba(0,0,0,0.05) 0 1px, transparent 1px 24px), repeating-linear-gradient(90deg, rgba(0,0,0,0.05) 0 1px, transparent 1px 24px), linear-gradient(135deg, #dfeee3, #cfe3f1)",
        }}
      >
        <LocationOnIcon
          sx={{ fontSize: 44, color: "#e5252a", filter: "drop-shadow(0 2px 2px rgba(0,0,0,.3))" }}
        />
      </Box>
      <Typography variant="body2" sx={{ fontWeight: 500, mt: 0.75 }}>
        {location.name || t("chat.media.location")}
      </Typography>
      <Typography variant="caption" sx={{ opacity: 0.7 }}>
        {location.latitude.toFixed(5)}, {location.longitude.toFixed(5)} · {t("chat.media.openMap")}
      </Typography>
    </Link>
  );
}

function ContactCardMedia({ body }: { body: string }) {
  const { t } = useTranslation();
  const card = parseContactCard(body);
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1.25, minWidth: 220, py: 0.5 }}>
      <Avatar sx={{ width: 44, height: 44 }}>
        <PersonIcon />
      </Avatar>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {card.name || t("chat.media.contact")}
        </Typography>
        {card.numbers.map((number) => (
          <Typography key={number} variant="caption" component="p" sx={{ opacity: 0.75 }}>
            {formatPhone(number) || number}
          </Typography>
        ))}
        {card.numbers.length === 0 && (
          <Typography variant="caption" sx={{ opacity: 0.75 }}>
            {t("chat.media.contact")}
          </Typography>
        )}
      </Box>
    </Box>
  );
}

function MissedCall({ message }: { message: MessageDTO }) {
  const { t } = useTranslation();
  const video = /v[íi]deo|video/i.test(message.body);
  const Icon = video ? MissedVideoCallIcon : PhoneMissedIcon;
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, py: 0.25 }}>
      <Icon sx={{ color: "error.main" }} aria-hidden />
      <Typography variant="body2">
        {t(video ? "chat.media.missedVideoCall" : "chat.media.missedVoiceCall", {
          time: formatTime(message.createdAt),
        })}
      </Typography>
    </Box>
  );
}

/** A message WhatsApp delivered that this device could not read: the agent looks on the phone. */
function UnreadableMessage() {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, py: 0.25 }}>
      <PhonelinkEraseIcon sx={{ color: "warning.main" }} aria-hidden />
      <Typography variant="body2" sx={{ fontStyle: "italic" }}>
        {t("chat.media.unreadable")}
      </Typography>
    </Box>
  );
}

/** What a message carries besides its text: a file, a place, a contact card or a missed call. */
const KIND_LABEL: Record<string, string> = {
  image: "chat.media.image",
  sticker: "chat.media.sticker",
  audio: "chat.media.audio",
  video: "chat.media.video",
};

/**
 * An inbound file not stored (yet): "pending" while the server downloads it (the bubble turns into
 * the media when its update arrives), or why it never will be.
 */
function MediaStatusNote({ message }: { message: MessageDTO }) {
  const { t } = useTranslation();
  if (message.mediaStatus === "pending") {
    const kind = t(KIND_LABEL[message.mediaType] ?? "chat.media.document").toLowerCase();
    return (
      <Box role="status" sx={{ display: "flex", alignItems: "center", gap: 1, py: 0.5, opacity: 0.8 }}>
        <CircularProgress size={16} aria-hidden />
        <Typography variant="body2">{t("chat.media.loading", { kind })}</Typography>
      </Box>
    );
  }
  return (
    <Typography variant="body2" role="note" sx={{ fontStyle: "italic", opacity: 0.75, py: 0.5 }}>
      {message.mediaName ? `${message.mediaName}: ` : ""}
      {t(message.mediaStatus === "tooLarge" ? "chat.media.tooLarge" : "chat.media.failed")}
    </Typography>
  );
}

export function MessageMedia({ message }: { message: MessageDTO }) {
  if (message.mediaStatus) return <MediaStatusNote message={message} />;
  switch (message.mediaType) {
    case "image":
    case "sticker":
      return message.mediaUrl ? (
        <ImageMedia message={message} sticker={message.mediaType === "sticker"} />
      ) : (
        <Unavailable />
      );
    case "audio":
    case "video":
      return message.mediaUrl ? <PlayerMedia message={message} kind={message.mediaType} /> : <Unavailable />;
    case "application":
      return message.mediaUrl ? <DocumentMedia message={message} /> : <Unavailable />;
    case "locationMessage":
      return <LocationMedia body={message.body} />;
    case "vcard":
    case "contactMessage":
      return <ContactCardMedia body={message.body} />;
    case "call_log":
      return <MissedCall message={message} />;
    case "unreadable":
      return <UnreadableMessage />;
    default:
      // A text message that still carries a file (a provider we do not know fully).
      return message.mediaUrl ? <DocumentMedia message={message} /> : null;
  }
}
