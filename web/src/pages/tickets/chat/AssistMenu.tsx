import { ASSIST_STYLES, type AssistStyle } from "@atende/contracts";
import AutoAwesomeIcon from "@mui/icons-material/AutoAwesome";
import { CircularProgress, Divider, IconButton, ListItemText, Menu, MenuItem, Tooltip } from "@mui/material";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";

interface AssistMenuProps {
  /** A request is on its way: the button shows it and takes no new one. */
  busy: boolean;
  /** There is typed text to rephrase. */
  hasText: boolean;
  onSuggest(): void;
  onRephrase(style: AssistStyle): void;
}

/** The composer's AI help: suggest a reply, or rephrase what was typed (friendlier, shorter, grammar). */
export function AssistMenu({ busy, hasText, onSuggest, onRephrase }: AssistMenuProps) {
  const { t } = useTranslation();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  return (
    <>
      <Tooltip title={t(busy ? "assist.working" : "assist.menu")}>
        <span>
          <IconButton
            aria-label={t("assist.menu")}
            aria-haspopup="menu"
            aria-controls={anchor ? menuId : undefined}
            aria-expanded={anchor ? "true" : undefined}
            aria-busy={busy}
            disabled={busy}
            color="primary"
            onClick={(event) => setAnchor(event.currentTarget)}
          >
            {busy ? <CircularProgress size={22} color="inherit" aria-hidden /> : <AutoAwesomeIcon />}
          </IconButton>
        </span>
      </Tooltip>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        anchorOrigin={{ vertical: "top", horizontal: "left" }}
        transformOrigin={{ vertical: "bottom", horizontal: "left" }}
      >
        <MenuItem
          onClick={() => {
            close();
            onSuggest();
          }}
        >
          {t("assist.suggest")}
        </MenuItem>
        <Divider />
        {ASSIST_STYLES.map((style, index) => (
          <MenuItem
            key={style}
            disabled={!hasText}
            onClick={() => {
              close();
              onRephrase(style);
            }}
          >
            <ListItemText
              primary={t(`assist.${style}`)}
              secondary={!hasText && index === 0 ? t("assist.typeFirst") : undefined}
            />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
