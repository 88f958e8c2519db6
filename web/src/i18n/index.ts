import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { ERRORS, LANGS, pickLang, type Lang } from "@atende/contracts";
import { en } from "./en";
import { es } from "./es";
import { pt, type Translation } from "./pt";

const LANGUAGE_KEY = "i18nextLng";
const HTML_LANG: Record<Lang, string> = { pt: "pt-BR", en: "en", es: "es" };
const UI_TEXTS: Record<Lang, Translation> = { pt, en, es };

/**
 * `errors.<CODE>` come from the contracts' catalogue, so server and web word an error alike.
 * (Validation keys are read from the contracts where forms show them: see components/formFields.)
 */
function errorTexts(lang: Lang) {
  return Object.fromEntries(Object.entries(ERRORS).map(([code, def]) => [code, def[lang]]));
}

const resources = Object.fromEntries(
  LANGS.map((lang) => [lang, { translation: { ...UI_TEXTS[lang], errors: errorTexts(lang) } }]),
);

function storedLanguage(): Lang {
  try {
    return pickLang(localStorage.getItem(LANGUAGE_KEY));
  } catch {
    return "pt";
  }
}

i18n.on("languageChanged", (lng) => {
  document.documentElement.lang = HTML_LANG[pickLang(lng)];
});

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: "pt",
  supportedLngs: [...LANGS],
  interpolation: { escapeValue: false },
  initAsync: false,
});

export function currentLanguage(): Lang {
  return pickLang(i18n.language);
}

export function setLanguage(lang: Lang): void {
  localStorage.setItem(LANGUAGE_KEY, lang);
  void i18n.changeLanguage(lang);
}

export default i18n;
