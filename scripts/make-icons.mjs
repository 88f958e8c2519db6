// Writes the app's built-in icons (web/public/icons/*.png) from icon.svg: the sizes the manifest
// and iOS ask for, a maskable one (the drawing inside Android's safe circle) and the monochrome
// badge Android shows in the status bar. Run once after changing icon.svg: `node scripts/make-icons.mjs`
// (sharp comes with the WhatsApp Web library's dependencies).
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";

const dir = path.resolve(import.meta.dirname, "../web/public/icons");
const svg = fs.readFileSync(path.join(dir, "icon.svg"));

async function png(name, size, input = svg) {
  await sharp(input, { density: 300 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(dir, name));
}

await png("icon-192.png", 192);
await png("icon-512.png", 512);
await png("apple-touch-icon.png", 180);
// Maskable: the drawing shrunk to the inner 70 % over the full-bleed background.
const inner = await sharp(svg, { density: 300 }).resize(358, 358).png().toBuffer();
await sharp({ create: { width: 512, height: 512, channels: 4, background: "#007a63" } })
  .composite([{ input: inner, gravity: "center" }])
  .png({ compressionLevel: 9 })
  .toFile(path.join(dir, "maskable-512.png"));
// The badge: the bubble alone, white on transparent.
const badge = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="96 120 320 320"><path d="M136 152h240a32 32 0 0 1 32 32v120a32 32 0 0 1-32 32H236l-76 60v-60h-24a32 32 0 0 1-32-32V184a32 32 0 0 1 32-32z" fill="#fff"/></svg>',
);
await png("badge-96.png", 96, badge);
console.log("icons written to", dir);
