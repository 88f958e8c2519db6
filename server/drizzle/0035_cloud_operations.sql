CREATE TABLE "cloud_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"whatsapp_id" integer NOT NULL,
	"waba_id" text NOT NULL,
	"meta_id" text,
	"name" text NOT NULL,
	"language" text NOT NULL,
	"status" text NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"parameter_format" text,
	"components" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "template" jsonb;--> statement-breakpoint
ALTER TABLE "cloud_templates" ADD CONSTRAINT "cloud_templates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cloud_templates" ADD CONSTRAINT "cloud_templates_whatsapp_id_whatsapps_id_fk" FOREIGN KEY ("whatsapp_id") REFERENCES "public"."whatsapps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cloud_templates_whatsapp_name_uq" ON "cloud_templates" USING btree ("whatsapp_id","name","language");--> statement-breakpoint
CREATE INDEX "cloud_templates_company_idx" ON "cloud_templates" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "cloud_templates_waba_idx" ON "cloud_templates" USING btree ("waba_id","name");