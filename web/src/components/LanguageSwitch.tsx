import TranslateIcon from "@mui/icons-material/Translate";
import { IconButton, ListItemText, Menu, MenuItem, Tooltip } from "@mui/material";
import { LANGS, type Lang } from "@atende/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { currentLanguage, setLanguage } from "../i18n";

/** Each language named in itself, so anyone can find their own. */
const LANGUAGE_NAMES: Record<Lang, string> = { pt: "Português", en: "English", es: "Español" };

export function LanguageSwitch({ color = "inherit" }: { color?: "inherit" | "default" }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const active = currentLanguage();

  function choose(lang: Lang) {
    setAnchor(null);
    setLanguage(lang);
  }

  return (
    <>
      <Tooltip title={t("topBar.language")}>
        <IconButton
          color={color}
          aria-label={t("topBar.language")}
          aria-haspopup="menu"
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <TranslateIcon />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {LANGS.map((lang) => (
          <MenuItem key={lang} lang={lang} selected={lang === active} onClick={() => choose(lang)}>
            <ListItemText>{LANGUAGE_NAMES[lang]}</ListItemText>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
