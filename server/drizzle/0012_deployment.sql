CREATE TABLE "deployment" (
	"one" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
