-- Secrets at rest (issue 32). The keys are not in the database, so the values are moved by the
-- start-up step (src/secretsAtRest.ts) right after the migrations: it seals every clear webhook
-- secret now in "secret_enc" and every clear secret setting, and hashes each connection's clear
-- "token" into "token_hash" (then clears it).
ALTER TABLE "webhook_subscriptions" RENAME COLUMN "secret" TO "secret_enc";--> statement-breakpoint
DROP INDEX "whatsapps_token_uq";--> statement-breakpoint
ALTER TABLE "whatsapps" ALTER COLUMN "token" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "token_hash" text;--> statement-breakpoint
ALTER TABLE "whatsapps" ADD COLUMN "token_hint" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapps_token_hash_uq" ON "whatsapps" USING btree ("token_hash");