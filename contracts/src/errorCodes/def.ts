/** One catalogue entry: the HTTP status and the text in the three languages. */
export interface ErrorDef {
  status: number;
  pt: string;
  en: string;
  es: string;
}
