CREATE TABLE "whatsapp_sent_messages" (
	"whatsapp_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"message_id" text NOT NULL,
	"value" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "whatsapp_sent_messages_whatsapp_id_message_id_pk" PRIMARY KEY("whatsapp_id","message_id")
);
--> statement-breakpoint
ALTER TABLE "whatsapp_sent_messages" ADD CONSTRAINT "whatsapp_sent_messages_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_sent_messages" ADD CONSTRAINT "whatsapp_sent_messages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "whatsapp_sent_messages_created_idx" ON "whatsapp_sent_messages" USING btree ("created_at");