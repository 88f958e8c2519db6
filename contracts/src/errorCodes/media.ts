import type { ErrorDef } from "./def.js";

/** Media an agent sends: voice notes converted for WhatsApp, the Cloud API's types and sizes. */
export const MEDIA_ERRORS = {
  ERR_CLOUD_MEDIA_TYPE: {
    status: 400,
    pt: "A API oficial do WhatsApp (Cloud) não aceita este tipo de arquivo. Envie imagens JPEG ou PNG, vídeos MP4 ou 3GP, áudios AAC, AMR, MP3, M4A ou OGG (Opus), ou documentos PDF, TXT, Word, Excel ou PowerPoint.",
    en: "The official WhatsApp API (Cloud) does not accept this type of file. Send JPEG or PNG images, MP4 or 3GP videos, AAC, AMR, MP3, M4A or OGG (Opus) audio, or PDF, TXT, Word, Excel or PowerPoint documents.",
    es: "La API oficial de WhatsApp (Cloud) no acepta este tipo de archivo. Envíe imágenes JPEG o PNG, videos MP4 o 3GP, audios AAC, AMR, MP3, M4A u OGG (Opus), o documentos PDF, TXT, Word, Excel o PowerPoint.",
  },
  ERR_CLOUD_MEDIA_TOO_LARGE: {
    status: 413,
    pt: "Arquivo grande demais para a API oficial do WhatsApp (Cloud): até 5 MB para imagens, 16 MB para áudios e vídeos, 100 MB para documentos e 500 KB para figurinhas.",
    en: "File too large for the official WhatsApp API (Cloud): up to 5 MB for images, 16 MB for audio and video, 100 MB for documents and 500 KB for stickers.",
    es: "Archivo demasiado grande para la API oficial de WhatsApp (Cloud): hasta 5 MB para imágenes, 16 MB para audios y videos, 100 MB para documentos y 500 KB para stickers.",
  },
  ERR_AUDIO_CONVERSION_FAILED: {
    status: 400,
    pt: "Não foi possível converter este áudio em mensagem de voz: o arquivo está danificado ou não é um áudio.",
    en: "This audio could not be converted into a voice message: the file is damaged or is not audio.",
    es: "No se pudo convertir este audio en mensaje de voz: el archivo está dañado o no es un audio.",
  },
} as const satisfies Record<string, ErrorDef>;
