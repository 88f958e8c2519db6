/** Colour emoji fonts first, so reactions look like the phone's. */
export const EMOJI_FONT =
  '"Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji", "Segoe UI Symbol", sans-serif';

/** The reaction picker's first row, as WhatsApp offers it. */
export const QUICK_EMOJI = ["👍", "❤️", "😂", "😮", "😢", "🙏"] as const;

/** The full list behind "+": faces, hands, hearts and a few objects (72). */
// prettier-ignore
export const ALL_EMOJI = [
  "😀", "😃", "😄", "😁", "😆", "😅", "🤣", "😂", "🙂", "😉", "😊", "😇",
  "🥰", "😍", "🤩", "😘", "😋", "😜", "🤪", "🤗", "🤭", "🤫", "🤔", "🤐",
  "😐", "😑", "😶", "😏", "😒", "🙄", "😬", "😌", "😔", "😴", "😷", "🤒",
  "🥳", "😎", "🤓", "😕", "😟", "😮", "😲", "😳", "🥺", "😢", "😭", "😱",
  "😤", "😡", "👍", "👎", "👏", "🙌", "🙏", "🤝", "👌", "✌️", "💪", "👋",
  "❤️", "💔", "💯", "🔥", "✨", "🎉", "✅", "❌", "⭐", "📌", "📞", "⏰",
] as const;
