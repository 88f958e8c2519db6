import type { ErrorDef } from "./def.js";

/** Contact lists, their items and imports, and file lists (back-office "Lists and files"). */
export const CONTACT_LIST_ERRORS = {
  ERR_NO_CONTACT_LIST_FOUND: {
    status: 404,
    pt: "Lista de contatos não encontrada.",
    en: "Contact list not found.",
    es: "Lista de contactos no encontrada.",
  },
  ERR_NO_CONTACT_LIST_ITEM_FOUND: {
    status: 404,
    pt: "Contato da lista não encontrado.",
    en: "List contact not found.",
    es: "Contacto de la lista no encontrado.",
  },
  ERR_CONTACT_LIST_ITEM_DUPLICATED: {
    status: 409,
    pt: "Este número já está na lista.",
    en: "This number is already in the list.",
    es: "Este número ya está en la lista.",
  },
  ERR_CONTACT_LIST_ITEM_INVALID_NUMBER: {
    status: 400,
    pt: "Número de telefone inválido.",
    en: "Invalid phone number.",
    es: "Número de teléfono inválido.",
  },
  ERR_CONTACT_LIST_IMPORT_INVALID_FILE: {
    status: 400,
    pt: "Não foi possível ler a planilha. Envie um arquivo .xls, .xlsx ou .csv com as colunas nome e número.",
    en: "The spreadsheet could not be read. Send an .xls, .xlsx or .csv file with name and number columns.",
    es: "No se pudo leer la planilla. Envíe un archivo .xls, .xlsx o .csv con las columnas nombre y número.",
  },
  ERR_CONTACT_LIST_IMPORT_NO_NUMBER_COLUMN: {
    status: 400,
    pt: "A planilha não tem uma coluna de número (número, numero, number ou telefone).",
    en: "The spreadsheet has no number column (número, numero, number or telefone).",
    es: "La planilla no tiene una columna de número (número, numero, number o telefone).",
  },
  ERR_CONTACT_LIST_IMPORT_TOO_LARGE: {
    status: 413,
    pt: "A planilha é grande demais: no máximo 20 MB e 100.000 linhas.",
    en: "The spreadsheet is too large: at most 20 MB and 100,000 rows.",
    es: "La planilla es demasiado grande: como máximo 20 MB y 100.000 filas.",
  },
  ERR_NO_CONTACT_LIST_IMPORT_FOUND: {
    status: 404,
    pt: "Importação não encontrada.",
    en: "Import not found.",
    es: "Importación no encontrada.",
  },
  ERR_NO_FILE_LIST_FOUND: {
    status: 404,
    pt: "Lista de arquivos não encontrada.",
    en: "File list not found.",
    es: "Lista de archivos no encontrada.",
  },
  ERR_FILE_LIST_NO_FILE: {
    status: 400,
    pt: "Escolha um arquivo!",
    en: "Choose a file!",
    es: "¡Elija un archivo!",
  },
  ERR_FILE_LIST_FILE_TOO_LARGE: {
    status: 413,
    pt: "O arquivo é grande demais: no máximo 20 MB.",
    en: "The file is too large: at most 20 MB.",
    es: "El archivo es demasiado grande: como máximo 20 MB.",
  },
} as const satisfies Record<string, ErrorDef>;
